/**
 * Worker Versioning on the dev server, two builds of one deployment on one task queue whose loops differ
 * observably (v2 marks the summary of every activity it schedules: `fixtures/workflow-changes/v2-summaries.ts`,
 * a replay-compatible change): a run waiting for approval on v1 stays on v1 after v2 becomes current and
 * completes there with v1's behaviour; new runs go to v2 and show v2's; `upgrade`
 * moves a waiting run that replays on this build to v2, and refuses one that would not (replayed with a
 * deliberately incompatible bundle), which then finishes on v1.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { Client, Connection } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { AgentClient } from '../src/client/client.ts';
import { runBuild, setCurrentBuild } from '../src/client/run-build.ts';
import { RunUpgradeRefusedError, upgradeRun } from '../src/client/upgrade.ts';
import { PROJECT_ROOT } from '../src/paths.ts';
import { createAgentWorker, type AgentWorker } from '../src/worker/worker.ts';
import { workflowBundle } from '../src/worker/workflow-bundle.ts';
import { eventually } from './helpers/eventually.ts';
import { startHarness, type Harness } from './helpers/harness.ts';
import { activities, payloadJson, type History } from './helpers/histories.ts';
import { V2_MARK } from './fixtures/workflow-changes/v2-summaries.ts';

/** v2's deliberate difference from v1: every activity it schedules has ` · v2` after its summary. */
const V2_CHANGE = path.join(PROJECT_ROOT, 'test', 'fixtures', 'workflow-changes', 'v2-summaries.ts');

let h: Harness;
let agents: AgentClient;
const workers: { worker: AgentWorker; running: Promise<void> }[] = [];
const deploymentName = `agents-${Date.now().toString(36)}`;
const v1 = { deploymentName, buildId: 'v1' };
const v2 = { deploymentName, buildId: 'v2' };
let taskQueue: string;
let connection: Connection;

async function startVersionedWorker(buildId: string, workflowInterceptorModules: string[] = []): Promise<void> {
  const worker = await createAgentWorker({
    ...h.workerBase(),
    taskQueue,
    scriptedModel: { baseUrl: h.scripted.baseUrl },
    rollingDeploy: true,
    deployment: { name: deploymentName, buildId },
    workflowInterceptorModules,
  });
  workers.push({ worker, running: worker.run() });
}

/** Makes the build current once its worker has registered it with the server. */
const makeCurrent = (version: typeof v1) =>
  eventually(async () => {
    try {
      await setCurrentBuild(agents, version);
      return true;
    } catch {
      return undefined;
    }
  }, `build ${version.buildId} to become current`);

/** The builds that completed the run's workflow tasks, in order, deduplicated. */
function buildsOf(history: History): string[] {
  const builds = (history.events ?? []).map((e) => e.workflowTaskCompletedEventAttributes?.deploymentVersion?.buildId).filter((b): b is string => !!b);
  return builds.filter((b, i) => b !== builds[i - 1]);
}

/** For each activity of the run, in order: its type, and whether v2 scheduled it (its summary carries v2's mark). */
function activityBuilds(history: History): string[] {
  return activities(history).map((a) => {
    const summary = payloadJson(a.scheduled.userMetadata?.summary) as string | undefined;
    return `${a.type}:${summary?.endsWith(V2_MARK) ? 'v2' : 'v1'}`;
  });
}

async function waitingRun(): Promise<{ runId: string; callKey: string; argsHash: string }> {
  const { runId } = await agents.startRun({ goal: 'Free some disk space.', model: 'scripted:delete-approval', workspace: h.workspace });
  const state = await eventually(async () => {
    const s = await agents.getState(runId);
    return s.pending?.kind === 'approval' ? s.pending : undefined;
  }, 'the approval request');
  return { runId, callKey: state.callKey, argsHash: state.argsHash };
}

before(async () => {
  h = await startHarness('versioning');
  taskQueue = `${h.taskQueue}-versioned`;
  // A client of its own connection: one sharing the workers' would start runs eagerly on a worker in this process, whatever its build.
  connection = await Connection.connect({ address: h.address });
  agents = new AgentClient(new Client({ connection }), { taskQueue, workspaceRoots: [h.dataDir], store: h.store });
});
after(async () => {
  for (const { worker, running } of workers) {
    worker.shutdown();
    await running;
  }
  await connection.close();
  await h.close();
});

