/** The HTTP server over a test harness's client and store, on a free loopback port. */
import type { PayloadCodec } from '@temporalio/common';
import type { AgentClient } from '../../src/client/client.ts';
import { buildHttpApp, type HttpApp } from '../../src/http/app.ts';
import { Authenticator, type TokenEntry } from '../../src/http/auth.ts';
import type { ErrorBody } from '../../src/http/errors.ts';
import type { Harness } from './harness.ts';

export interface TestHttp {
  app: HttpApp;
  url: string;
  /** fetch against the server with a bearer token (or none). */
  /** The body is parsed JSON, typed as the caller expects (`T`; an error body by default). */
  call<T = ErrorBody>(method: string, path: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

/** `agents`: another client than the harness's (e.g. one without the payload key its runs were started with). */
export async function startHttp(h: Harness, options: { tokens?: TokenEntry[]; codec?: PayloadCodec | null; heartbeatMs?: number; ticketTtlMs?: number; agents?: AgentClient } = {}): Promise<TestHttp> {
  const app = await buildHttpApp({
    agents: options.agents ?? h.agents,
    store: h.store,
    auth: new Authenticator({ tokens: options.tokens ?? [] }),
    codec: options.codec ?? null,
    codecOrigins: ['http://127.0.0.1:8233'],
    ...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}),
    ...(options.ticketTtlMs ? { ticketTtlMs: options.ticketTtlMs } : {}),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    app,
    url,
    async call<T>(method: string, path: string, { token, body, headers = {} }: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
      const response = await fetch(url + path, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, body: parsed as T };
    },
    close: () => app.close(),
  };
}

/** One token per role, as the HTTP tests give the server (`startHttp(h, { tokens: TEST_TOKENS.entries })`). */
export const TEST_TOKENS = {
  viewer: 'viewer-token-0000001',
  approver: 'approver-token-00001',
  operator: 'operator-token-00001',
  entries: [
    { name: 'vera', token: 'viewer-token-0000001', roles: ['viewer'] },
    { name: 'alice', token: 'approver-token-00001', roles: ['approver'] },
    { name: 'ci-bot', token: 'operator-token-00001', roles: ['operator'] },
  ] satisfies TokenEntry[],
};
