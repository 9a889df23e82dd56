/**
 * A recording HTTP proxy in front of the scripted model server: tests see each request exactly as the
 * worker's `openai` client sent it (messages, tools) and each response exactly as the model server sent
 * it (status, headers, body with its usage), and can answer a request themselves (a 429 with
 * `retry-after`, …) without the model server. A client that goes away aborts the upstream request, so
 * the model server still sees an aborted call as aborted.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '../../src/scripted-model/server.ts';

export interface ModelExchange {
  n: number;
  /** The request body as the worker sent it. */
  body: { model: string; messages: { role: string; content?: string | null }[]; tools?: { function: { name: string } }[]; stream?: boolean };
  status: number;
  headers: Record<string, string>;
  /** The response body as sent (JSON, or the whole SSE stream). */
  responseText: string;
  /** Answered by the test's interceptor, not by the model server. */
  intercepted: boolean;
  /** The client went away before the response ended. */
  aborted: boolean;
}

/** An answer a test gives instead of the model server. */
export interface CannedResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export type Interceptor = (exchange: ModelExchange) => CannedResponse | undefined;

export interface ModelProxy {
  /** Base URL for the worker's scripted model endpoint, ending in `/v1`. */
  baseUrl: string;
  exchanges: ModelExchange[];
  /** Consulted for every request; return a response to answer it here. */
  intercept: Interceptor | null;
  close(): Promise<void>;
}

export async function startModelProxy(targetBaseUrl: string): Promise<ModelProxy> {
  const target = new URL(targetBaseUrl);
  const exchanges: ModelExchange[] = [];
  const proxy: ModelProxy = { baseUrl: '', exchanges, intercept: null, close: async () => {} };
  const server: Server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const exchange: ModelExchange = {
        n: exchanges.length + 1,
        body: JSON.parse(raw || '{}') as ModelExchange['body'],
        status: 0,
        headers: {},
        responseText: '',
        intercepted: false,
        aborted: false,
      };
      exchanges.push(exchange);
      res.on('close', () => (exchange.aborted = !res.writableFinished));
      const canned = proxy.intercept?.(exchange);
      if (canned) {
        const text = JSON.stringify(canned.body ?? { error: { message: `The test answered HTTP ${canned.status}.`, type: 'test', code: null } });
        Object.assign(exchange, { status: canned.status, headers: { 'content-type': 'application/json', ...canned.headers }, responseText: text, intercepted: true });
        res.writeHead(canned.status, exchange.headers);
        res.end(text);
        return;
      }
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
        (up) => {
          exchange.status = up.statusCode ?? 0;
          exchange.headers = Object.fromEntries(Object.entries(up.headers).map(([k, v]) => [k, String(v)]));
          res.writeHead(exchange.status, up.headers);
          up.on('data', (chunk: Buffer) => {
            exchange.responseText += chunk.toString('utf8');
            res.write(chunk);
          });
          up.on('end', () => res.end());
          up.on('error', () => res.destroy());
        },
      );
      upstream.on('error', () => res.destroy());
      // The worker gave up (a cancel, a dead activity): so does the request to the model server.
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
      });
      upstream.end(raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  proxy.baseUrl = `http://127.0.0.1:${port}${target.pathname}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

/** The usage the model server put in a completion (JSON or the last usage chunk of a stream). */
export function sentUsage(exchange: ModelExchange): { prompt_tokens: number; completion_tokens: number } | null {
  const text = exchange.responseText;
  if (exchange.status !== 200) return null;
  if (!text.startsWith('data:')) return (JSON.parse(text) as { usage?: { prompt_tokens: number; completion_tokens: number } }).usage ?? null;
  let usage = null;
  for (const line of text.split('\n')) {
    if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
    const chunk = JSON.parse(line.slice('data: '.length)) as { usage?: { prompt_tokens: number; completion_tokens: number } };
    if (chunk.usage) usage = chunk.usage;
  }
  return usage;
}

/** The names of the tools a request offered the model. */
export function offeredTools(exchange: ModelExchange): string[] {
  return (exchange.body.tools ?? []).map((t) => t.function.name);
}

