/** History stays small: continue-as-new keeps the run id usable, and transcripts survive a missing store. */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import proto from '@temporalio/proto';
import type { TraceLine } from '../src/wire/trace-events.ts';
import { startHarness, type Harness } from './helpers/harness.ts';
import { activities, eventTypes, executionsOf, localActivities } from './helpers/histories.ts';
import { startHttp } from './helpers/http-app.ts';
import { RefusedLastTasks } from './helpers/refused-task.ts';
import { openSse } from './helpers/sse-client.ts';

const refused = new RefusedLastTasks(() => h.temporal);

let h: Harness;
before(async () => {
  h = await startHarness('history', { workerStore: refused.workerStore });
});
after(() => h.replayAndClose());

const GOAL = 'Which log file mentions a timeout?';

test('a run that continues-as-new every 3 turns keeps its id, its totals and one trace stream', async () => {
  const { runId } = await h.agents.startRun({ goal: GOAL, model: 'scripted:runaway', workspace: h.workspace, limits: { maxTurns: 10, maxRepeatedCalls: 0, maxStaleTurns: 0 }, continueAsNewEveryTurns: 3 });
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'max_turns_exceeded');
  assert.equal(result.turns, 10);
  assert.equal(result.toolCalls, 10);
  assert.equal(result.toolRuns, 1, 'the dedupe cache crossed the executions');
  const lines = (await h.trace(runId));
  assert.deepEqual(lines.map((l) => l.seq), lines.map((_, i) => i + 1), 'one stream, no gaps, no duplicates');
  assert.equal(lines.filter((l) => l.type === 'continued_as_new').length, 3);
  assert.equal(lines.filter((l) => l.type === 'turn').length, 10);
  const turns = lines.filter((l) => l.type === 'turn');
  assert.equal(result.usage.promptTokens, turns.reduce((sum, l) => sum + l.prompt_tokens, 0), 'usage is summed over every execution');
  assert.equal(result.usage.completionTokens, turns.reduce((sum, l) => sum + l.completion_tokens, 0));
  assert.equal(result.costUsd, turns.at(-1)!.costUsd, 'the cost so far crossed each continue-as-new');
  const state = await h.agents.getState(runId);
  assert.equal(state.perTurnPromptTokens.length, 10);
  for (let i = 1; i < 10; i++) assert.ok(state.perTurnPromptTokens[i]! > state.perTurnPromptTokens[i - 1]!, 'the model saw the whole transcript each turn');
  // The model's last request holds the whole conversation: system, user, and 9 assistant + 9 tool messages.
  const last = h.scripted.requests.filter((r) => r.scenario === 'runaway' && r.messages[1]?.content === GOAL).at(-1)!;
  assert.equal(last.messages.length, 2 + 9 * 2);
});

test('queries, approvals and cancel reach the run after it continued-as-new', async () => {
  const { runId } = await h.agents.startRun({ goal: GOAL, model: 'scripted:delete-approval', workspace: h.workspace, continueAsNewEveryTurns: 1 });
  const state = await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval');
  assert.equal(state.turns, 2);
  await h.agents.reject(runId, { reason: 'not today' });
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'completed');
  assert.equal(result.output, 'I did not delete anything: you declined because "not today".');
  assert.equal((await h.trace(runId)).filter((l) => l.type === 'continued_as_new').length, 2, 'turns 2 and 3 each began a new execution');
  const history = await h.temporal.workflow.getHandle(runId).fetchHistory();
  assert.ok(history.events!.every((e) => !e.workflowExecutionContinuedAsNewEventAttributes), 'the last execution ended the run itself');
});

test('a worker whose transcript store lacks the links asks the run for them', async () => {
  const { runId } = await h.agents.startRun({ goal: GOAL, model: 'scripted:delete-approval', workspace: h.workspace });
  await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval');
  await h.stopWorker();
  rmSync(path.join(h.dataDir, 'transcripts'), { recursive: true, force: true });
  await h.startWorker();
  await h.agents.reject(runId);
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'completed');
  assert.equal(result.output, 'I did not delete anything: you declined the deletion.');
  const last = h.scripted.requests.filter((r) => r.scenario === 'delete-approval' && r.messages[1]?.content === GOAL).at(-1)!;
  assert.equal(last.messages.length, 6, 'the model still got the whole conversation');
});

test('a cancel reaches the run after it continued-as-new', async () => {
  const { runId } = await h.agents.startRun({ goal: GOAL, model: 'scripted:delete-approval', workspace: h.workspace, continueAsNewEveryTurns: 1 });
  await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval in a later execution');
  await h.agents.cancelRun(runId, 'cancelled after continue-as-new');
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'interrupted');
  assert.deepEqual(result.interruption, { type: 'cancelled', reason: 'cancelled after continue-as-new' });
  assert.equal(result.turns, 2);
});

