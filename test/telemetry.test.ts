/**
 * OpenTelemetry: one trace per run across the client, the workflow, its activities and child runs;
 * model-call spans with the GenAI conventions and our cost; tool spans with risk, outcome and approval
 * wait; no span exported twice when a worker replays the run. Spans go to an in-memory exporter.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@temporalio/client';
import proto from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { AgentClient } from '../src/client/client.ts';
import { PROJECT_ROOT } from '../src/paths.ts';
import { tracingClientInterceptors } from '../src/telemetry/client.ts';
import { activeTelemetry, setupTelemetry, telemetryRequested } from '../src/telemetry/setup.ts';
import { tracingWorkerOptions } from '../src/telemetry/worker-options.ts';
import { workflowBundle } from '../src/worker/workflow-bundle.ts';
import { eventually } from './helpers/eventually.ts';
import { startHarness, type Harness } from './helpers/harness.ts';
import { stdioServer, useMcpConfig } from './helpers/mcp-server.ts';

const exporter = new InMemorySpanExporter();
const mcpDir = mkdtempSync(path.join(tmpdir(), 'agent-otel-mcp-'));
let h: Harness;
let agents: AgentClient;

before(async () => {
  setupTelemetry({ exporter, serviceName: 'agent-harness-test' });
  useMcpConfig(mcpDir, { test: stdioServer(mcpDir, 'test', { tools: { weather: { risk: 'low', readOnly: true } } }) });
  h = await startHarness('telemetry');
  // A service's client with the tracing interceptor: the run's trace starts at `startRun`.
  const temporal = new Client({ connection: h.connection, interceptors: tracingClientInterceptors(activeTelemetry()) });
  agents = new AgentClient(temporal, { taskQueue: h.taskQueue, workspaceRoots: [h.dataDir] });
});
after(async () => {
  // Histories recorded by a tracing worker replay on a worker that does not trace.
  try {
    await h.replayAndClose();
  } finally {
    await activeTelemetry()?.shutdown();
    rmSync(mcpDir, { recursive: true, force: true });
  }
});

const spansOfTrace = (traceId: string) => exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
const named = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);
const one = (spans: ReadableSpan[], name: string) => {
  const found = named(spans, name);
  assert.equal(found.length, 1, `one "${name}" span (of: ${spans.map((s) => s.name).join(', ')})`);
  return found[0]!;
};
const parentOf = (spans: ReadableSpan[], span: ReadableSpan) => spans.find((s) => s.spanContext().spanId === span.parentSpanId);

/** The run's trace, once its workflow span (exported when the run ends) is in. */
async function traceOf(runId: string): Promise<ReadableSpan[]> {
  const start = await eventually(() => exporter.getFinishedSpans().find((s) => s.name === 'StartWorkflow:agentWorkflow' && s.attributes['temporalWorkflowId'] === runId), 'the client span');
  const traceId = start.spanContext().traceId;
  await eventually(() => spansOfTrace(traceId).find((s) => s.name === 'RunWorkflow:agentWorkflow' && s.attributes['agent.run.status']), 'the run span');
  return spansOfTrace(traceId);
}

test('tracing is off unless an OTLP endpoint is set (or a process installs an exporter)', () => {
  assert.equal(telemetryRequested({}), false);
  assert.equal(telemetryRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }), true);
  assert.equal(telemetryRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }), false);
  const off = tracingWorkerOptions(null);
  assert.deepEqual(off, { sinks: {}, interceptorModules: [] }, 'no interceptor, no sink, the plain workflow bundle');
});

test('one trace per run: client, workflow, model calls with GenAI attributes, tools with risk and outcome', async () => {
  const { runId } = await agents.startRun({ goal: 'Which log file mentions a timeout?', model: 'scripted:plan', workspace: h.workspace });
  const result = await agents.result(runId);
  assert.equal(result.status, 'completed');
  const spans = await traceOf(runId);

  const start = one(spans, 'StartWorkflow:agentWorkflow');
  const runSpan = one(spans, 'RunWorkflow:agentWorkflow');
  assert.equal(runSpan.parentSpanId, start.spanContext().spanId, 'the workflow continues the client\'s trace');
  assert.equal(runSpan.attributes['agent.run.status'], 'completed');
  assert.equal(runSpan.attributes['agent.run.turns'], 3);
  assert.equal(runSpan.attributes['agent.cost_usd'], result.costUsd);

  const chats = named(spans, 'chat scripted:plan');
  assert.equal(chats.length, 3, 'one span per model call');
  for (const chat of chats) {
    assert.equal(chat.attributes['gen_ai.operation.name'], 'chat');
    assert.equal(chat.attributes['gen_ai.request.model'], 'scripted:plan');
    assert.ok((chat.attributes['gen_ai.usage.input_tokens'] as number) > 0);
    assert.ok((chat.attributes['gen_ai.usage.output_tokens'] as number) > 0);
    assert.equal(parentOf(spans, chat)?.name, 'RunActivity:callModel');
  }
  const costs = chats.reduce((sum, c) => sum + (c.attributes['agent.cost_usd'] as number), 0);
  assert.ok(Math.abs(costs - result.costUsd) < 1e-12, `Σ model-call cost ${costs} = the run's ${result.costUsd}`);
  const inputTokens = chats.reduce((sum, c) => sum + (c.attributes['gen_ai.usage.input_tokens'] as number), 0);
  assert.equal(inputTokens, result.usage.promptTokens);

  for (const name of ['list_files', 'read_file']) {
    const tool = one(spans, `execute_tool ${name}`);
    assert.equal(tool.parentSpanId, runSpan.spanContext().spanId);
    assert.equal(tool.attributes['gen_ai.tool.name'], name);
    assert.equal(tool.attributes['agent.tool.risk'], 'low');
    assert.equal(tool.attributes['agent.tool.outcome'], 'ok');
    const activity = spans.find((s) => s.name === 'StartActivity:runTool' && s.parentSpanId === tool.spanContext().spanId);
    assert.ok(activity, `the ${name} activity is traced under its tool span`);
    assert.ok(spans.some((s) => s.name === 'RunActivity:runTool' && s.parentSpanId === activity.spanContext().spanId), 'and its execution under that');
  }
});

