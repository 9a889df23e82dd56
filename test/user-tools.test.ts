/**
 * A team's own tools (`defineTool`, given to the worker): a run learns them from the worker through
 * history and treats them as it treats the built-in ones — validation, policy and approval, call keys,
 * dedupe, the receipt, idempotency keys — and a run naming a tool no worker offers fails at once.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { builtinTools } from '../src/tools/registry.ts';
import { startHarness, scenario, type Harness } from './helpers/harness.ts';
import { activities, localActivities } from './helpers/histories.ts';
import { lookupOrder, refundOrder, refundsIn, slowRefund, slowRefundLog } from './helpers/order-tools.ts';
import { spawnWorker } from './helpers/worker-process.ts';

let h: Harness;
before(async () => {
  h = await startHarness('user-tools', { tools: (ledger) => [...builtinTools(ledger), lookupOrder, refundOrder, slowRefund], modelProxy: true });
});
after(() => h.replayAndClose());

const GOAL = 'Refund order A1 in full.';

async function approveRefund(runId: string) {
  const state = await h.waitForState(runId, (s) => s.pending?.kind === 'approval', 'the refund to wait for approval');
  assert.ok(state.pending?.kind === 'approval');
  assert.equal(state.pending.toolName, 'refund_order');
  assert.equal(state.pending.risk, 'high', 'a tool that states no risk is high risk');
  assert.deepEqual(state.pending.args, { orderId: 'A1', amount: 30 });
  await h.agents.approve(runId, { callKey: state.pending.callKey, argsHash: state.pending.argsHash, by: 'tester' });
  return state.pending;
}

test('a run naming its tools: the lookup runs, the refund waits for a human and runs once after the approval', async () => {
  const before = refundsIn(h.workspace).length;
  const { runId } = await h.agents.startRun({ goal: GOAL, model: scenario('refund.ts'), workspace: h.workspace, tools: ['lookup_order', 'refund_order'] });
  assert.equal(refundsIn(h.workspace).length, before, 'nothing is refunded before the approval');
  const pending = await approveRefund(runId);
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'completed', result.error ?? '');
  assert.match(result.output ?? '', /Refunded 30 on order A1\./);
  const refunds = refundsIn(h.workspace).slice(before);
  assert.deepEqual(refunds, [{ key: `${runId}:${pending.callKey}`, orderId: 'A1', amount: 30 }], 'one refund, under the call\'s idempotency key');
  assert.deepEqual(result.receipt.map((e) => [e.tool, e.outcome]), [['refund_order', 'done']], 'the receipt lists the side effect');
  // The run asked its worker for the tools it named (a local activity), once, before the first model call.
  const history = (await h.histories()).find((x) => x.workflowId === runId)!.history;
  assert.equal(localActivities(history, 'mcpTools').length, 1);
  assert.deepEqual(activities(history, 'runTool').map((a) => (a.input as { toolName: string }).toolName), ['refund_order'], 'the quick read ran as a local activity, the refund as an activity');
  const offered = h.model.exchanges.filter((x) => x.body.messages[1]?.content === GOAL).map((x) => x.body.tools?.map((t) => t.function.name));
  assert.deepEqual(offered[0], ['lookup_order', 'refund_order'], 'the model was offered exactly the tools the run named');
});

test('a run naming no tools is offered the built-in ones and the worker\'s own, learned with its first model call', async () => {
  const { runId } = await h.agents.startRun({ goal: `${GOAL} (all tools)`, model: scenario('refund.ts'), workspace: h.workspace });
  await approveRefund(runId);
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'completed', result.error ?? '');
  const first = h.model.exchanges.find((x) => x.body.messages[1]?.content === `${GOAL} (all tools)`)!;
  const names = first.body.tools?.map((t) => t.function.name) ?? [];
  assert.ok(names.includes('read_file') && names.includes('lookup_order') && names.includes('refund_order'), names.join(', '));
});

test('a rejected refund is not run, and the model is told so', async () => {
  const before = refundsIn(h.workspace).length;
  const { runId } = await h.agents.startRun({ goal: `${GOAL} (rejected)`, model: scenario('refund.ts'), workspace: h.workspace, tools: ['lookup_order', 'refund_order'] });
  const state = await h.waitForState(runId, (s) => s.pending?.kind === 'approval', 'the refund to wait for approval');
  assert.ok(state.pending?.kind === 'approval');
  await h.agents.reject(runId, { callKey: state.pending.callKey, reason: 'outside the refund window' });
  const result = await h.agents.result(runId);
  assert.match(result.output ?? '', /NOT run.*outside the refund window/s);
  assert.equal(refundsIn(h.workspace).length, before);
  assert.deepEqual(result.receipt.map((e) => [e.tool, e.outcome]), [['refund_order', 'rejected']]);
});

test('arguments the tool\'s schema refuses go back to the model; an identical read runs once', async () => {
  const result = await h.run({ goal: 'Look order B2 up.', model: scenario('bad-order-call.ts'), tools: ['lookup_order'] });
  assert.equal(result.status, 'completed', result.error ?? '');
  assert.equal(result.toolCalls, 3);
  assert.equal(result.toolRuns, 1, 'the invalid call never ran; the repeated read was deduplicated');
  const trace = await h.trace(result.runId);
  const invalid = trace.find((l) => l.type === 'tool_start');
  assert.ok(invalid?.type === 'tool_start' && invalid.args === JSON.stringify({ orderId: 'B2' }));
  assert.ok(trace.some((l) => l.type === 'tool_deduplicated' && l.toolName === 'lookup_order'));
  const request = h.model.exchanges.filter((x) => x.body.messages[1]?.content === 'Look order B2 up.')[1]!;
  assert.match(request.body.messages.at(-1)?.content ?? '', /^Error: .*orderId/);
});

test('a run naming a tool no worker offers fails at once, naming the tools there are', async () => {
  const result = await h.run({ goal: 'What is the weather?', model: scenario('refund.ts'), tools: ['get_weather'] });
  assert.equal(result.status, 'failed');
  assert.match(result.error ?? '', /^Unknown tool "get_weather" in the run input: no worker on this task queue offers it\. Tools there are: .*read_file.*lookup_order, refund_order/);
  assert.equal(h.model.exchanges.filter((x) => x.body.messages[1]?.content === 'What is the weather?').length, 0, 'the model was never asked');
});

const SLOW_REFUND = { goal: 'Refund order B2 through the provider.', model: scenario('slow-refund.ts'), tools: ['slow_refund'], policy: { mediumQuota: 5 } };

test("cancelling a run stops a team's own tool while it runs: its signal aborts, and the receipt says its effect is unknown", async () => {
  const { runId } = await h.agents.startRun({ ...SLOW_REFUND, workspace: h.workspace });
  await h.waitForState(runId, (s) => /waiting for the provider/.test(s.progress ?? ''), 'the refund to be under way');
  await h.agents.cancelRun(runId, 'wrong order');
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'interrupted');
  const key = `${runId}:t1.1`;
  assert.deepEqual(
    slowRefundLog(h.workspace).filter((l) => l.endsWith(key)),
    [`refunded ${key}`, `aborted ${key}`],
    "the tool saw the cancel through ctx.signal and stopped",
  );
  const state = await h.agents.getState(runId);
  assert.deepEqual(
    state.receipt.map((e) => [e.tool, e.outcome]),
    [['slow_refund', 'interrupted']],
  );
});

test("a team's own tool whose worker is killed mid-call is retried on another worker under the same idempotency key: the refund happens once", async () => {
  await h.stopWorker();
  const doomed = await spawnWorker(h, h.address, { script: 'order-worker.ts' });
  let restarted = false;
  try {
    const { runId } = await h.agents.startRun({ ...SLOW_REFUND, workspace: h.workspace });
    await h.waitForState(runId, (s) => /waiting for the provider/.test(s.progress ?? ''), 'the refund to be under way on the doomed worker');
    await doomed.kill();
    await h.startWorker();
    restarted = true;
    const result = await h.agents.result(runId);
    assert.equal(result.status, 'completed', result.error ?? '');
    const key = `${runId}:t1.1`;
    assert.deepEqual(
      refundsIn(h.workspace).filter((r) => r.key === key),
      [{ key, orderId: 'B2', amount: 45 }],
      'one refund under the call\'s key, though the tool ran twice',
    );
    assert.match(result.output ?? '', /already refunded/, 'the retry found the refund its key had made');
    const attempts = activities((await h.histories()).find((x) => x.workflowId === runId)!.history, 'runTool').map((a) => a.attempt);
    assert.deepEqual(attempts, [2], 'one tool activity, completed on its second attempt');
  } finally {
    if (!restarted) {
      await doomed.kill();
      await h.startWorker();
    }
  }
});