test('quick read-only tools run as local activities: a marker in history, no activity task', async () => {
  const plan = await h.run({ goal: `${GOAL} (local)`, model: 'scripted:plan' });
  assert.equal(plan.status, 'completed');
  const history = await h.temporal.workflow.getHandle(plan.runId).fetchHistory();
  assert.deepEqual(activities(history).map((a) => a.type), ['callModel', 'callModel', 'callModel'], 'only the model calls were activity tasks');
  const markers = localActivities(history, 'runTool');
  assert.equal(markers.length, 2, 'list_files and read_file: one local-activity marker each');
  assert.match((markers[0]!.result as { content: string }).content, /errors\.log/, 'with the tool result recorded');
  // A slow read-only tool (scan_files: a 10-minute timeout) is an ordinary activity, with heartbeats.
  const scan = await h.run({ goal: `${GOAL} (scan)`, model: 'scripted:slow-scan' });
  const scanHistory = await h.temporal.workflow.getHandle(scan.runId).fetchHistory();
  assert.deepEqual(activities(scanHistory, 'runTool').map((a) => (a.input as { toolName: string }).toolName), ['scan_files']);
  assert.equal(localActivities(scanHistory, 'runTool').length, 0);
});

test("a workflow task Temporal refuses leaves no trace line, and the live stream ends on its replacement's run_stopped", async () => {
  const runId = refused.runId('run-refused');
  const api = await startHttp(h);
  try {
    await h.agents.startRun({ goal: `${GOAL} (refused)`, model: 'scripted:plan', workspace: h.workspace }, { runId });
    const live = await openSse(`${api.url}/runs/${runId}/events`);
    const result = await h.agents.result(runId);
    assert.equal(result.status, 'completed');
    const history = await h.temporal.workflow.getHandle(runId).fetchHistory();
    const failed = history.events?.find((e) => e.workflowTaskFailedEventAttributes)?.workflowTaskFailedEventAttributes;
    assert.equal(failed?.cause, proto.temporal.api.enums.v1.WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND, 'the task that completed the run was refused');
    const lines = await h.trace(runId);
    assert.deepEqual(lines.map((l) => l.seq), lines.map((_, i) => i + 1), 'no gaps, no duplicates');
    // The refused task had traced the last turn and the end; its replacement handled the signal first.
    assert.deepEqual(lines.slice(-3).map((l) => l.type), ['approval_refused', 'turn', 'run_stopped'], "the replacement's lines");
    assert.equal(lines.filter((l) => l.type === 'run_stopped').length, 1, "the refused task's run_stopped is gone");

    // The store's event log has both tasks' lines; the stream sent one run_stopped, the replacement's, last,
    // and kept by seq (the latest line for each), what it sent is the stored trace.
    await live.ended;
    const stored = (await h.store.readEvents(runId)).map((e) => e.event as TraceLine);
    assert.equal(stored.filter((l) => l.type === 'run_stopped').length, 2, "the refused task's run_stopped went to the event log too");
    const sent = live.events.map((e) => e.data as TraceLine);
    assert.deepEqual(sent.filter((l) => l.type === 'run_stopped'), [lines.at(-1)], "only the replacement's run_stopped was sent");
    assert.equal(sent.at(-1)?.type, 'run_stopped');
    const bySeq = new Map<number, TraceLine>();
    for (const line of sent) if (line.seq !== undefined) bySeq.set(line.seq, line);
    assert.deepEqual([...bySeq.values()], lines);
  } finally {
    await api.close();
  }
});

test('every execution of every run on the task queue is replayed: each continue-as-new step, each child', async () => {
  const research = await h.run({ goal: `${GOAL} (research)`, model: 'scripted:research' });
  const all = await h.histories();
  // The run of the first test continued-as-new three times: four executions, all collected, in order.
  const chains = new Map<string, number>();
  for (const e of all) chains.set(e.workflowId, (chains.get(e.workflowId) ?? 0) + 1);
  const longest = [...chains].sort((a, b) => b[1] - a[1])[0]!;
  assert.equal(longest[1], 4);
  const chain = executionsOf(all, longest[0]);
  assert.deepEqual(chain.map((e) => eventTypes(e.history).at(-1)), ['WorkflowExecutionContinuedAsNew', 'WorkflowExecutionContinuedAsNew', 'WorkflowExecutionContinuedAsNew', 'WorkflowExecutionCompleted']);
  // The research child is there, as a child of its run.
  const child = all.find((e) => e.workflowId === `${research.runId}:research:t1.1`);
  assert.equal(child?.parentWorkflowId, research.runId);
  // Every run this file started (all through agents.startRun) is there.
  assert.equal(new Set(all.filter((e) => !e.parentWorkflowId).map((e) => e.workflowId)).size, 8);
  assert.equal(await h.replayAll(), all.length);
});
