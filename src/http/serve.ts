/**
 * Starts the HTTP server for `npm run agent -- serve`: tokens from the environment, loopback only when
 * there are none, the payload codec when AGENT_PAYLOAD_KEY is set.
 */
import { isIP } from 'node:net';
import type { AgentClient } from '../client/client.ts';
import { AesGcmPayloadCodec } from '../client/payload-codec.ts';
import type { AgentStore } from '../store/store.ts';
import { buildHttpApp, type HttpApp } from './app.ts';
import { authConfigFromEnv, Authenticator } from './auth.ts';
import { AgentError } from '../wire/agent-error.ts';

/** The port `serveHttp` listens on unless told otherwise (or `AGENT_HTTP_PORT`). */
export const DEFAULT_HTTP_PORT = 8787;

/** What `serveHttp` serves (the client and the workers' store) and where. */
export interface ServeOptions {
  agents: AgentClient;
  store: AgentStore;
  /** Default AGENT_HTTP_PORT, else 8787; 0 picks a free port. */
  port?: number;
  /** Default AGENT_HTTP_HOST, else 0.0.0.0 with tokens and 127.0.0.1 without. */
  host?: string;
  /** The Temporal Web UI's address, allowed to call /codec/* from the browser. */
  temporalUiUrl?: string | null;
  heartbeatMs?: number;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

/** A listening HTTP server: its Fastify app, its URL, and `close()`. */
export interface HttpServer {
  app: HttpApp;
  url: string;
  close(): Promise<void>;
}

/** No token is configured and the host asked for is not loopback: the server refuses to listen there. */
export class UnsafeListenError extends AgentError {
  override readonly name = 'UnsafeListenError';
  readonly code = 'UnsafeListen';
}

/** Starts the HTTP API, live event streams and the approvals inbox (tokens from `AGENT_HTTP_TOKENS`; loopback only without). */
export async function serveHttp(options: ServeOptions): Promise<HttpServer> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => console.error(line));
  const auth = new Authenticator(authConfigFromEnv(env));
  const host = options.host ?? env.AGENT_HTTP_HOST ?? (auth.open ? '127.0.0.1' : '0.0.0.0');
  if (auth.open && !isLoopback(host)) {
    throw new UnsafeListenError(`No token is configured, so the server listens on loopback only, not ${host}: set AGENT_HTTP_TOKENS (e.g. "alice:<secret>:approver") to serve other hosts.`);
  }
  const port = options.port ?? (env.AGENT_HTTP_PORT ? Number(env.AGENT_HTTP_PORT) : DEFAULT_HTTP_PORT);
  const codecOrigins = [
    ...(env.AGENT_CODEC_ORIGINS?.split(',').map((o) => o.trim()).filter(Boolean) ?? []),
    ...(options.temporalUiUrl ? [options.temporalUiUrl.replace(/\/$/, '')] : []),
  ];
  const app = await buildHttpApp({
    agents: options.agents,
    store: options.store,
    auth,
    codec: env.AGENT_PAYLOAD_KEY ? new AesGcmPayloadCodec(env.AGENT_PAYLOAD_KEY) : null,
    codecOrigins,
    ...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}),
    logger: env.AGENT_HTTP_LOG === '1',
  });
  await app.listen({ host, port });
  const address = app.server.address();
  const boundPort = typeof address === 'object' && address ? address.port : port;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const url = `http://${shownHost}:${boundPort}`;
  if (auth.open) {
    log(`No token configured (AGENT_HTTP_TOKENS): listening on loopback only; every local caller has every role. Pages of other sites are refused: open ${url}/ui (hosts 127.0.0.1, [::1] and localhost only).`);
  }
  else log(`Bearer tokens required; listening on ${host}:${boundPort}.`);
  if (env.AGENT_PAYLOAD_KEY) log(`Codec endpoint for the Temporal Web UI: ${url}/codec (viewer role).`);
  return { app, url, close: () => app.close() };
}

function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}
