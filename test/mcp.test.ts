/**
 * MCP servers as durable tools, against a real MCP server process (test/mcp/server.ts, stdio) started by
 * the worker: discovery, progress, failures, approval, idempotency keys, cancellation that reaches the
 * server, a server that dies (between calls and during one), a tool that disappears, a schema the model
 * violates, servers down at start, and the MCP eval tasks.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { defaultPayloadConverter } from '@temporalio/common';
import { runEval } from '../src/cli/eval/run-eval.ts';
import { loadTaskFile } from '../src/cli/eval/task-file.ts';
import { parseMcpConfig } from '../src/mcp/config.ts';
import { PROJECT_ROOT } from '../src/paths.ts';
import { createAgentWorker } from '../src/worker/worker.ts';
import { eventually } from './helpers/eventually.ts';
import { localActivities } from './helpers/histories.ts';
import { startHarness, type Harness } from './helpers/harness.ts';
import { mcpEvents, serverPid, stdioServer, useMcpConfig } from './helpers/mcp-server.ts';
import type { ModelReply } from '../src/wire/types.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'agent-mcp-'));
const MODEL = 'scripted:mcp-call';
const TEST_TOOLS = {
  weather: { risk: 'low', readOnly: true },
  slow_count: { risk: 'low', readOnly: true, timeoutMs: 120_000 },
  fail: { risk: 'low', readOnly: true },
  // deploy: not configured, so it takes the safe defaults (high risk, side effects).
};

let h: Harness;
before(async () => {
  useMcpConfig(dir, {
    test: stdioServer(dir, 'test', { tools: TEST_TOOLS }),
    // Server-wide flags: every tool of it is low-risk and read-only.
    flaky: stdioServer(dir, 'flaky', { risk: 'low', readOnly: true, timeoutMs: 60_000 }),
    down: { command: '/nonexistent/mcp-server', args: ['--stdio'] },
  });
  h = await startHarness('mcp');
});
after(async () => {
  try {
    await h.replayAndClose();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const run = (goal: string, extra: Record<string, unknown> = {}) => h.run({ goal: `MCP: ${goal}`, model: MODEL, ...extra });
const eventsOf = (runId: string) => mcpEvents(dir).filter((e) => e.key?.startsWith(`${runId}:`));

describe('discovery and calls', () => {
  test('a run offers the MCP tools the worker found, validates, runs them as activities and passes the idempotency key', async () => {
    const result = await run('test__weather {"city":"Lisbon"}');
    assert.equal(result.status, 'completed');
    assert.equal(result.output, 'Weather in Lisbon: 21°C, clear sky.');
    const trace = await h.trace(result.runId);
    assert.deepEqual(
      trace.map((l) => l.type),
      ['turn', 'tool_start', 'tool_result', 'turn', 'run_stopped'],
    );
    assert.deepEqual(eventsOf(result.runId).map((e) => [e.tool, e.key]), [['weather', `${result.runId}:t1.1`]]);
    const history = await h.temporal.workflow.getHandle(result.runId).fetchHistory();
    assert.deepEqual(localActivities(history, 'mcpTools'), [], 'a run that names no tools asks for no catalog of its own');
    // The catalog came with the first model call's reply, recorded in history: the tools the model was offered.
    const firstReply = defaultPayloadConverter.fromPayload<ModelReply>(history.events!.find((e) => e.activityTaskCompletedEventAttributes)!.activityTaskCompletedEventAttributes!.result!.payloads![0]!);
    const offered = firstReply.mcpTools?.map((d) => d.name) ?? [];
    for (const name of ['test__weather', 'test__slow_count', 'test__fail', 'test__deploy', 'flaky__weather']) assert.ok(offered.includes(name), `${name} in ${offered.join(', ')}`);
    const scheduled = history.events!.flatMap((e) => (e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes.activityType!.name] : []));
    assert.deepEqual(scheduled, ['callModel', 'runTool', 'callModel']);
  });

  test('a slow MCP tool: progress notifications become the run\'s progress (state and trace)', async () => {
    const { runId } = await h.agents.startRun({ goal: 'MCP: test__slow_count {"steps":12,"msPerStep":150}', model: MODEL, workspace: h.workspace });
    const state = await h.waitForState(runId, (s) => /^counted \d+ of 12$/.test(s.progress ?? ''), 'a progress label from the MCP server');
    assert.equal(state.status, 'running');
    const result = await h.agents.result(runId);
    assert.equal(result.output, 'Counted to 12.');
    const labels = (await h.trace(runId)).flatMap((l) => (l.type === 'tool_progress' ? [l.label] : []));
    assert.ok(labels.length >= 2, `progress lines in the trace: ${labels.join(' | ')}`);
    for (const label of labels) assert.match(label, /^counted \d+ of 12$/);
  });

  test('a failing MCP tool: the model reads the error, the trace says ok=false', async () => {
    const result = await run('test__fail {"what":"prices"}');
    assert.equal(result.status, 'completed');
    assert.equal(result.output, 'Error: the lookup service for prices is down (503)');
    const toolResult = (await h.trace(result.runId)).find((l) => l.type === 'tool_result');
    assert.equal(toolResult?.type === 'tool_result' && toolResult.ok, false);
  });

  test('arguments that break the server\'s schema are refused in the workflow: the server never sees them', async () => {
    const result = await run('test__weather {"city":42}');
    assert.equal(result.status, 'completed');
    assert.match(result.output!, /^Error: invalid arguments for test__weather: .*city/);
    assert.equal(result.toolRuns, 0);
    assert.deepEqual(eventsOf(result.runId), []);
  });
});

describe('policy', () => {
  test('a tool the configuration gives no risk waits for approval; approved, it runs once with the run\'s idempotency key', async () => {
    const { runId } = await h.agents.startRun({ goal: 'MCP: test__deploy {"service":"api","version":"1.2.3"}', model: MODEL, workspace: h.workspace });
    const state = await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval request');
    assert.ok(state.pending?.kind === 'approval');
    assert.equal(state.pending.toolName, 'test__deploy');
    assert.equal(state.pending.risk, 'high');
    assert.deepEqual(state.pending.args, { service: 'api', version: '1.2.3' });
    assert.deepEqual(eventsOf(runId), [], 'nothing reached the server before the decision');
    await h.agents.approve(runId, { callKey: state.pending.callKey, argsHash: state.pending.argsHash, by: 'tester' });
    const result = await h.agents.result(runId);
    assert.equal(result.output, 'Deployed api 1.2.3 to production.');
    assert.deepEqual(eventsOf(runId).filter((e) => e.event === 'deployed').map((e) => e.key), [`${runId}:t1.1`]);
    const types = (await h.trace(runId)).map((l) => l.type);
    assert.deepEqual(types, ['turn', 'approval_required', 'approval_decided', 'tool_start', 'tool_result', 'turn', 'run_stopped']);
  });

  test('read-only MCP calls are deduplicated within a run, like built-in ones', async () => {
    const result = await run('test__weather {"city":"Porto"}; test__weather {"city":"Porto"}');
    assert.equal(result.status, 'completed');
    assert.equal(result.toolRuns, 1);
    assert.ok((await h.trace(result.runId)).some((l) => l.type === 'tool_deduplicated'));
    assert.equal(eventsOf(result.runId).length, 1);
  });
});

describe('cancellation and server failures', () => {
  test('cancelling the run cancels the MCP request: the server sees it cancelled', async () => {
    const { runId } = await h.agents.startRun({ goal: 'MCP: test__slow_count {"steps":400,"msPerStep":100}', model: MODEL, workspace: h.workspace });
    await h.waitForState(runId, (s) => /^counted/.test(s.progress ?? ''), 'the count to be under way');
    const cancelledAt = Date.now();
    await h.agents.cancelRun(runId, 'user pressed Stop');
    const result = await h.agents.result(runId);
    assert.equal(result.status, 'interrupted');
    assert.deepEqual(result.interruption, { type: 'cancelled', reason: 'user pressed Stop' });
    await eventually(() => mcpEvents(dir).find((e) => e.server === 'test' && e.tool === 'slow_count' && e.event === 'cancelled'), 'the server to see the cancellation');
    assert.ok(Date.now() - cancelledAt < 10_000);
  });

  test('a server that died between calls is reconnected by the next call', async () => {
    const first = await run('flaky__weather {"city":"Oslo"}');
    assert.equal(first.output, 'Weather in Oslo: 21°C, clear sky.');
    const pid = serverPid(dir, 'flaky');
    process.kill(pid, 'SIGKILL');
    await eventually(() => (h.worker.mcp?.connection('flaky')?.connected === false ? true : undefined), 'the pool to see the server gone');
    const second = await run('flaky__weather {"city":"Bergen"}');
    assert.equal(second.output, 'Weather in Bergen: 21°C, clear sky.');
    assert.notEqual(serverPid(dir, 'flaky'), pid, 'a new server process');
  });

  test('a server killed during a read-only call: the activity is retried on a new connection and the run completes', async () => {
    const { runId } = await h.agents.startRun({ goal: 'MCP: flaky__slow_count {"steps":15,"msPerStep":100}', model: MODEL, workspace: h.workspace });
    await h.waitForState(runId, (s) => /^counted/.test(s.progress ?? ''), 'the count to be under way');
    const pid = serverPid(dir, 'flaky');
    process.kill(pid, 'SIGKILL');
    const result = await h.agents.result(runId);
    assert.equal(result.status, 'completed');
    assert.equal(result.output, 'Counted to 15.');
    const starts = eventsOf(runId).filter((e) => e.tool === 'slow_count' && !e.event);
    assert.equal(starts.length, 2, 'the call reached the server twice');
    assert.notEqual(starts[0]!.pid, starts[1]!.pid);
  });

  test('a tool that disappears: the call is answered that the server no longer offers it', async () => {
    const result = await run('flaky__vanish {}; flaky__ephemeral {}');
    assert.equal(result.status, 'completed');
    assert.match(result.output!, /ephemeral removed\nError: MCP server "flaky" no longer offers the tool "ephemeral" \(it offers: weather, slow_count, fail, deploy, vanish\)\./);
  });

  test('a server down at start: the worker started without its tools, and a run that names one fails saying why', async () => {
    const result = await h.run({ goal: 'Use the down server.', model: MODEL, tools: ['down__anything'] });
    assert.equal(result.status, 'failed');
    assert.match(result.error!, /Unknown tool "down__anything" in the run input: no worker on this task queue offers it/);
    assert.match(result.error!, /MCP servers down on the worker: down \(spawn \/nonexistent\/mcp-server ENOENT\)/);
  });

  test('a required server or tool that is not there: the worker refuses to start and says what to fix', async () => {
    const options = { connection: h.connection, taskQueue: `${h.taskQueue}-required`, dataDir: h.dataDir, store: h.store, workspace: h.workspace };
    await assert.rejects(
      createAgentWorker({ ...options, mcp: parseMcpConfig({ servers: { gone: { command: '/nonexistent/mcp-server', required: true } } }) }),
      /The worker does not start: MCP server "gone" \(stdio: \/nonexistent\/mcp-server\) is unavailable: spawn \/nonexistent\/mcp-server ENOENT\. Fix the server or set `required: false`/,
    );
    await assert.rejects(
      createAgentWorker({ ...options, mcp: parseMcpConfig({ servers: { test: stdioServer(dir, 'required-check', { tools: { teleport: { required: true } } }) } }) }),
      /MCP server "test" does not offer the required tool teleport \(it offers: weather, slow_count, fail, deploy, ephemeral, vanish\)/,
    );
  });
});

test('eval/mcp-tasks.json: the MCP eval tasks pass', async () => {
  const tasks = loadTaskFile(path.join(PROJECT_ROOT, 'eval', 'mcp-tasks.json'));
  const report = await runEval(h.agents, tasks, { model: MODEL, concurrency: 2, workspaceFor: () => h.workspace, readTrace: (runId) => h.trace(runId) });
  assert.deepEqual(report.tasks.filter((t) => !t.resultOk || !t.trajectoryOk).map((t) => `${t.name}: ${t.broken.join('; ')}`), []);
});
