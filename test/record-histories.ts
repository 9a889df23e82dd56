/**
 * Records the histories of a set of runs as replay fixtures: `node test/record-histories.ts <label>`
 * writes test/fixtures/histories/<label>/<name>[.e<n>|.child…]@<workflowId>.binpb (History protobufs):
 * every execution of every run — each step of a run that continued-as-new, each research child — found
 * through the task queue's executions. Fixtures from earlier versions stay in the repo, and
 * test/replay.test.ts replays every one against the current workflow code, so an incompatible change
 * fails CI. Record a new label whenever the workflow changes (see the README's upgrade procedure).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import proto from '@temporalio/proto';
import { PROJECT_ROOT } from '../src/paths.ts';
import { agentChildRunId } from '../src/wire/run-ids.ts';
import { eventually } from './helpers/eventually.ts';
import { scenario, startHarness } from './helpers/harness.ts';
import { collectHistories, executionsOf, type ExecutionHistory } from './helpers/histories.ts';
import { spawnWorker } from './helpers/worker-process.ts';
import { builtinTools } from '../src/tools/registry.ts';
import { lookupOrder, refundOrder } from './helpers/order-tools.ts';
import { TEAM } from './helpers/team-agents.ts';
import type { RunInput } from '../src/wire/run-input.ts';

const label = process.argv[2];
if (!label) throw new Error('usage: node test/record-histories.ts <label>');
const dir = path.join(PROJECT_ROOT, 'test', 'fixtures', 'histories', label);
mkdirSync(dir, { recursive: true });

// The worker has a team's own tools and agents too (runs that name none of them record as before).
const h = await startHarness('record', { tools: (ledger) => [...builtinTools(ledger), lookupOrder, refundOrder], agents: TEAM });
const goal = 'Which log file mentions a timeout?';
const recorded: Record<string, string> = {};
const NO_REPETITION_STOPS = { maxRepeatedCalls: 0, maxStaleTurns: 0 };
try {
  const run = async (name: string, input: Parameters<typeof h.run>[0]) => (recorded[name] = (await h.run(input)).runId);
  await run('plan', { goal, model: 'scripted:plan' });
  await run('recover', { goal, model: 'scripted:recover' });
  await run('read-twice', { goal, model: 'scripted:read-twice' });
  await run('parallel', { goal, model: 'scripted:parallel' });
  await run('budget', { goal, model: 'scripted:runaway', limits: { maxBudgetUsd: 0.004 } });
  await run('no-progress', { goal, model: 'scripted:runaway' });
  await run('wall-time', { goal, model: scenario('slow.ts'), limits: { maxWallMs: 500 } });
  await run('max-tool-calls', { goal, model: 'scripted:many-writes', limits: { maxToolCalls: 3 }, policy: { mediumQuota: 100 } });
  // Continue-as-new: every execution of the run is recorded, not only the last.
  await run('continue-as-new', { goal, model: 'scripted:runaway', limits: { maxTurns: 6, ...NO_REPETITION_STOPS }, continueAsNewEveryTurns: 2 });
  // Research children: the child's own history is recorded next to its parent's.
  await run('research', { goal, model: 'scripted:research' });
  await run('research-runaway', { goal, model: scenario('research-runaway-child.ts'), research: { maxTurns: 3 } });
  await run('research-budget', { goal, model: scenario('research-runaway-child.ts'), limits: { maxBudgetUsd: 0.004 } });
  // A parallel stop: one call of a reply stops the run while its sibling (a scan) runs; the sibling finishes first.
  await run('parallel-stop', { goal, model: scenario('parallel-stop.ts'), limits: { maxToolCalls: 1 } });
  // Compaction (docs/context.md): over the run's budget (elisions and summaries), and on the provider's refusal.
  mkdirSync(path.join(h.workspace, 'notes'), { recursive: true });
  for (let i = 0; i < 20; i++) writeFileSync(path.join(h.workspace, 'notes', `n${i}.txt`), `first line of n${i}\n${'notes '.repeat(700)}`.slice(0, 4096));
  const long = { maxTurns: 40, maxBudgetUsd: 10, ...NO_REPETITION_STOPS };
  await run('compaction-budget', { goal: 'Read 20 files.', model: scenario('long-reads.ts'), tools: ['read_file'], limits: { ...long, contextTokens: 8000 } });
  await run('compaction-provider', { goal: 'Read 12 files.', model: scenario('long-reads.ts'), tools: ['read_file'], limits: long, continueAsNewEveryTurns: 5 });

  const asking = await h.agents.startRun({ goal, model: 'scripted:ask-user', workspace: h.workspace });
  await h.waitForState(asking.runId, (s) => s.status === 'waiting_input', 'question');
  await h.agents.answer(asking.runId, 'notes.txt');
  await h.agents.result(asking.runId);
  recorded['ask-user'] = asking.runId;

  for (const [name, decide, continueAsNewEveryTurns] of [
    ['delete-approved', 'approve', undefined],
    ['delete-rejected', 'reject', undefined],
    ['delete-approved-can', 'approve', 1],
  ] as const) {
    const { runId } = await h.agents.startRun({ goal, model: 'scripted:delete-approval', workspace: h.workspace, ...(continueAsNewEveryTurns ? { continueAsNewEveryTurns } : {}) });
    await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'approval');
    if (decide === 'approve') await h.agents.approve(runId);
    else await h.agents.reject(runId, { reason: 'keep it' });
    await h.agents.result(runId);
    recorded[name] = runId;
  }

  // The claim judge after a final answer that claims a rejected deletion (docs/claims.md).
  const judged = await h.agents.startRun({ goal: 'Free some disk space.', model: scenario('claim-judge.ts'), workspace: h.workspace, policy: { claimJudge: true } });
  await h.waitForState(judged.runId, (s) => s.status === 'waiting_approval', 'approval');
  await h.agents.reject(judged.runId);
  await h.agents.result(judged.runId);
  recorded['claim-judge'] = judged.runId;

  const cancelled = await h.agents.startRun({ goal, model: scenario('slow.ts'), workspace: h.workspace });
  await eventually(() => h.scripted.requests.some((r) => r.scenario.endsWith('slow.ts') && r.messages[1]?.content === goal && !r.aborted && r.ms === 0), 'slow model call');
  await h.agents.cancelRun(cancelled.runId, 'user pressed Stop');
  await h.agents.result(cancelled.runId);
  recorded.cancelled = cancelled.runId;

  const research = await h.agents.startRun({ goal, model: scenario('research-slow-child.ts'), workspace: h.workspace });
  await h.waitForState(research.runId, (s) => s.children.length === 1, 'the research child');
  await h.agents.cancelRun(research.runId, 'user pressed Stop');
  await h.agents.result(research.runId);
  recorded['cancel-research'] = research.runId;

  // A team's own tools and agents: each run waits for a person, who approves (or the run is cancelled).
  const refund = 'A customer wants order A1 refunded.';
  const approveOnce = async (name: string, input: Omit<RunInput, 'workspace'>, waiter?: (runId: string) => string, cancel = false) => {
    const { runId } = await h.agents.startRun({ ...input, workspace: h.workspace });
    const waiting = waiter?.(runId) ?? runId;
    const state = await eventually(async () => {
      const s = await h.agents.getState(waiting).catch(() => null);
      return s?.pending?.kind === 'approval' ? s : undefined;
    }, `${name} to wait for approval`);
    if (cancel) await h.agents.cancelRun(runId, 'the customer changed their mind');
    else await h.agents.approve(waiting, { callKey: state.pending!.callKey, argsHash: (state.pending as { argsHash: string }).argsHash });
    await h.agents.result(runId);
    recorded[name] = runId;
  };
  await approveOnce('user-tools', { goal: refund, model: scenario('refund.ts'), tools: ['lookup_order', 'refund_order'] });
  await approveOnce('agent', { agent: 'support', goal: refund });
  await approveOnce('agent-as-tool', { agent: 'triage', goal: refund }, (runId) => agentChildRunId(runId, 't1.1'));
  await approveOnce('agent-as-tool-cancelled', { agent: 'triage', goal: refund }, (runId) => agentChildRunId(runId, 't1.1'), true);
  await approveOnce('handoff-and-back', { agent: 'front', goal: 'How much did I pay for order A1?' });

  // A crash retry: the worker process is killed while a tool runs; another worker retries the tool.
  await h.stopWorker();
  const doomed = await spawnWorker(h);
  const crash = await h.agents.startRun({ goal, model: 'scripted:slow-scan', workspace: h.workspace });
  await h.waitForState(crash.runId, (s) => /^scanned \d+ of/.test(s.progress ?? ''), 'the scan to be under way');
  await doomed.kill();
  // The killed worker (built-in tools only) stays published until its offer ages out: this is a rolling deploy.
  process.env.AGENT_ROLLING_DEPLOY = '1';
  await h.startWorker();
  await h.agents.result(crash.runId);
  recorded['crash-retry'] = crash.runId;

  const all = await collectHistories(h.temporal, h.taskQueue, Object.values(recorded));
  const names = new Map(Object.entries(recorded).map(([name, runId]) => [runId, name]));
  let written = 0;
  for (const workflowId of new Set(all.map((e) => e.workflowId))) {
    const chain = executionsOf(all, workflowId);
    const first = chain[0]!;
    const name = nameOf(first, names);
    chain.forEach((execution, i) => {
      const file = `${name}${chain.length > 1 ? `.e${i + 1}` : ''}@${workflowId}.binpb`;
      writeFileSync(path.join(dir, file), proto.temporal.api.history.v1.History.encode(execution.history).finish());
      written++;
    });
  }
  if (written !== all.length) throw new Error(`wrote ${written} of ${all.length} histories`);
  console.log(`recorded ${written} histories of ${Object.keys(recorded).length} runs in ${path.relative(PROJECT_ROOT, dir)}`);
} finally {
  await h.close();
}

/** A run's name as recorded above; a child is named after its parent. */
function nameOf(execution: ExecutionHistory, names: ReadonlyMap<string, string>): string {
  const own = names.get(execution.workflowId);
  if (own) return own;
  const parent = execution.parentWorkflowId && names.get(execution.parentWorkflowId);
  if (parent) return `${parent}.child`;
  throw new Error(`an execution no recorded run explains: ${execution.workflowId}`);
}
