/**
 * Measures the live event path by hand: an event appended to the store (as an activity or the trace sink
 * does) → received by SSE clients of `GET /runs/:id/events`. Prints the median and p95 latency for a
 * growing number of clients all watching one run (the fan-out worst case), and the largest number served
 * with p95 under 100 ms.
 *
 *   node src/cli/bench/sse-latency.ts [--clients 1,10,100,500,1000] [--events 100] [--interval-ms 50]
 *                                     [--cross-process] [--store-url postgres://…]
 *
 * `--cross-process`: the events are appended by another process with its own store instance (a worker on
 * another host, or `serve --no-worker`): SQLite then notifies by polling, PostgreSQL by LISTEN/NOTIFY.
 * Without it, the appender shares the server's store (`serve` with its in-process worker).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { AgentClient } from '../../client/client.ts';
import { buildHttpApp } from '../../http/app.ts';
import { Authenticator } from '../../http/auth.ts';
import { openStore } from '../../store/open-store.ts';
import type { AgentStore } from '../../store/store.ts';
import { table } from '../table.ts';
import { median, p95 } from './stats.ts';

const now = () => performance.timeOrigin + performance.now();

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '1,10,100,250,500,1000' },
    events: { type: 'string', default: '100' },
    'interval-ms': { type: 'string', default: '50' },
    'cross-process': { type: 'boolean', default: false },
    'store-url': { type: 'string' },
    // internal: the appending child process
    append: { type: 'string' },
    'data-dir': { type: 'string' },
  },
});

const events = Number(values.events);
const intervalMs = Number(values['interval-ms']);

async function appendEvents(store: AgentStore, runId: string): Promise<void> {
  for (let i = 0; i < events; i++) {
    await store.appendEvent(runId, { type: 'bench', i, sentAt: now() });
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

if (values.append) {
  // The child: append to its own store instance, then exit.
  const store = await openStore({ dataDir: values['data-dir']!, ...(values['store-url'] ? { url: values['store-url'] } : {}) });
  await appendEvents(store, values.append);
  await store.close();
  process.exit(0);
}

interface Client {
  latencies: number[];
  received: number;
  close(): void;
}

function connect(url: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const client: Client = { latencies: [], received: 0, close: () => request.destroy() };
    let buffer = '';
    const request = http.get(url, { agent: false, headers: { accept: 'text/event-stream' } }, (response) => {
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        const at = now();
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (!data) continue;
          const event = JSON.parse(data.slice(6)) as { sentAt: number };
          client.latencies.push(at - event.sentAt);
          client.received++;
        }
      });
      response.once('data', () => resolve(client)); // the stream's opening comment: connected
      response.on('error', () => {});
    });
    request.on('error', reject);
  });
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'sse-latency-'));
const store = await openStore({ dataDir, ...(values['store-url'] ? { url: values['store-url'] } : {}) });
const agents = { requireRun: () => Promise.resolve({ open: true }) } as unknown as AgentClient; // the run is open; no Temporal needed
const app = await buildHttpApp({ agents, store, auth: new Authenticator({ tokens: [] }), codec: null });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
console.error(`store ${store.kind}${values['cross-process'] ? ', appended by another process' : ', appended in-process'}; ${events} events ${intervalMs} ms apart per level; all clients on one run`);

const rows: (string | number)[][] = [];
let best = 0;
for (const n of values.clients.split(',').map(Number)) {
  const runId = `bench-${n}-${Date.now()}`;
  const clients: Client[] = [];
  for (let i = 0; i < n; i += 50) clients.push(...(await Promise.all(Array.from({ length: Math.min(50, n - i) }, () => connect(`${base}/runs/${runId}/events`)))));
  const started = performance.now();
  if (values['cross-process']) {
    const child = spawn(process.execPath, [import.meta.filename, '--append', runId, '--data-dir', dataDir, '--events', String(events), '--interval-ms', String(intervalMs), ...(values['store-url'] ? ['--store-url', values['store-url']] : [])], { stdio: 'inherit' });
    await new Promise((resolve) => child.once('exit', resolve));
  } else {
    await appendEvents(store, runId);
  }
  const deadline = Date.now() + 15_000;
  while (clients.some((c) => c.received < events) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const latencies = clients.flatMap((c) => c.latencies);
  const missing = n * events - latencies.length;
  for (const c of clients) c.close();
  const p95ms = p95(latencies);
  if (p95ms < 100 && missing === 0) best = n;
  rows.push([n, latencies.length, missing, median(latencies).toFixed(1), p95ms.toFixed(1), latencies.reduce((a, b) => Math.max(a, b), 0).toFixed(1), Math.round((performance.now() - started) / 1000)]);
  console.error(`  ${n} clients: median ${median(latencies).toFixed(1)} ms, p95 ${p95ms.toFixed(1)} ms`);
  await new Promise((r) => setTimeout(r, 500));
}
console.log(table(['clients', 'delivered', 'missing', 'median ms', 'p95 ms', 'max ms', 's'], rows));
console.log(`largest tested number of concurrent SSE clients with p95 < 100 ms: ${best}`);
await app.close();
await store.close();
rmSync(dataDir, { recursive: true, force: true });
