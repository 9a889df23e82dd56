/**
 * Every failure becomes a JSON body `{error, message, field?}` with the status that says what to do:
 * 400 fix the named field, 401 send a token, 403 use a token with the role named, 404 check the run id,
 * 409 the run refused (its reason is the message), 503 Temporal or the store is unreachable; 403 also when the
 * run is encrypted with an AGENT_PAYLOAD_KEY this server does not hold (no retry helps; the key does).
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AnswerRefusedError, ApprovalRefusedError, RunNotFoundError } from '../client/client.ts';
import { InvalidRunInputError } from '../client/run-input.ts';
import { PayloadKeyError } from '../client/payload-codec.ts';
import { WorkspaceRefusedError } from '../tools/workspace-roots.ts';
import { StoreUnavailableError } from '../store/errors.ts';
import { AgentError } from '../wire/agent-error.ts';
import type { z } from 'zod';
import type { errorSchema } from './schemas.ts';

export type ErrorBody = z.infer<typeof errorSchema>;
type Kind = ErrorBody['error'];

const STATUS: Record<Kind, number> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unavailable: 503,
  internal: 500,
};

/** An error a route throws on purpose, with its status and body; its code is the body's `error` kind. */
export class HttpError extends AgentError {
  override readonly name = 'HttpError';
  readonly kind: Kind;
  readonly field: string | undefined;

  constructor(kind: Kind, message: string, field?: string) {
    super(message);
    this.kind = kind;
    this.field = field;
  }

  get code(): Kind {
    return this.kind;
  }

  get status(): number {
    return STATUS[this.kind];
  }

  body(): ErrorBody {
    return { error: this.kind, message: this.message, ...(this.field ? { field: this.field } : {}) };
  }
}

/** Maps what routes and Fastify throw to an HttpError. */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = (error as FastifyError).validationContext ?? 'body';
    const problems = error.validation.map((issue) => {
      const keys = (issue.params as { keys?: string[] }).keys;
      const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || keys?.[0] || '';
      const unknownKeys = keys?.length && !issue.instancePath.replace('/', '') ? `unknown field(s) ${keys.map((k) => `"${k}"`).join(', ')}` : null;
      return { field, message: unknownKeys ?? issue.message ?? 'invalid' };
    });
    const first = problems[0]!;
    const named = (p: { field: string; message: string }) => `${where}${p.field ? `.${p.field}` : ''}: ${p.message}`;
    return new HttpError('invalid_request', problems.map(named).join('; '), first.field ? `${where}.${first.field}` : where);
  }
  if (error instanceof InvalidRunInputError) return new HttpError('invalid_request', error.message, error.field ? `body.${error.field}` : 'body');
  if (error instanceof WorkspaceRefusedError) return new HttpError('invalid_request', error.message, 'body.workspace');
  if (error instanceof RunNotFoundError) return new HttpError('not_found', error.message);
  if (error instanceof ApprovalRefusedError || error instanceof AnswerRefusedError) return new HttpError('conflict', error.message);
  if (error instanceof PayloadKeyError) return new HttpError('forbidden', error.message);
  const fastifyError = error as Partial<FastifyError>;
  // Before any route (the app's frameworkErrors): the URL itself is at fault.
  if (fastifyError.code === 'FST_ERR_BAD_URL') return new HttpError('invalid_request', fastifyError.message ?? 'bad URL', 'url');
  if (fastifyError.code === 'FST_ERR_MAX_PARAM_LENGTH') return new HttpError('invalid_request', 'A path parameter is longer than 1000 characters.', 'params');
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (fastifyError.statusCode === 400 && fastifyError.message)) {
    return new HttpError('invalid_request', fastifyError.message ?? 'bad request', 'body');
  }
  if (fastifyError.statusCode === 413) return new HttpError('invalid_request', fastifyError.message ?? 'body too large', 'body');
  if (isUnavailable(error)) return new HttpError('unavailable', `Temporal or the store is unreachable: ${(error as Error).message}. Try again shortly.`);
  if (typeof error === 'object' && error !== null && isResponseSerializationError(error)) return new HttpError('internal', `The response did not match its schema: ${(error as Error).message}`);
  return new HttpError('internal', (error as Error)?.message ?? String(error));
}

export function errorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const http = toHttpError(error);
  if (http.kind === 'internal') request.log.error({ err: error }, 'request failed');
  void reply.code(http.status).type('application/json').send(http.body());
}

export function notFoundHandler(request: FastifyRequest, reply: FastifyReply): void {
  const body: ErrorBody = { error: 'not_found', message: `No route ${request.method} ${request.url.split('?')[0]}. The API is described at /openapi.json.` };
  void reply.code(404).send(body);
}

function isUnavailable(error: unknown): boolean {
  if (StoreUnavailableError.isInstance(error)) return true;
  return (error as Error)?.name === 'ServiceError' && /UNAVAILABLE|DEADLINE_EXCEEDED|connect/i.test(String((error as Error).message) + String((error as { cause?: Error }).cause?.message));
}