test('pinned runs finish on their build; new runs go to the current one; upgrade replays first', { timeout: 300_000 }, async () => {
  await startVersionedWorker('v1');
  await makeCurrent(v1);
  const stays = await waitingRun();
  const moves = await waitingRun();
  const refused = await waitingRun();
  assert.deepEqual((await runBuild(agents, stays.runId)).version, v1);
  assert.equal((await runBuild(agents, stays.runId)).behavior, 'pinned');

  await startVersionedWorker('v2', [V2_CHANGE]);
  await makeCurrent(v2);
  const fresh = await agents.startRun({ goal: 'Which log file mentions a timeout?', model: 'scripted:plan', workspace: h.workspace });
  assert.equal((await agents.result(fresh.runId)).status, 'completed');
  const freshHistory = await h.temporal.workflow.getHandle(fresh.runId).fetchHistory();
  assert.deepEqual(buildsOf(freshHistory), ['v2'], 'a new run goes to the current build');
  assert.deepEqual(activityBuilds(freshHistory), ['callModel:v2', 'callModel:v2', 'callModel:v2'], 'and shows its behaviour: every activity marked by v2');

  // Upgrade: replays on this build's code, then pins the run to v2.
  const moved = await upgradeRun(agents, moves.runId, v2);
  assert.deepEqual(moved.pinnedTo, v2);
  // A deliberately incompatible build (a timer before every tool call) does not replay the run: refused, untouched.
  const incompatible = await workflowBundle({ interceptorModules: [path.join(PROJECT_ROOT, 'test', 'fixtures', 'workflow-changes', 'timer-before-tools.ts')] });
  await assert.rejects(upgradeRun(agents, refused.runId, v2, { workflowBundle: incompatible }), (e: Error) => e instanceof RunUpgradeRefusedError && /does not replay on build v2/.test(e.message) && /Nondeterminism|nondetermin/i.test(e.message));
  assert.equal((await runBuild(agents, refused.runId)).pinnedTo, null);

  for (const run of [stays, moves, refused]) {
    await agents.approve(run.runId, { callKey: run.callKey, argsHash: run.argsHash });
    assert.equal((await agents.result(run.runId)).status, 'completed');
  }
  const builds = async (runId: string) => buildsOf(await h.temporal.workflow.getHandle(runId).fetchHistory());
  assert.deepEqual(await builds(stays.runId), ['v1'], 'the waiting run stayed on v1 and completed there');
  assert.deepEqual(await builds(refused.runId), ['v1'], 'the refused run finished on v1');
  assert.deepEqual(await builds(moves.runId), ['v1', 'v2'], 'the upgraded run went on on v2');
  // What each build did shows in the runs: v1's behaviour to the end on the pinned run, v2's after the upgrade.
  const behaviour = async (runId: string) => activityBuilds(await h.temporal.workflow.getHandle(runId).fetchHistory());
  assert.deepEqual(await behaviour(stays.runId), ['callModel:v1', 'callModel:v1', 'runTool:v1', 'callModel:v1'], 'the pinned run behaved as v1 throughout');
  assert.deepEqual(await behaviour(refused.runId), ['callModel:v1', 'callModel:v1', 'runTool:v1', 'callModel:v1']);
  assert.deepEqual(await behaviour(moves.runId), ['callModel:v1', 'callModel:v1', 'runTool:v2', 'callModel:v2'], 'the upgraded run behaved as v2 from its upgrade');

  // Visibility finds a build's runs (the saved view docs/operators.md names).
  await eventually(async () => {
    const found: string[] = [];
    for await (const info of agents.temporal.workflow.list({ query: `TemporalWorkerDeploymentVersion="${deploymentName}:v1"` })) found.push(info.workflowId);
    return found.includes(stays.runId) && !found.includes(fresh.runId) ? true : undefined;
  }, 'the v1 runs listed by TemporalWorkerDeploymentVersion');

  // Every history, of both builds, replays on this code (both builds run it).
  const replays = Worker.runReplayHistories(
    { workflowBundle: await workflowBundle(), sinks: { trace: { emit: { fn: () => {}, callDuringReplay: false } } } },
    await Promise.all([stays, moves, refused, fresh].map(async ({ runId }) => ({ workflowId: runId, history: await h.temporal.workflow.getHandle(runId).fetchHistory() }))),
  );
  let replayed = 0;
  for await (const result of replays) {
    assert.equal(result.error, undefined, `${result.workflowId}: ${result.error?.message}`);
    replayed++;
  }
  assert.equal(replayed, 4);

  // The CLI shows a run's build.
  const { stdout } = await promisify(execFile)(path.join(PROJECT_ROOT, 'node_modules', '.bin', 'node'), [path.join(PROJECT_ROOT, 'src', 'cli', 'cli.ts'), 'build', stays.runId], {
    env: { ...process.env, TEMPORAL_ADDRESS: h.address, AGENT_TASK_QUEUE: taskQueue, AGENT_DATA_DIR: h.dataDir },
  });
  assert.match(stdout, new RegExp(`build ${deploymentName} v1 \\(pinned\\)`));
});
