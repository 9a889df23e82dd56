/**
 * Agents working together, durably. An agent calls another as a tool (`ask_<agent>`): a child run with
 * its own tools, limits and approvals — an approval inside the child is listed with its parent, and
 * deciding it resumes the parent's call; the child's spend is the parent's, also when it is cancelled.
 * An agent hands the run to another (`transfer_to_<agent>`) and back: the run goes on under the other
 * agent's instructions, tools and policy, and its state, trace and receipt say who was in charge when.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { stateTable } from '../src/cli/format.ts';
import { builtinTools } from '../src/tools/registry.ts';
import { agentChildRunId } from '../src/wire/run-ids.ts';
import { eventually } from './helpers/eventually.ts';
import { startHarness, type Harness } from './helpers/harness.ts';
import { refundsIn } from './helpers/order-tools.ts';
import { billing, front, TEAM } from './helpers/team-agents.ts';

let h: Harness;
before(async () => {
  h = await startHarness('multi-agent', { tools: (ledger) => builtinTools(ledger), agents: TEAM, modelProxy: true });
});
after(() => h.replayAndClose());

test("an agent called as a tool waits for its own approval in a child run, listed with its parent; approving it resumes the parent's call", async () => {
  const refunds = refundsIn(h.workspace).length;
  const { runId } = await h.agents.startRun({ agent: 'triage', goal: 'A customer wants order A1 refunded.', workspace: h.workspace });
  const childRunId = agentChildRunId(runId, 't1.1');
  const listed = await eventually(async () => (await h.agents.listRuns({ pending: true })).find((r) => r.runId === childRunId), 'the child run to be listed as waiting');
  assert.equal(listed.parentRunId, runId, 'the waiting child names its parent');
  assert.ok(listed.pending?.kind === 'approval' && listed.pending.toolName === 'refund_order');
  const parent = await h.agents.getState(runId);
  assert.equal(parent.status, 'running', 'the parent runs its call while the child waits');
  assert.deepEqual(parent.children.map((c) => [c.runId, c.agent, c.status]), [[childRunId, 'support', 'running']]);
  const held = parent.children[0]!.pending;
  assert.ok(held?.kind === 'approval' && held.callKey === listed.pending.callKey && held.argsHash === listed.pending.argsHash, `the parent's state says what holds its call, and where: ${JSON.stringify(parent.children[0])}`);
  assert.match(stateTable(parent), new RegExp(`waits in child\\s+${childRunId} \\(support\\): approval of refund_order`));
  assert.equal(refundsIn(h.workspace).length, refunds, 'nothing refunded before the approval');

  await h.agents.approve(childRunId, { callKey: listed.pending.callKey, argsHash: listed.pending.argsHash, by: 'alice' });
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'completed', result.error ?? '');
  assert.match(result.output ?? '', /Support says: Refunded 30 on order A1\./);
  assert.equal(refundsIn(h.workspace).length, refunds + 1, 'one refund, after the approval');
  const state = await h.agents.getState(runId);
  const child = state.children[0]!;
  assert.equal(child.status, 'completed');
  assert.ok(child.turns === 2 && child.costUsd > 0, `the child's turns and spend are known: ${JSON.stringify(child)}`);
  assert.ok(Math.abs(state.totalCostUsd - (state.costUsd + child.costUsd)) < 1e-12, "the child's spend counts in the parent's total");
  assert.equal(state.totalTurns, state.turns + child.turns);
});

test("a cancelled child's spend still counts in the parent's budget and totals", async () => {
  const { runId } = await h.agents.startRun({ agent: 'triage', goal: 'A customer wants order A1 refunded (then changes their mind).', workspace: h.workspace });
  const childRunId = agentChildRunId(runId, 't1.1');
  // The child is found once its parent has started it.
  const waiting = await eventually(async () => {
    const child = await h.agents.getState(childRunId).catch(() => null);
    return child?.pending?.kind === 'approval' ? child : undefined;
  }, 'the child to wait for its approval');
  assert.ok(waiting.costUsd > 0, 'the child has spent a turn');
  await h.agents.cancelRun(runId, 'the customer changed their mind');
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'interrupted');
  const state = await h.agents.getState(runId);
  const child = state.children[0]!;
  assert.equal(child.status, 'interrupted');
  assert.equal(child.costUsd, waiting.totalCostUsd, "the cancelled child's spend, from what it recorded");
  assert.ok(Math.abs(state.totalCostUsd - (state.costUsd + child.costUsd)) < 1e-12, `the parent's total includes it: ${state.totalCostUsd} vs ${state.costUsd} + ${child.costUsd}`);
  const childResult = await h.agents.result(childRunId);
  assert.equal(childResult.status, 'interrupted', 'the cancel reached the child');
});

test('a handoff and back: each agent runs with its own instructions, tools and policy, and the run says who was in charge of each turn', async () => {
  const goal = 'How much did I pay for order A1?';
  const { runId } = await h.agents.startRun({ agent: 'front', goal, workspace: h.workspace });
  // Billing's policy applies once it is in charge: its lookup waits for a person.
  const waiting = await h.waitForState(runId, (s) => s.pending?.kind === 'approval', "billing's lookup to wait for approval");
  assert.ok(waiting.pending?.kind === 'approval' && waiting.pending.toolName === 'lookup_order');
  assert.equal(waiting.agent, 'billing');
  await h.agents.approve(runId, { callKey: waiting.pending.callKey, argsHash: waiting.pending.argsHash });
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'completed', result.error ?? '');
  assert.match(result.output ?? '', /Billing found: .*kettle/);

  const state = await h.agents.getState(runId);
  assert.equal(state.agent, 'front', 'back in charge at the end');
  assert.deepEqual(state.agentTurns, [
    { agent: 'front', fromTurn: 1 },
    { agent: 'billing', fromTurn: 2, callKey: 't1.1' },
    { agent: 'front', fromTurn: 4, callKey: 't3.1' },
  ]);
  assert.deepEqual(
    state.receipt.map((e) => [e.tool, e.outcome, e.agent]),
    [
      ['transfer_to_billing', 'done', 'front'],
      ['transfer_to_front', 'done', 'billing'],
    ],
  );

  const requests = h.model.exchanges.filter((x) => x.body.messages[1]?.content === goal);
  const offered = requests.map((x) => x.body.tools?.map((t) => t.function.name).sort());
  assert.deepEqual(offered, [
    ['lookup_order', 'transfer_to_billing'],
    ['lookup_order', 'transfer_to_front'],
    ['lookup_order', 'transfer_to_front'],
    ['lookup_order', 'transfer_to_billing'],
  ]);
  const systems = requests.at(-1)!.body.messages.filter((m) => m.role === 'system').map((m) => String(m.content));
  assert.deepEqual(systems, [front.instructions, billing.instructions, front.instructions], 'each handoff puts the new instructions in charge, in the transcript');

  const trace = await h.trace(runId);
  const turns = trace.filter((e) => e.type === 'turn').map((e) => (e.type === 'turn' ? e.agent : null));
  assert.deepEqual(turns, ['front', 'billing', 'billing', 'front']);
  const handoffs = trace.flatMap((e) => (e.type === 'handoff' ? [[e.from, e.to, e.callKey]] : []));
  assert.deepEqual(handoffs, [
    ['front', 'billing', 't1.1'],
    ['billing', 'front', 't3.1'],
  ]);
});
