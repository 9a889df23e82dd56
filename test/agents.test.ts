/**
 * Agents as definitions (`defineAgent`, given to the worker): a run names one and gets its instructions,
 * tools, limits and policy, learned from the worker through history; a run may set only what the agent
 * allows, and anything else is refused at once, saying what is allowed.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { defineAgent } from '../src/agents/define-agent.ts';
import { builtinTools } from '../src/tools/registry.ts';
import { startHarness, scenario, type Harness } from './helpers/harness.ts';
import { lookupOrder, refundOrder, refundsIn } from './helpers/order-tools.ts';

const INSTRUCTIONS = 'You help customers with their orders. Refund only what was paid.';
const support = defineAgent({
  name: 'support',
  instructions: INSTRUCTIONS,
  model: scenario('refund.ts'),
  tools: [lookupOrder, refundOrder],
  limits: { maxTurns: 6 },
  allow: { limits: { maxTurns: 10 } },
});

let h: Harness;
before(async () => {
  // The worker is given the agent alone (and the built-in tools): the agent brings its own tools.
  h = await startHarness('agents', { tools: (ledger) => builtinTools(ledger), agents: [support], modelProxy: true });
});
after(() => h.replayAndClose());

/** `promise`, or a rejection after `ms`. */
const within = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still running after ${ms} ms`)), ms).unref())]);

const requestsFor = (goal: string) => h.model.exchanges.filter((x) => x.body.messages[1]?.content === goal);

test('a run naming an agent gets its instructions, model, tools and limits; its high-risk tool waits for a human', async () => {
  const goal = 'Refund order A1, please.';
  const before = refundsIn(h.workspace).length;
  const { runId } = await h.agents.startRun({ agent: 'support', goal, workspace: h.workspace, limits: { maxTurns: 8 } });
  const state = await h.waitForState(runId, (s) => s.pending?.kind === 'approval', 'the refund to wait for approval');
  assert.ok(state.pending?.kind === 'approval' && state.pending.toolName === 'refund_order');
  assert.equal(state.model, scenario('refund.ts'), "the agent's model");
  await h.agents.approve(runId, { callKey: state.pending.callKey, argsHash: state.pending.argsHash });
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'completed', result.error ?? '');
  assert.equal(refundsIn(h.workspace).length, before + 1);
  const served = await h.agents.getState(runId);
  const offers = await h.store.listWorkerOffers();
  assert.ok(served.offerDigest && offers.some((o) => o.digest === served.offerDigest), `the run records the digest of what its worker offered (${served.offerDigest ?? 'none'})`);
  const first = requestsFor(goal)[0]!;
  assert.equal(first.body.messages[0]?.content, INSTRUCTIONS, "the agent's instructions are the system prompt");
  assert.deepEqual(first.body.tools?.map((t) => t.function.name), ['lookup_order', 'refund_order'], "the agent's tools, and only those");
  const input = (await h.temporal.workflow.getHandle(runId).describe()).memo as { limits?: { maxTurns?: number } } | undefined;
  assert.equal(input?.limits?.maxTurns, 8, 'the run set what the agent allows');
});

test('a run may not go beyond what the agent allows: each refusal says what is allowed, and the model is never asked', async () => {
  const refusals: [Record<string, unknown>, RegExp][] = [
    [{ limits: { maxTurns: 50 } }, /Agent "support" allows limits\.maxTurns up to 10; the run asked for 50\./],
    [{ limits: { maxBudgetUsd: 5 } }, /Agent "support" does not let a run set limits\.maxBudgetUsd; it allows limits\.maxTurns\./],
    [{ system: 'Refund everything.' }, /The run input sets `system`, which agent "support" decides: leave it out\./],
    [{ tools: ['delete_file'] }, /The run input sets `tools`, which agent "support" decides/],
    [{ model: 'gpt-4.1' }, /does not let a run pick another \(`model` "gpt-4\.1"\)/],
  ];
  for (const [extra, message] of refusals) {
    const goal = `Refund order A1 (${JSON.stringify(extra)}).`;
    const { runId } = await h.agents.startRun({ agent: 'support', goal, workspace: h.workspace, ...extra });
    // Refused at the run's first step: a run that started instead would wait for the refund's approval.
    await assert.rejects(within(h.agents.result(runId), 20_000), (error: Error) => message.test(`${error.message} ${(error.cause as Error | undefined)?.message ?? ''}`), JSON.stringify(extra));
    assert.equal(requestsFor(goal).length, 0);
  }
});

test('an agent no worker offers is refused, naming the agents there are', async () => {
  const { runId } = await h.agents.startRun({ agent: 'billing', goal: 'Send the invoices.', workspace: h.workspace });
  await assert.rejects(h.agents.result(runId), (error: Error) => /Unknown agent "billing": no worker on this task queue offers it\. Agents there are: support\./.test(`${error.message} ${(error.cause as Error | undefined)?.message ?? ''}`));
});

test('an agent run that continues-as-new keeps the agent it started with', async () => {
  const goal = 'Refund order A1 (across executions).';
  const { runId } = await h.agents.startRun({ agent: 'support', goal, workspace: h.workspace, continueAsNewEveryTurns: 1 });
  const state = await h.waitForState(runId, (s) => s.pending?.kind === 'approval', 'the refund to wait for approval');
  assert.ok(state.pending?.kind === 'approval');
  await h.agents.approve(runId, { callKey: state.pending.callKey, argsHash: state.pending.argsHash });
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'completed', result.error ?? '');
  for (const request of requestsFor(goal)) assert.equal(request.body.messages[0]?.content, INSTRUCTIONS);
  assert.equal(requestsFor(goal).length, 3);
});
