/** Every stop condition (workflows/stop.ts), questions for the user, and the output contract. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AnswerRefusedError } from '../src/client/client.ts';
import { scenario, startHarness, type Harness } from './helpers/harness.ts';
import { FailureType } from '../src/wire/failures.ts';
import { activities, eventId, eventTypes, localActivities, timers, type History } from './helpers/histories.ts';
import { REPLY_CHARS } from './scenarios/big-spender.ts';

let h: Harness;
before(async () => {
  h = await startHarness('stops');
});
after(() => h.replayAndClose());

const GOAL = 'Look around the workspace.';

test('maxToolCalls: checked before each tool run → budget_exceeded, max_tool_calls', async () => {
  const result = await h.run({ goal: GOAL, model: 'scripted:many-writes', limits: { maxToolCalls: 3 }, policy: { mediumQuota: 100 } });
  assert.equal(result.status, 'budget_exceeded');
  assert.equal(result.reason, 'max_tool_calls');
  assert.equal(result.toolRuns, 3);
  assert.equal(result.turns, 4, 'the fourth reply asked for a fourth run, which was refused');
  const stopped = (await h.trace(result.runId)).at(-1)!;
  assert.ok(stopped.type === 'run_stopped' && stopped.reason === 'max_tool_calls');
});

test('maxWallMs: the timer interrupts a model call in flight → budget_exceeded, max_time', async () => {
  const result = await h.run({ goal: GOAL, model: scenario('slow.ts'), limits: { maxWallMs: 1500 } });
  assert.equal(result.status, 'budget_exceeded');
  assert.equal(result.reason, 'max_time');
  assert.deepEqual(result.interruption, { type: 'max_time' });
  assert.equal(result.turns, 0);
  // The history: the wall timer fired, then the model call (a 30 s reply) was cancelled, and the run ended.
  const history = await h.temporal.workflow.getHandle(result.runId).fetchHistory();
  const [call] = activities(history, 'callModel');
  assertInterruptedByTheTimer(history, call!, 1500);
  const request = h.scripted.requests.find((r) => r.scenario.endsWith('slow.ts') && r.messages[1]?.content === GOAL)!;
  assert.ok(request.aborted, 'the model request was aborted');
});

test("maxWallMs with modelCall 'local': the call stops at the run's deadline, and that is the stop", async () => {
  const goal = `${GOAL} (local)`;
  const result = await h.run({ goal, model: scenario('slow.ts'), limits: { maxWallMs: 1500 }, modelCall: 'local' });
  assert.equal(result.status, 'budget_exceeded');
  assert.deepEqual(result.interruption, { type: 'max_time' });
  assert.equal(result.turns, 0);
  const history = await h.temporal.workflow.getHandle(result.runId).fetchHistory();
  const [call] = localActivities(history, 'callModel');
  const failure = call!.event.markerRecordedEventAttributes?.failure;
  assert.equal(failure?.cause?.applicationFailureInfo?.type ?? failure?.applicationFailureInfo?.type, FailureType.wallTimeUp, 'the call itself stopped at the deadline');
  // The wall timer reached the server only with the task the call held: the call's own bound stopped the run first.
  const wall = timers(history).find((t) => t.timeoutMs > 0 && t.timeoutMs <= 1500);
  assert.ok(wall, 'the wall timer was started');
  assert.equal(wall.fired, null, 'the run did not wait for the wall timer');
  const request = h.scripted.requests.find((r) => r.messages[1]?.content === goal)!;
  assert.ok(request.aborted, 'the model request was aborted');
});

test('maxWallMs also interrupts a tool in flight', async () => {
  const result = await h.run({ goal: `${GOAL} (a minute's scan)`, model: scenario('long-scan.ts'), limits: { maxWallMs: 4000 } });
  assert.equal(result.status, 'budget_exceeded');
  assert.deepEqual(result.interruption, { type: 'max_time' });
  assert.equal(result.turns, 1);
  const history = await h.temporal.workflow.getHandle(result.runId).fetchHistory();
  const [scan] = activities(history, 'runTool');
  assert.deepEqual((scan!.input as { toolName: string }).toolName, 'scan_files');
  assertInterruptedByTheTimer(history, scan!, 4000);
  const trace = await h.trace(result.runId);
  assert.ok(trace.some((l) => l.type === 'tool_start' && l.toolName === 'scan_files'));
  assert.ok(!trace.some((l) => l.type === 'tool_result'), 'the scan never produced a result');
});

/** The wall timer fired; then, and only then, the activity was asked to stop; it stopped; the run ended. */
function assertInterruptedByTheTimer(history: History, activity: ReturnType<typeof activities>[number], maxWallMs: number) {
  const wall = timers(history).find((t) => t.timeoutMs <= maxWallMs && t.timeoutMs > 0);
  assert.ok(wall?.fired, 'the wall-time timer fired');
  assert.ok(activity.cancelRequested, 'the activity in flight was asked to stop');
  assert.ok(eventId(activity.cancelRequested) > eventId(wall.fired), 'after the timer fired');
  assert.equal(activity.closedAs, 'Canceled', 'it stopped without finishing');
  assert.equal(eventTypes(history).at(-1), 'WorkflowExecutionCompleted');
}

