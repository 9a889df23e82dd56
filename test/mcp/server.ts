/**
 * A real MCP server for the tests, written with the official SDK: stdio by default, streamable HTTP with
 * `--http` (prints `listening <port>`). It logs what it is asked to `$MCP_TEST_DIR/events.jsonl`, so tests
 * can tell what reached the server (calls, idempotency keys, cancellations), and writes its pid to
 * `$MCP_TEST_DIR/<$MCP_TEST_NAME>.pid`, so tests can kill it.
 *
 * Tools: `weather` (quick), `slow_count` (progress notifications; honours cancellation), `fail` (always
 * fails), `deploy` (a side effect, once per idempotency key), `ephemeral` and `vanish` (which removes
 * `ephemeral`: the server tells the client its tool list changed).
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const dir = process.env.MCP_TEST_DIR;
const label = process.env.MCP_TEST_NAME ?? 'test';
const IDEMPOTENCY_META_KEY = 'io.github.durable-agent-harness/idempotency-key';

function log(event: Record<string, unknown>): void {
  if (dir) appendFileSync(path.join(dir, 'events.jsonl'), JSON.stringify({ server: label, pid: process.pid, ...event }) + '\n');
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('cancelled'))), { once: true });
  });

/** Deployments done, by idempotency key (one process: the stdio server, or all HTTP sessions). */
const deployed = new Map<string, string>();

function newServer(): McpServer {
  const server = new McpServer({ name: 'harness-test-server', version: '1.0.0' });
  const keyOf = (meta: Record<string, unknown> | undefined) => (typeof meta?.[IDEMPOTENCY_META_KEY] === 'string' ? meta[IDEMPOTENCY_META_KEY] : null);

  server.registerTool(
    'weather',
    { description: 'Current weather for a city.', inputSchema: { city: z.string().min(1).describe('City name') } },
    ({ city }, extra) => {
      log({ tool: 'weather', args: { city }, key: keyOf(extra._meta) });
      return { content: [{ type: 'text', text: `Weather in ${city}: 21°C, clear sky.` }] };
    },
  );

  server.registerTool(
    'slow_count',
    {
      description: 'Counts slowly, reporting progress at each step.',
      inputSchema: { steps: z.number().int().min(1).max(1000), msPerStep: z.number().int().min(0).max(10_000).default(50) },
    },
    async ({ steps, msPerStep }, extra) => {
      log({ tool: 'slow_count', args: { steps, msPerStep }, key: keyOf(extra._meta) });
      const token = extra._meta?.progressToken;
      try {
        for (let i = 1; i <= steps; i++) {
          await sleep(msPerStep, extra.signal);
          if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: steps, message: `counted ${i} of ${steps}` } });
        }
      } catch (error) {
        if (extra.signal.aborted) log({ tool: 'slow_count', event: 'cancelled' });
        throw error;
      }
      log({ tool: 'slow_count', event: 'done' });
      return { content: [{ type: 'text', text: `Counted to ${steps}.` }] };
    },
  );

  server.registerTool('fail', { description: 'Looks something up in a service that is down.', inputSchema: { what: z.string() } }, ({ what }, extra) => {
    log({ tool: 'fail', args: { what }, key: keyOf(extra._meta) });
    throw new Error(`the lookup service for ${what} is down (503)`);
  });

  server.registerTool(
    'deploy',
    { description: 'Deploys a service version to production.', inputSchema: { service: z.string().min(1), version: z.string().min(1) } },
    ({ service, version }, extra) => {
      const key = keyOf(extra._meta);
      log({ tool: 'deploy', args: { service, version }, key });
      const earlier = key ? deployed.get(key) : undefined;
      if (earlier) return { content: [{ type: 'text', text: `${earlier} (already done for this call)` }] };
      const text = `Deployed ${service} ${version} to production.`;
      if (key) deployed.set(key, text);
      log({ tool: 'deploy', event: 'deployed', key });
      return { content: [{ type: 'text', text }] };
    },
  );

  const ephemeral = server.registerTool('ephemeral', { description: 'A tool that may go away.', inputSchema: {} }, () => ({ content: [{ type: 'text', text: 'still here' }] }));
  server.registerTool('vanish', { description: 'Removes the ephemeral tool.', inputSchema: {} }, () => {
    ephemeral.remove();
    log({ tool: 'vanish' });
    return { content: [{ type: 'text', text: 'ephemeral removed' }] };
  });
  return server;
}

if (dir) writeFileSync(path.join(dir, `${label}.pid`), String(process.pid));

if (process.argv.includes('--http')) {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((req, res) => {
    void (async () => {
      const sessionId = req.headers['mcp-session-id'];
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (!transport) {
        if (sessionId || !isInitializeRequest(body)) {
          res.writeHead(sessionId ? 404 : 400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'no such session' }, id: null }));
          return;
        }
        const created = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void sessions.set(id, created) });
        created.onclose = () => created.sessionId && sessions.delete(created.sessionId);
        await newServer().connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res, body);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  http.listen(0, '127.0.0.1', () => {
    const address = http.address();
    console.log(`listening ${typeof address === 'object' && address ? address.port : 0}`);
  });
} else {
  await newServer().connect(new StdioServerTransport());
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}
