/**
 * Honest answers at run time: every run result carries a receipt of what really happened to each
 * side-effect call, and a final answer that claims what the receipt does not show carries a warning
 * (in the result, the state and the trace). The run still completes: the caller decides.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { answerLines } from '../src/cli/format.ts';
import { scenario, startHarness, type Harness } from './helpers/harness.ts';
import { activities, activityResult, localActivities } from './helpers/histories.ts';
import type { ModelReply } from '../src/wire/types.ts';

let h: Harness;
before(async () => {
  h = await startHarness('receipt');
});
after(() => h.replayAndClose());

const GOAL = 'Free some disk space.';
const restore = () => writeFileSync(path.join(h.workspace, 'access.log'), 'old\n');

test('an approved deletion: receipt done, no warning for the true claim', async () => {
  restore();
  const { runId } = await h.agents.startRun({ goal: GOAL, model: 'scripted:delete-approval', workspace: h.workspace });
  await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval');
  const waiting = await h.agents.getState(runId);
  assert.deepEqual(waiting.receipt.map((e) => [e.tool, e.outcome]), [['delete_file', 'pending']], 'the receipt shows what waits');
  await h.agents.approve(runId);
  const result = await h.agents.result(runId);
  assert.deepEqual(result.receipt.map((e) => ({ tool: e.tool, args: e.args, outcome: e.outcome })), [{ tool: 'delete_file', args: { path: 'access.log' }, outcome: 'done' }]);
  assert.deepEqual(result.warnings, []);
  assert.match(answerLines(result).join('\n'), /^receipt: done: delete_file access\.log$/m);
});

test('rejected without a reason and claimed anyway: rejected in the receipt, a warning in result, state and trace', async () => {
  restore();
  const { runId } = await h.agents.startRun({ goal: GOAL, model: 'scripted:false-claim', workspace: h.workspace });
  await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval');
  await h.agents.reject(runId);
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'completed', 'the run still completes');
  assert.ok(existsSync(path.join(h.workspace, 'access.log')));
  assert.deepEqual(result.receipt.map((e) => [e.tool, e.outcome, e.detail]), [['delete_file', 'rejected', 'no reason']]);
  assert.equal(result.warnings.length, 1);
  assert.equal(result.warnings[0]!.tool, 'delete_file');
  assert.equal(result.warnings[0]!.object, 'access.log');
  assert.deepEqual((await h.agents.getState(runId)).warnings, result.warnings);
  const line = (await h.trace(runId)).find((l) => l.type === 'claim_warning');
  assert.ok(line?.type === 'claim_warning' && /Deleted access\.log/.test(line.clause));
  assert.match(answerLines(result).join('\n'), /^warning: .*delete_file access\.log/m);
  // The model call that gave the answer checked it (the receipt went with it): the run took no step for the check.
  const history = await h.temporal.workflow.getHandle(runId).fetchHistory();
  const calls = activities(history, 'callModel');
  assert.deepEqual((calls.at(-1)!.input as { claimCheck?: { receipt: unknown } }).claimCheck?.receipt, result.receipt);
  assert.deepEqual((activityResult(calls.at(-1)!) as ModelReply).claimWarnings, result.warnings);
  assert.deepEqual(localActivities(history, 'checkAnswerClaims'), []);
});

test('a failed deletion claimed anyway, next to an unrelated negation: failed in the receipt, still a warning', async () => {
  mkdirSync(path.join(h.workspace, 'subdir'), { recursive: true });
  const { runId } = await h.agents.startRun({ goal: GOAL, model: scenario('claim-after-failure.ts'), workspace: h.workspace });
  await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval');
  await h.agents.approve(runId);
  const result = await h.agents.result(runId);
  assert.deepEqual(result.receipt.map((e) => [e.tool, e.outcome]), [['delete_file', 'failed']]);
  assert.match(result.receipt[0]!.detail ?? '', /could not be deleted/);
  assert.deepEqual(result.warnings.map((w) => w.object), ['subdir']);
});

test('a denied call is denied in the receipt', async () => {
  const result = await h.run({ goal: GOAL, model: scenario('run-command.ts') });
  assert.deepEqual(result.receipt.map((e) => [e.tool, e.outcome]), [['run_command', 'denied']]);
});

test('a call still waiting when the run is cancelled is not run; read-only calls are not on the receipt', async () => {
  restore();
  const { runId } = await h.agents.startRun({ goal: GOAL, model: 'scripted:delete-approval', workspace: h.workspace });
  await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval');
  await h.agents.cancelRun(runId, 'changed my mind');
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'interrupted');
  assert.deepEqual(result.receipt.map((e) => [e.tool, e.outcome, e.detail]), [['delete_file', 'not_run', 'cancelled']], 'list_files ran but is read-only');
  assert.deepEqual(result.warnings, []);
});

test('a receipt too large to send with every model call: the run checks its answer with a local activity instead', async () => {
  restore();
  writeFileSync(path.join(h.workspace, 'notes.txt'), 'keep\n');
  const { runId } = await h.agents.startRun({ goal: GOAL, model: scenario('two-deletes.ts'), workspace: h.workspace });
  // Two rejections with the longest reasons a decision takes: the receipt is over 4,000 characters as JSON.
  for (const toolCallId of ['x1', 'x2']) {
    const state = await h.waitForState(runId, (s) => s.pending?.kind === 'approval' && s.pending.toolCallId === toolCallId, `the approval of ${toolCallId}`);
    assert.ok(state.pending?.kind === 'approval');
    await h.agents.reject(runId, { callKey: state.pending.callKey, reason: `${toolCallId}: ${'not now; '.repeat(220)}`.slice(0, 2000) });
  }
  const result = await h.agents.result(runId);
  assert.deepEqual(result.receipt.map((e) => [e.tool, e.outcome]), [['delete_file', 'rejected'], ['delete_file', 'rejected']]);
  assert.ok(JSON.stringify(result.receipt).length > 4000);
  assert.deepEqual(result.warnings, [], 'the answer reports both as not done');
  const history = await h.temporal.workflow.getHandle(runId).fetchHistory();
  const calls = activities(history, 'callModel');
  assert.deepEqual((calls[0]!.input as { claimCheck?: { receipt: unknown } }).claimCheck, { receipt: [] }, 'the first call had the (empty) receipt');
  assert.equal((calls.at(-1)!.input as { claimCheck?: unknown }).claimCheck, undefined, 'the last call did not');
  assert.deepEqual(localActivities(history, 'checkAnswerClaims').map((m) => m.result), [[]]);
});
