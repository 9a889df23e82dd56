/** History stays small: continue-as-new keeps the run id usable, and transcripts survive a missing store. */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startHarness, type Harness } from './helpers/harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness('history');
});
after(async () => {
  await h.replayAll();
  await h.close();
});

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