test('an approval: the tool span records the wait and the decision; a worker restart during the wait duplicates no span', async () => {
  const { runId } = await agents.startRun({ goal: 'Free some disk space.', model: 'scripted:delete-approval', workspace: h.workspace });
  const state = await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval request');
  assert.ok(state.pending?.kind === 'approval');
  // A new worker replays the history so far before it goes on.
  await h.stopWorker();
  await h.startWorker();
  await new Promise((resolve) => setTimeout(resolve, 400));
  await agents.approve(runId, { callKey: state.pending.callKey, argsHash: state.pending.argsHash });
  assert.equal((await agents.result(runId)).status, 'completed');
  const spans = await traceOf(runId);

  const deletion = one(spans, 'execute_tool delete_file');
  assert.equal(deletion.attributes['agent.tool.risk'], 'high');
  assert.equal(deletion.attributes['agent.approval.decision'], 'approved');
  assert.ok((deletion.attributes['agent.approval.wait_ms'] as number) >= 400, `approval wait ${String(deletion.attributes['agent.approval.wait_ms'])} ms`);
  assert.equal(deletion.attributes['agent.tool.outcome'], 'ok');
  one(spans, 'execute_tool list_files');
  one(spans, 'RunWorkflow:agentWorkflow');
  assert.equal(named(spans, 'chat scripted:delete-approval').length, 3);
  const ids = spans.map((s) => s.spanContext().spanId);
  assert.equal(new Set(ids).size, ids.length, 'no span exported twice');

  // Replaying the whole history (as a new worker or a replay test does) exports nothing.
  const before = exporter.getFinishedSpans().length;
  const tracing = tracingWorkerOptions(activeTelemetry());
  const history = await h.temporal.workflow.getHandle(runId).fetchHistory();
  const replay = await Worker.runReplayHistory(
    { workflowBundle: await workflowBundle({ interceptorModules: tracing.interceptorModules }), sinks: { trace: { emit: { fn: () => {}, callDuringReplay: false } }, ...tracing.sinks } },
    history,
    runId,
  ).then(
    () => null,
    (error: unknown) => error,
  );
  assert.equal(replay, null);
  assert.equal(exporter.getFinishedSpans().length, before, 'replay exported no span');
});

test('a research child run is in its parent\'s trace, under the parent\'s research tool span', async () => {
  const { runId } = await agents.startRun({ goal: 'Research which log mentions a timeout.', model: 'scripted:research', workspace: h.workspace });
  assert.equal((await agents.result(runId)).status, 'completed');
  const spans = await traceOf(runId);
  const runs = named(spans, 'RunWorkflow:agentWorkflow');
  assert.equal(runs.length, 2, 'the parent run and the child run');
  const research = one(spans, 'execute_tool research');
  const startChild = spans.find((s) => s.name === 'StartChildWorkflow:agentWorkflow');
  assert.equal(startChild?.parentSpanId, research.spanContext().spanId);
  const child = runs.find((r) => r.parentSpanId === startChild.spanContext().spanId);
  assert.ok(child, 'the child run continues from its start span');
  assert.ok(spans.some((s) => s.name.startsWith('execute_tool') && s.parentSpanId === child.spanContext().spanId), "the child's own tool spans");
});

test('an MCP tool call: its tools/call span is in the run\'s trace, under the tool\'s activity', async () => {
  const { runId } = await agents.startRun({ goal: 'MCP: test__weather {"city":"Lisbon"}', model: 'scripted:mcp-call', workspace: h.workspace });
  assert.equal((await agents.result(runId)).status, 'completed');
  const spans = await traceOf(runId);
  const call = one(spans, 'tools/call weather');
  assert.equal(call.attributes['mcp.method.name'], 'tools/call');
  assert.equal(call.attributes['gen_ai.tool.name'], 'test__weather');
  assert.equal(call.attributes['network.transport'], 'pipe');
  assert.equal(parentOf(spans, call)?.name, 'RunActivity:runTool');
  assert.equal(one(spans, 'execute_tool test__weather').attributes['agent.tool.outcome'], 'ok');
});

test('every recorded history (test/fixtures/histories) replays on a tracing worker too, exporting nothing', async () => {
  const root = path.join(PROJECT_ROOT, 'test', 'fixtures', 'histories');
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.binpb'));
  const histories = files.map((file) => ({ workflowId: path.basename(file, '.binpb').split('@')[1]!, history: proto.temporal.api.history.v1.History.decode(readFileSync(path.join(root, file))) }));
  const tracing = tracingWorkerOptions(activeTelemetry());
  const before = exporter.getFinishedSpans().length;
  const failures: string[] = [];
  const results = Worker.runReplayHistories(
    { workflowBundle: await workflowBundle({ interceptorModules: tracing.interceptorModules }), sinks: { trace: { emit: { fn: () => {}, callDuringReplay: false } }, ...tracing.sinks } },
    histories,
  );
  for await (const result of results) if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
  assert.deepEqual(failures, []);
  assert.ok(histories.length >= 22);
  assert.equal(exporter.getFinishedSpans().length, before, 'replay exported no span');
});
