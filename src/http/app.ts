/**
 * The HTTP server: the client API over HTTP (zod-validated, OpenAPI at /openapi.json), live run events
 * as SSE, the codec endpoint for Temporal's Web UI, and the approvals inbox and run pages.
 */
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { PayloadCodec } from '@temporalio/common';
import type { AgentClient } from '../client/client.ts';
import type { AgentStore } from '../store/store.ts';
import { authHook } from './auth-hook.ts';
import type { Authenticator, Principal } from './auth.ts';
import { clientErrorHandler } from './client-errors.ts';
import { errorHandler, notFoundHandler } from './errors.ts';
import { EventStreams } from './event-stream.ts';
import { EventTickets } from './event-tickets.ts';
import { redactedUrl } from './query-credentials.ts';
import { requestGuardHook } from './request-guard.ts';
import { codecCorsHook, codecRoutes } from './routes/codec.ts';
import { decisionRoutes } from './routes/decisions.ts';
import { versioningRoutes } from './routes/versioning.ts';
import { eventRoutes } from './routes/events.ts';
import { agentRoutes } from './routes/agents.ts';
import { runRoutes } from './routes/runs.ts';
import { scheduleRoutes } from './routes/schedules.ts';
import { AgentSchedules } from '../client/schedules.ts';
import { uiRoutes } from './routes/ui.ts';
import { errorSchema } from './schemas.ts';

export interface HttpAppOptions {
  agents: AgentClient;
  store: AgentStore;
  auth: Authenticator;
  /** The payload codec (AGENT_PAYLOAD_KEY), for /codec/*; null: payloads are not encrypted. */
  codec: PayloadCodec | null;
  /** Origins allowed to call /codec/* from a browser (the Temporal Web UI's). */
  codecOrigins?: readonly string[];
  /** SSE heartbeat period (default 15 s). */
  heartbeatMs?: number;
  /** How long an event-stream ticket opens its stream (default 60 s). */
  ticketTtlMs?: number;
  /** Fastify's request log (default off). */
  logger?: boolean;
}

export type HttpApp = FastifyInstance & { eventStreams: EventStreams };

export async function buildHttpApp(options: HttpAppOptions): Promise<HttpApp> {
  const app = Fastify({
    // The request log shows a request's method and URL only, never a token or ticket in its query
    // (however spelled, however often), nor an Authorization header (should anything log headers).
    logger: options.logger
      ? {
          serializers: { req: (req: FastifyRequest) => ({ method: req.method, url: redactedUrl(req.url) }) },
          redact: { paths: ['req.headers.authorization', 'headers.authorization', 'req.headers.cookie', 'headers.cookie'], censor: '…' },
        }
      : false,
    // Open SSE streams would hold close() up; they are ended (and clients reconnect) instead.
    forceCloseConnections: true,
    bodyLimit: 1024 * 1024,
    // Run ids may be 200 characters (POST /runs?runId=) and the params schemas allow 1000: the router's
    // default limit of 100 answered longer ones 414 with a body of Fastify's own.
    routerOptions: { maxParamLength: 1000 },
    // A bad URL or a too long path parameter fails before any route: the same {error, message} body as the rest.
    frameworkErrors: errorHandler,
    // Bytes Node's HTTP parser refuses: the same body too, then the connection closes.
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
  await app.register(fastifySwagger, {
    openapi: {
      // 3.1: schemas are JSON Schema 2020-12, so a nullable field is `anyOf: [{$ref}, {type: 'null'}]`
      // (3.0's `nullable` means nothing next to a bare $ref, and strict validators refuse it).
      openapi: '3.1.0',
      info: {
        title: 'Durable agent harness',
        description: 'Runs of tool-using agents on Temporal: start, list, watch (SSE), approve, answer, cancel; scheduled agents.',
        version: '1',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  const streams = new EventStreams(options.store);
  const tickets = new EventTickets(options.ticketTtlMs ? { ttlMs: options.ticketTtlMs } : {});
  app.decorateRequest('principal', null as unknown as Principal);
  // Any documented route may also fail with 503 (Temporal or the store unreachable: try again) or 500,
  // with the same Error body: declared once, as each one's `default` response.
  app.addHook('onRoute', (route) => {
    const response = route.schema?.response as Record<string, unknown> | undefined;
    if (response && !route.schema?.hide) response.default ??= errorSchema;
  });
  app.addHook('onRequest', codecCorsHook(options.codecOrigins ?? []));
  app.addHook('onRequest', requestGuardHook({ open: options.auth.open, codecOrigins: options.codecOrigins ?? [] }));
  app.addHook('onRequest', authHook(options.auth, tickets));
  app.addHook('preClose', (done) => {
    streams.closeAll();
    done();
  });

  app.get('/openapi.json', { schema: { hide: true }, config: { public: true } }, () => app.swagger());
  app.get('/healthz', { schema: { hide: true }, config: { public: true } }, () => ({ ok: true }));
  await app.register(runRoutes, { agents: options.agents, store: options.store });
  await app.register(decisionRoutes, { agents: options.agents });
  await app.register(versioningRoutes, { agents: options.agents });
  await app.register(agentRoutes, { store: options.store });
  await app.register(scheduleRoutes, { schedules: new AgentSchedules(options.agents) });
  await app.register(eventRoutes, { agents: options.agents, streams, tickets, heartbeatMs: options.heartbeatMs });
  await app.register(codecRoutes, { codec: options.codec });
  await app.register(uiRoutes, { auth: options.auth });
  await app.ready();
  return Object.assign(app, { eventStreams: streams });
}
