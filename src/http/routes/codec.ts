/**
 * The codec endpoint Temporal's Web UI calls to show encrypted payloads (Settings → Codec Server, or
 * `codec.endpoint` in its config): `POST /codec/decode` and `/codec/encode` with `{payloads: [...]}` in
 * proto3 JSON (bytes as base64), behind the viewer role. The browser calls it from the UI's origin, so
 * those origins (`codecOrigins`) get CORS headers; the preflight needs no token.
 */
import type { Payload, PayloadCodec } from '@temporalio/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { HttpError } from '../errors.ts';
import { codecBody, errorSchema } from '../schemas.ts';

interface JsonPayload {
  metadata?: Record<string, string>;
  data?: string;
}

/** CORS headers for /codec/* from the allowed origins; registered before the auth hook, so a 401 is readable too. */
export function codecCorsHook(origins: readonly string[]) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const origin = request.headers.origin;
    if (origin && origins.includes(origin) && request.url.startsWith('/codec/')) {
      void reply.header('access-control-allow-origin', origin).header('vary', 'origin').header('access-control-allow-credentials', 'true');
    }
  };
}

export const codecRoutes: FastifyPluginCallbackZod<{ codec: PayloadCodec | null }> = (app, { codec }, done) => {
  for (const op of ['decode', 'encode'] as const) {
    app.options(`/codec/${op}`, { schema: { hide: true }, config: { public: true } }, (_request, reply) => {
      return reply
        .header('access-control-allow-methods', 'POST, OPTIONS')
        .header('access-control-allow-headers', 'authorization, content-type, x-namespace')
        .header('access-control-max-age', '600')
        .code(204)
        .send();
    });
    app.post(
      `/codec/${op}`,
      {
        schema: {
          summary: `${op === 'decode' ? 'Decrypt' : 'Encrypt'} payloads for the Temporal Web UI`,
          description: 'Temporal\'s codec-server convention. 404 when payload encryption is off (AGENT_PAYLOAD_KEY unset).',
          tags: ['codec'],
          body: codecBody,
          response: { 200: codecBody, 400: errorSchema, 401: errorSchema, 404: errorSchema },
        },
      },
      async (request) => {
        if (!codec) throw new HttpError('not_found', 'Payload encryption is off (AGENT_PAYLOAD_KEY is unset): payloads are plain JSON and need no codec.');
        const payloads = request.body.payloads.map(fromJson);
        let out: Payload[];
        try {
          out = op === 'decode' ? await codec.decode(payloads) : await codec.encode(payloads);
        } catch (error) {
          throw new HttpError('invalid_request', `Cannot ${op} these payloads: ${(error as Error).message}`, 'body.payloads');
        }
        return { payloads: out.map(toJson) };
      },
    );
  }
  done();
};

function fromJson(payload: JsonPayload): Payload {
  const metadata: Record<string, Uint8Array> = {};
  for (const [key, value] of Object.entries(payload.metadata ?? {})) metadata[key] = Buffer.from(value, 'base64');
  return { metadata, data: Buffer.from(payload.data ?? '', 'base64') };
}

function toJson(payload: Payload): JsonPayload {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(payload.metadata ?? {})) metadata[key] = Buffer.from(value).toString('base64');
  return { metadata, data: Buffer.from(payload.data ?? []).toString('base64') };
}