test('maxWallMs also ends a wait for approval', async () => {
  const result = await h.run({ goal: GOAL, model: 'scripted:delete-approval', limits: { maxWallMs: 1000 } });
  assert.equal(result.status, 'budget_exceeded');
  assert.equal(result.reason, 'max_time');
});

describe('defaults', () => {
  test('a run that sets no limits stops after 20 turns', async () => {
    const result = await h.run({ goal: `${GOAL} (no limits: turns)`, model: scenario('fresh-reads.ts') });
    assert.equal(result.status, 'max_turns_exceeded');
    assert.deepEqual(result.interruption, { type: 'max_turns' });
    assert.equal(result.turns, 20);
    assert.equal(result.toolRuns, 20, 'every turn was fresh: no other stop applied');
  });

  test('a run that sets no limits stops once it has spent $1', async () => {
    const result = await h.run({ goal: `${GOAL} (no limits: budget)`, model: scenario('big-spender.ts'), stream: false });
    assert.equal(result.status, 'budget_exceeded');
    assert.deepEqual(result.interruption, { type: 'max_budget' });
    // About 50,000 completion tokens ($0.60) a turn: the second turn crosses $1, the third is never asked for.
    assert.equal(result.turns, 2);
    assert.ok(result.costUsd >= 1, `spent ${result.costUsd}`);
    assert.ok(result.usage.completionTokens >= (2 * REPLY_CHARS) / 4, 'the replies were as long as scripted');
    const costs = (await h.trace(result.runId)).flatMap((l) => (l.type === 'turn' ? [l.costUsd] : []));
    assert.ok(costs[0]! < 1 && costs[1]! >= 1, `under $1 after turn 1, over it after turn 2: ${costs.join(', ')}`);
  });

  test('the spend so far crosses continue-as-new: the budget stops the run at the same turn', async () => {
    const result = await h.run({ goal: `${GOAL} (budget across executions)`, model: scenario('big-spender.ts'), stream: false, continueAsNewEveryTurns: 1 });
    assert.equal(result.status, 'budget_exceeded');
    assert.equal(result.turns, 2, 'the second execution started from the first one\'s spend');
    assert.ok(result.costUsd >= 1, `spent ${result.costUsd}`);
    const turns = (await h.trace(result.runId)).filter((l) => l.type === 'turn');
    assert.equal(result.usage.completionTokens, turns.reduce((sum, l) => sum + l.completion_tokens, 0), 'usage is the sum over both executions');
  });
});

describe('no progress', () => {
  test('the same call K times in a row: one warning, then interrupted, no_progress', async () => {
    const result = await h.run({ goal: GOAL, model: scenario('repeat-read.ts') });
    assert.equal(result.status, 'interrupted');
    assert.equal(result.reason, 'no_progress');
    assert.deepEqual(result.interruption, { type: 'no_progress', detail: 'read_file was called with the same arguments 3 times in a row' });
    const tools = (await h.agents.transcript(result.runId)).filter((m) => m.role === 'tool');
    assert.equal(tools.filter((m) => m.content.includes('[harness]')).length, 1, 'exactly one warning');
    assert.equal(result.turns, 3);
  });

  test('N turns of results already seen: one warning, then interrupted, no_progress', async () => {
    const result = await h.run({ goal: GOAL, model: scenario('stale-lists.ts'), limits: { maxStaleTurns: 4 } });
    assert.equal(result.status, 'interrupted');
    assert.equal(result.reason, 'no_progress');
    assert.match(JSON.stringify(result.interruption), /4 turns in a row brought only tool results already seen/);
    assert.equal(result.turns, 5, 'one fresh turn, then four stale ones');
  });
});

