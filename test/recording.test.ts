/**
 * Record a run, replay it with no model: same trajectory and receipt; a changed tool result stops a strict
 * replay at the turn it reached the model; a dry run deletes nothing; a tighter policy shows the approval
 * it would have asked for; continue-as-new and research children are recorded and replayed; the
 * eval/recorded suite passes.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AgentClient } from '../src/client/client.ts';
import { runEval } from '../src/cli/eval/run-eval.ts';
import { loadTaskFile, type EvalTask } from '../src/cli/eval/task-file.ts';
import { PROJECT_ROOT } from '../src/paths.ts';
import { replayDiverged } from '../src/recording/commands.ts';
import { recordRun } from '../src/recording/record.ts';
import { replayRecording, type ReplayOptions } from '../src/recording/replay.ts';
import { renderReplayReport } from '../src/recording/report.ts';
import { loadRecording, parseRecording, type Recording } from '../src/recording/schema.ts';
import { createAgentWorker, type AgentWorker } from '../src/worker/worker.ts';
import { workflowBundle } from '../src/worker/workflow-bundle.ts';
import { Worker } from '@temporalio/worker';
import { scenario, startHarness, type Harness } from './helpers/harness.ts';

let h: Harness;
/** A worker whose in-process scripted model may read the recordings this file writes (and eval/recorded). */
let replayWorker: AgentWorker;
let replayRunning: Promise<void>;
let replayAgents: AgentClient;
let recordings: string;
let workspaces = 0;
/** Run ids of every run this file started (their histories are replayed at the end). */
const started: string[] = [];

before(async () => {
  h = await startHarness('recording');
  recordings = path.join(h.dataDir, 'recordings');
  mkdirSync(recordings, { recursive: true });
  const taskQueue = `${h.taskQueue}-replay`;
  replayWorker = await createAgentWorker({
    ...h.workerBase(),
    taskQueue,
    scriptedModel: { scenarioDirs: [], recordingDirs: [recordings, path.join(PROJECT_ROOT, 'eval', 'recorded')] },
  });
  replayRunning = replayWorker.run();
  replayAgents = new AgentClient(h.temporal, { taskQueue, workspaceRoots: [h.dataDir] });
});
after(async () => {
  replayWorker.shutdown();
  await replayRunning;
  // Every run this file made — recorded and replayed — replays against the workflow code.
  const histories = await Promise.all(started.map(async (workflowId) => ({ workflowId, history: await h.temporal.workflow.getHandle(workflowId).fetchHistory() })));
  const replays = Worker.runReplayHistories({ workflowBundle: await workflowBundle(), sinks: { trace: { emit: { fn: () => {}, callDuringReplay: false } } } }, histories);
  for await (const result of replays) if (result.error) throw new Error(`Replay of ${result.workflowId} failed: ${result.error.message}`);
  await h.close();
});

/** A fresh copy of the example workspace. */
function freshWorkspace(): string {
  const dir = path.join(h.dataDir, `replay-${++workspaces}`);
  cpSync(path.join(PROJECT_ROOT, 'examples', 'workspace'), dir, { recursive: true });
  return dir;
}

/** Records a finished run to a file (through JSON, as the CLI writes it) and reads it back. */
async function record(runId: string, name: string): Promise<{ file: string; recording: Recording }> {
  const file = path.join(recordings, `${name}.json`);
  writeFileSync(file, JSON.stringify(await recordRun({ agents: h.agents, store: h.store }, runId), null, 2));
  return { file, recording: loadRecording(file) };
}

async function replay(recorded: { file: string; recording: Recording }, options: Partial<ReplayOptions> = {}) {
  const outcome = await replayRecording({ agents: replayAgents, store: h.store }, recorded.recording, { file: recorded.file, workspace: freshWorkspace(), pollMs: 20, ...options });
  started.push(outcome.runId);
  return outcome;
}

