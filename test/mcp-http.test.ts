/** The same test MCP server over streamable HTTP (its own process): calls, progress, approval and cancellation; a URL nothing listens on. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { eventually } from './helpers/eventually.ts';
import { startHarness, type Harness } from './helpers/harness.ts';
import { mcpEvents, startHttpServer, useMcpConfig } from './helpers/mcp-server.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'agent-mcp-http-'));
const MODEL = 'scripted:mcp-call';
let h: Harness;
let server: Awaited<ReturnType<typeof startHttpServer>>;

before(async () => {
  server = await startHttpServer(dir, 'web');
  useMcpConfig(dir, {
    web: { url: server.url, tools: { weather: { risk: 'low', readOnly: true }, slow_count: { risk: 'low', readOnly: true, timeoutMs: 120_000 } } },
    closed: { url: `http://127.0.0.1:${await freePort()}/mcp` },
  });
  h = await startHarness('mcp-http');
});
after(async () => {
  try {
    await h.replayAndClose();
  } finally {
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

const eventsOf = (runId: string) => mcpEvents(dir).filter((e) => e.key?.startsWith(`${runId}:`));

test('over streamable HTTP: a call with the idempotency key, progress notifications as progress', async () => {
  const weather = await h.run({ goal: 'MCP: web__weather {"city":"Lisbon"}', model: MODEL });
  assert.equal(weather.output, 'Weather in Lisbon: 21°C, clear sky.');
  assert.deepEqual(eventsOf(weather.runId).map((e) => [e.server, e.tool, e.key]), [['web', 'weather', `${weather.runId}:t1.1`]]);

  const { runId } = await h.agents.startRun({ goal: 'MCP: web__slow_count {"steps":10,"msPerStep":150}', model: MODEL, workspace: h.workspace });
  await h.waitForState(runId, (s) => /^counted \d+ of 10$/.test(s.progress ?? ''), 'progress over HTTP');
  const counted = await h.agents.result(runId);
  assert.equal(counted.output, 'Counted to 10.');
  assert.ok((await h.trace(runId)).filter((l) => l.type === 'tool_progress').length >= 2);
});

test('over streamable HTTP: the risky tool waits for approval; a cancel reaches the server', async () => {
  const { runId } = await h.agents.startRun({ goal: 'MCP: web__deploy {"service":"web","version":"2.0.0"}', model: MODEL, workspace: h.workspace });
  const state = await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval request');
  assert.ok(state.pending?.kind === 'approval');
  assert.equal(state.pending.risk, 'high');
  await h.agents.approve(runId, { callKey: state.pending.callKey, argsHash: state.pending.argsHash });
  assert.equal((await h.agents.result(runId)).output, 'Deployed web 2.0.0 to production.');

  const slow = await h.agents.startRun({ goal: 'MCP: web__slow_count {"steps":400,"msPerStep":100}', model: MODEL, workspace: h.workspace });
  await h.waitForState(slow.runId, (s) => /^counted/.test(s.progress ?? ''), 'the count to be under way');
  await h.agents.cancelRun(slow.runId, 'enough');
  assert.equal((await h.agents.result(slow.runId)).status, 'interrupted');
  await eventually(() => mcpEvents(dir).find((e) => e.tool === 'slow_count' && e.event === 'cancelled'), 'the HTTP server to see the cancellation');
});

test('a URL nothing listens on: the worker started without it; the catalog names it as down', () => {
  const catalog = h.worker.mcp!.catalog();
  assert.ok(catalog.definitions.some((d) => d.name === 'web__weather'));
  assert.ok(!catalog.definitions.some((d) => d.server === 'closed'));
  assert.match(catalog.down.find((d) => d.server === 'closed')?.error ?? '', /fetch failed/);
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 1;
}