test('policy: a tool denied N times stops the run → interrupted, policy', async () => {
  const result = await h.run({ goal: GOAL, model: scenario('keeps-asking-extreme.ts') });
  assert.equal(result.status, 'interrupted');
  assert.equal(result.reason, 'policy');
  assert.deepEqual(result.interruption, { type: 'policy', denials: 3 });
  assert.equal(result.toolRuns, 0);
});

describe('output contract', () => {
  const outputSchema = {
    type: 'object',
    properties: { file: { type: 'string' }, mentionsTimeout: { type: 'boolean' } },
    required: ['file', 'mentionsTimeout'],
  };

  test('a valid answer completes', async () => {
    const result = await h.run({ goal: 'valid', model: scenario('json-answer.ts'), outputSchema });
    assert.equal(result.status, 'completed');
    assert.deepEqual(JSON.parse(result.output!), { file: 'errors.log', mentionsTimeout: true });
  });

  test('a broken answer is sent back once with the error, and the repair completes', async () => {
    const result = await h.run({ goal: 'repairable', model: scenario('json-answer.ts'), outputSchema });
    assert.equal(result.status, 'completed');
    assert.equal(result.turns, 2);
    const userMessages = (await h.agents.transcript(result.runId)).flatMap((m) => (m.role === 'user' ? [m.content] : []));
    const repairRequest = userMessages.find((c) => c.startsWith('Your answer does not meet'));
    assert.match(repairRequest ?? '', /not JSON/);
  });

  test('a second failure ends the run failed, output_contract', async () => {
    const result = await h.run({ goal: 'hopeless', model: scenario('json-answer.ts'), outputSchema });
    assert.equal(result.status, 'failed');
    assert.equal(result.reason, 'output_contract');
    assert.equal(result.turns, 2);
    assert.match(result.error!, /broke the output contract twice: .*file/);
  });

  test('an outputSchema that is not JSON Schema is refused at start', async () => {
    await assert.rejects(h.agents.startRun({ goal: GOAL, model: 'scripted:plan', outputSchema: { type: 'no-such-type' } }), /outputSchema/);
  });
});

describe('ask_user', () => {
  test('waits for input, resumes with the answer as the tool result', async () => {
    const { runId } = await h.agents.startRun({ goal: GOAL, model: 'scripted:ask-user', workspace: h.workspace });
    const state = await h.waitForState(runId, (s) => s.status === 'waiting_input', 'the question');
    assert.deepEqual(state.pending && { kind: state.pending.kind, callKey: state.pending.callKey, toolCallId: state.pending.toolCallId }, { kind: 'input', callKey: 't1.1', toolCallId: 'a1' });
    assert.ok(state.pending?.kind === 'input' && state.pending.question === 'Which file should I read?');
    await assert.rejects(h.agents.answer(runId, 'x', { callKey: 'zz' }), /The pending question is call "t1.1", not "zz"/);
    assert.deepEqual(await h.agents.answer(runId, 'notes.txt'), { callKey: 't1.1' });
    const result = await h.agents.result(runId);
    assert.equal(result.status, 'completed');
    assert.match(result.output!, /The user picked notes\.txt; it says: Remember to rotate your logs\./);
  });

  test('an answer sent while the run is not waiting is refused with a clear error', async () => {
    const { runId } = await h.agents.startRun({ goal: GOAL, model: 'scripted:delete-approval', workspace: h.workspace });
    await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval');
    await assert.rejects(h.agents.answer(runId, 'hello'), (e: unknown) => {
      assert.ok(e instanceof AnswerRefusedError);
      assert.match(e.message, /is not waiting for an answer \(status waiting_approval\)/);
      return true;
    });
    await h.agents.reject(runId);
    assert.equal((await h.agents.result(runId)).status, 'completed');
  });
});