/** Starts a run in the harness, answers its approvals and questions as given, and waits for the end. */
async function runWith(input: Parameters<AgentClient['startRun']>[0], decisions: ({ approve: true } | { reject: string } | { answer: string })[] = []): Promise<string> {
  const { runId } = await h.agents.startRun(input);
  started.push(runId);
  for (const decision of decisions) {
    const state = await h.waitForState(runId, (s) => s.pending !== null, 'a pending decision');
    const pending = state.pending!;
    if ('answer' in decision) await h.agents.answer(runId, decision.answer);
    else if (pending.kind !== 'approval') throw new Error(`expected an approval, the run asks ${JSON.stringify(pending)}`);
    else if ('approve' in decision) await h.agents.approve(runId, { callKey: pending.callKey, argsHash: pending.argsHash, by: 'tester' });
    else await h.agents.reject(runId, { callKey: pending.callKey, reason: decision.reject, by: 'tester' });
  }
  await h.agents.result(runId);
  return runId;
}

describe('record → replay', () => {
  const cases: { name: string; input: { goal: string; model: string; tools?: string[] }; decisions?: Parameters<typeof runWith>[1] }[] = [
    { name: 'plan', input: { goal: 'Which log file mentions a timeout?', model: 'scripted:plan', tools: ['list_files', 'read_file'] } },
    { name: 'delete-approved', input: { goal: 'Free some disk space.', model: 'scripted:delete-approval' }, decisions: [{ approve: true }] },
    { name: 'delete-rejected', input: { goal: 'Free some disk space.', model: 'scripted:delete-approval' }, decisions: [{ reject: 'access.log is needed for the audit' }] },
    { name: 'ask-user', input: { goal: 'Read the file I pick.', model: 'scripted:ask-user' }, decisions: [{ answer: 'notes.txt' }] },
  ];
  for (const c of cases) {
    test(`${c.name}: the replay has the same trajectory, receipt and conversation`, async () => {
      const runId = await runWith({ ...c.input, workspace: freshWorkspace() }, c.decisions);
      const recorded = await record(runId, c.name);
      const original = await h.agents.result(runId);
      assert.equal(recorded.recording.result?.status, original.status);
      assert.deepEqual(recorded.recording.gaps, []);
      assert.equal(recorded.recording.decisions.length, c.decisions?.length ?? 0);

      const { result, report, replay: replayed } = await replay(recorded);
      assert.ok(report.same, renderReplayReport(report));
      assert.equal(result.status, original.status);
      assert.equal(result.output, original.output);
      assert.deepEqual(result.receipt, original.receipt);
      assert.equal(result.turns, original.turns);
      assert.equal(result.toolRuns, original.toolRuns);
      assert.equal(result.totalCostUsd, original.totalCostUsd, 'the recorded usage is replayed, so the cost is the same');
      assert.deepEqual(replayed.decisions.map((d) => ({ ...d, by: undefined })), recorded.recording.decisions.map((d) => ({ ...d, by: undefined })));
    });
  }
});

test('strict replay stops at the turn a changed tool result reaches the model, and says what changed; lenient goes on and reports it', async (t) => {
  const runId = await runWith({ goal: 'Which log file mentions a timeout?', model: 'scripted:plan', tools: ['list_files', 'read_file'], workspace: freshWorkspace() });
  const recorded = await record(runId, 'plan-changed');
  const changed = freshWorkspace();
  // Same size (list_files shows sizes), other text: the change reaches the model with read_file's result.
  const errors = path.join(changed, 'errors.log');
  writeFileSync(errors, readFileSync(errors, 'utf8').replace('30000 ms', '45000 ms'));

  const strict = await replay(recorded, { workspace: changed });
  t.diagnostic(renderReplayReport(strict.report));
  assert.equal(strict.result.status, 'failed');
  assert.match(strict.result.error ?? '', /turn 3: tool result of read_file \(t2\.1\) differs: recorded ".*30000 ms.*", replay ".*45000 ms/);
  assert.equal(strict.result.turns, 2, 'the model was not asked for turn 3');
  assert.ok(!strict.report.same);
  assert.match(renderReplayReport(strict.report), /would have ended failed \(model_error\) instead of completed/);
  assert.match(strict.report.divergences[0] ?? '', /^turn 3: tool result of read_file \(t2\.1\) differs/);

  const lenient = await replay(recorded, { workspace: changed, mode: 'lenient' });
  assert.equal(lenient.result.status, 'completed');
  assert.equal(lenient.result.output, (await h.agents.result(runId)).output, 'the recorded replies go on');
  assert.ok(lenient.report.divergences.some((d) => /^turn 3: tool result of read_file \(t2\.1\) differs/.test(d)), lenient.report.divergences.join('\n'));
});

test('`npm run agent -- replay` exits 1 when a strict replay diverged, 0 when it did not or was lenient (CI can trust it)', async () => {
  const runId = await runWith({ goal: 'Which log file mentions a timeout?', model: 'scripted:plan', tools: ['list_files', 'read_file'], workspace: freshWorkspace() });
  const { file } = await record(runId, 'plan-cli');
  const changed = freshWorkspace();
  const errors = path.join(changed, 'errors.log');
  writeFileSync(errors, readFileSync(errors, 'utf8').replace('30000 ms', '45000 ms'));

  const [same, strict, lenient] = await Promise.all([replayCli(file), replayCli(file, '--workspace', changed), replayCli(file, '--workspace', changed, '--lenient')]);
  assert.equal(same.code, 0, same.stderr);
  assert.match(same.stdout, /same trajectory, receipt and conversation as recorded/);
  assert.equal(strict.code, 1, strict.stdout + strict.stderr);
  assert.match(strict.stdout, /divergence: turn 3: tool result of read_file \(t2\.1\) differs/);
  assert.match(strict.stderr, /the strict replay diverged from the recording/);
  assert.equal(lenient.code, 0, lenient.stderr);
  assert.match(lenient.stdout, /divergence: turn 3: tool result of read_file \(t2\.1\) differs/, 'the same report, without failing');
});

/** `npm run agent -- replay <file> …` as a child process, with a worker of its own (its own task queue and store). */
async function replayCli(file: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const dataDir = mkdtempSync(path.join(h.dataDir, 'replay-cli-'));
  const { AGENT_SCRIPTED_MODEL_URL: _served, AGENT_STORE_URL: _store, ...env } = process.env;
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'src', 'cli', 'cli.ts'), 'replay', file, ...args], {
    env: { ...env, TEMPORAL_ADDRESS: h.address, AGENT_TASK_QUEUE: `${h.taskQueue}-cli-${path.basename(dataDir)}`, AGENT_DATA_DIR: dataDir, AGENT_WORKSPACE_ROOTS: h.dataDir, TEMPORAL_LOG_LEVEL: 'ERROR' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

test('a dry-run replay of a run that deleted a file deletes nothing and sends nothing', async () => {
  const runId = await runWith({ goal: 'Free some disk space.', model: 'scripted:delete-approval', workspace: freshWorkspace() }, [{ approve: true }]);
  assert.deepEqual((await h.agents.result(runId)).receipt.map((e) => `${e.outcome} ${e.tool} ${Object.values(e.args).join(' ')}`), ['done delete_file access.log']);
  const recorded = await record(runId, 'delete-dry-run');

  const workspace = freshWorkspace();
  const { runId: replayId, result, report } = await replay(recorded, { workspace });
  assert.equal(result.status, 'completed');
  assert.deepEqual(result.receipt, recorded.recording.result?.receipt, 'the replay reports what the recording did…');
  assert.ok(existsSync(path.join(workspace, 'access.log')), '…and access.log is still there');
  assert.deepEqual(report.context.notRun, ['delete_file t2.1']);
  const log = readFileSync(path.join(h.dataDir, 'tool-runs.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { runId: string; tool: string });
  assert.deepEqual(log.filter((l) => l.runId === replayId).map((l) => l.tool), ['list_files'], 'only the read-only tool ran');
  assert.equal((await h.store.lookupEffect(`${replayId}:t2.1`)) ?? null, null, 'no ledger entry: the delete never started');
});

test('what-if: with mediumQuota 2 the third write would have waited for approval', async (t) => {
  const runId = await runWith({ goal: 'Write three drafts.', model: scenario('three-writes.ts'), workspace: freshWorkspace() });
  const recorded = await record(runId, 'three-writes');
  assert.equal(recorded.recording.trace.filter((l) => l.type === 'approval_required').length, 0);

  const { report, result } = await replay(recorded, { policy: { mediumQuota: 2 } });
  const text = renderReplayReport(report);
  t.diagnostic(text);
  assert.equal(result.status, 'completed');
  assert.equal(report.replay.approvalsAsked, 1);
  assert.deepEqual(report.context.extraDecisions.map((e) => [e.tool, e.callKey, e.answered]), [['write_file', 't3.1', 'approved']]);
  assert.ok(report.changes.some((c) => c.startsWith("with mediumQuota 2, write_file #3 (t3.1) would have waited for approval (the run's quota of 2 medium-risk tool runs is used up)")), text);
  assert.deepEqual(report.divergences, [], 'approved as the recording ran it: the conversation is the same');
  assert.equal(replayDiverged(report, false), false, "a what-if's changes are its answer: `replay` exits 0");
  assert.match(text, /approvals asked\s+0\s+1/);

  const rejecting = await replay(recorded, { policy: { mediumQuota: 2 }, extraApprovals: 'reject', mode: 'lenient' });
  assert.ok(rejecting.report.changes.some((c) => /write_file #3 \(t3\.1\) would not have run/.test(c)), renderReplayReport(rejecting.report));
  assert.ok(rejecting.report.divergences.some((d) => /^turn 4: tool result of write_file \(t3\.1\) differs/.test(d)));
  assert.equal(replayDiverged(rejecting.report, false), true, 'a what-if whose conversation left the recording fails a strict replay');
});

test('a run that continued-as-new and had a research child: both recorded, nested, and replayed the same', async () => {
  const runId = await runWith({ goal: 'Find the timeout.', model: 'scripted:research', workspace: freshWorkspace(), continueAsNewEveryTurns: 1 });
  const recorded = await record(runId, 'research-can');
  const r = recorded.recording;
  assert.ok(r.executions.length >= 2, `executions: ${r.executions.length}`);
  assert.deepEqual(r.turns.map((t) => t.execution), [0, 1]);
  assert.equal(r.children.length, 1);
  const child = r.children[0]!;
  assert.equal(child.callKey, 't1.1');
  assert.equal(child.recording.runId, `${runId}:research:t1.1`);
  assert.equal(child.recording.turns.length, 2);
  assert.deepEqual(child.recording.toolResults.map((t) => [t.callKey, t.toolName, t.ok]), [['t1.1', 'read_file', true]]);
  assert.equal(r.toolResults.find((t) => t.toolName === 'research')?.content, 'errors.log: worker 7 timed out after 30000 ms.');

  const { report, replay: replayed } = await replay(recorded);
  assert.ok(report.same, renderReplayReport(report));
  assert.ok(replayed.executions.length >= 2, 'the replay continued-as-new too');
  assert.equal(replayed.children.length, 1);

  // Hermetic: every tool result from the recording, the child's read too.
  const empty = path.join(h.dataDir, 'empty');
  mkdirSync(empty, { recursive: true });
  const hermetic = await replay(recorded, { tools: 'recorded', workspace: empty });
  assert.equal(hermetic.result.status, 'completed');
  assert.deepEqual(hermetic.report.divergences, []);
});

test('a recording is data: a production worker refuses it, a bad file or directory is a clear error', async () => {
  const runId = await runWith({ goal: 'Which log file mentions a timeout?', model: 'scripted:plan', workspace: freshWorkspace() });
  const recorded = await record(runId, 'plan-refusals');
  assert.throws(() => parseRecording('{"format":"agent-run-recording","version":9}', 'x.json'), /version 9; this code reads version 1/);
  assert.throws(() => parseRecording('module.exports = 1', 'x.json'), /not JSON/);
  // The harness's scripted model server may read test/scenarios only, not this file's recordings.
  const { runId: refused } = await h.agents.startRun({ goal: 'x', model: `recorded:${recorded.file}`, workspace: freshWorkspace() });
  started.push(refused);
  const result = await h.agents.result(refused);
  assert.equal(result.status, 'failed');
  assert.match(result.error ?? '', /not a \.json file under a directory this server may read recordings from/);
  await assert.rejects(h.agents.startRun({ goal: 'x', model: 'scripted:plan', replay: { tools: 'live' } }), /replay options need a recorded model/);

  // A worker that serves no scripted model (production) refuses a recording as it refuses a scenario.
  const taskQueue = `${h.taskQueue}-production`;
  const production = await createAgentWorker({ connection: h.connection, taskQueue, dataDir: h.dataDir, store: h.store, workspace: h.workspace, workspaceRoots: [h.dataDir] });
  const running = production.run();
  try {
    const agents = new AgentClient(h.temporal, { taskQueue, workspaceRoots: [h.dataDir] });
    const { runId: prod } = await agents.startRun({ goal: 'x', model: `recorded:${recorded.file}`, workspace: freshWorkspace() });
    started.push(prod);
    const refusedThere = await agents.result(prod);
    assert.equal(refusedThere.status, 'failed');
    assert.match(refusedThere.error ?? '', /is a recorded run to replay, and this worker does not serve scripted models/);
    assert.equal(refusedThere.turns, 0);
  } finally {
    production.shutdown();
    await running;
  }
});

test('eval: recorded tasks replay with the recorded outcome as the expectation (eval/recorded)', async () => {
  const tasks = loadTaskFile(path.join(PROJECT_ROOT, 'eval', 'recorded', 'tasks.json'));
  assert.ok(tasks.length >= 3);
  assert.ok(tasks.every((t) => t.model?.startsWith('recorded:') && t.expect.receipt !== undefined));
  const report = await runEval(replayAgents, tasks, {
    model: 'unused',
    workspaceFor: (task: EvalTask) => {
      const dir = path.join(h.dataDir, 'eval', task.name.replace(/\W+/g, '_'));
      mkdirSync(dir, { recursive: true });
      cpSync(path.join(PROJECT_ROOT, 'examples', 'workspace'), dir, { recursive: true });
      return dir;
    },
    readTrace: (id) => h.trace(id),
  });
  assert.deepEqual(report.tasks.filter((t) => !t.resultOk || !t.trajectoryOk).map((t) => `${t.name}: ${t.broken.join('; ')}`), []);
});

// How fast: `npm run bench -- --only replay` (timings live in the bench).
test('runs of many turns replay the same, with the tools dry-run and recorded, and with a deduplicated call every turn', async () => {
  const limits = { maxTurns: 6, maxRepeatedCalls: 0, maxStaleTurns: 0 };
  const writes = await record(await runWith({ goal: 'Write drafts.', model: 'scripted:many-writes', workspace: freshWorkspace(), policy: { mediumQuota: 100 }, limits }), 'many-writes');
  const lists = await record(await runWith({ goal: 'List the files forever.', model: 'scripted:runaway', workspace: freshWorkspace(), limits }), 'runaway');
  for (const [what, recorded, tools] of [
    ['a write_file activity a turn, dry run', writes, 'dry-run'],
    ['a write_file activity a turn, all tools recorded', writes, 'recorded'],
    ['a deduplicated list_files a turn (no tool activity)', lists, 'dry-run'],
  ] as const) {
    assert.equal(recorded.recording.turns.length, 6);
    const { result, report } = await replay(recorded, { tools });
    assert.equal(result.status, 'max_turns_exceeded', what);
    assert.equal(result.turns, 6, what);
    assert.ok(report.same, `${what}, tools ${tools}: ${renderReplayReport(report)}`);
  }
});
