/**
 * Process death: a real worker process is SIGKILLed at each kind of point and a new one finishes the
 * run with the same outcome as an uninterrupted run; no completed tool runs again. Each kill point is
 * proved by what Temporal shows at the moment of the kill, and each recovery by the history afterwards.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { implementTool } from '../src/tools/define-tool.ts';
import { builtinTools } from '../src/tools/registry.ts';
import type { ToolRunRecord } from './helpers/cluster-hosts.ts';
import { eventually } from './helpers/eventually.ts';
import { scenario, startHarness, type Harness } from './helpers/harness.ts';
import { activities, eventId, eventTypes, localActivities, waitForHistory, workflowTaskWorkers } from './helpers/histories.ts';
import type { RunInput } from '../src/wire/run-input.ts';
import { untilExists } from './helpers/latch.ts';
import { spawnWorker, startActivityWorker, type WorkerProcess } from './helpers/worker-process.ts';

let h: Harness;
before(async () => {
  h = await startHarness('durable');
  await h.stopWorker(); // only worker processes from here on
});
after(async () => {
  await live?.kill();
  await h.replayAndClose();
});

/**
 * The worker process each test starts with: the replacement a test started after its kill lives on into
 * the next test (a process start is about 2.5 s of CPU), so each kill costs one new process, not two.
 */
let live: WorkerProcess | null = null;
async function liveWorker(): Promise<WorkerProcess> {
  live ??= await spawnWorker(h);
  return live;
}
/** Hands a test's last worker on to the next test; a test that failed kills it instead (its state is unknown). */
async function handOn(worker: WorkerProcess, failed: boolean): Promise<void> {
  live = failed ? null : worker;
  if (failed) await worker.kill();
}

const GOAL = 'Write the report, scan, and free space.';
/** Each test's run has a goal of its own, so the model server's log tells its requests apart. */
const goalFor = (what: string) => `${GOAL} (${what})`;
type KillPoint = (runId: string) => Promise<void>;

/** Runs the durable scenario, killing the worker at `killAt` (if given) and starting a fresh one. */
async function runDurable(what: string, killAt?: KillPoint, options: Pick<RunInput, 'modelCall'> = {}) {
  writeFileSync(path.join(h.workspace, 'access.log'), 'old access log\n');
  let worker = await liveWorker();
  const { runId } = await h.agents.startRun({ goal: goalFor(what), model: scenario('durable.ts'), workspace: h.workspace, ...options });
  const killed = worker;
  let failed = true;
  try {
    if (killAt) {
      await killAt(runId);
      await worker.kill();
      worker = await spawnWorker(h);
    }
    await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval');
    await h.agents.approve(runId);
    const result = await h.agents.result(runId);
    failed = false;
    return { runId, result, killed, replacement: worker };
  } finally {
    await handOn(worker, failed);
  }
}


function toolRuns(runId: string): ToolRunRecord[] {
  const file = path.join(h.dataDir, 'tool-runs.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ToolRunRecord)
    .filter((r) => r.runId === runId);
}

/** What Temporal says is in flight for the run: its pending activities, by type and state. */
async function inFlight(runId: string): Promise<{ type: string; state: string; attempt: number }[]> {
  const { raw } = await h.temporal.workflow.getHandle(runId).describe();
  return (raw.pendingActivities ?? []).map((a) => ({ type: a.activityType?.name ?? '', state: String(a.state), attempt: a.attempt ?? 0 }));
}
/** PENDING_ACTIVITY_STATE_STARTED: a worker has the activity and is running it. */
const STARTED = '2';

/**
 * `reran`: tools retried once by Temporal (a second attempt). `redone`: read-only tools run again from the
 * start of a workflow task the dead worker never completed (local steps are recorded when their task completes).
 */
async function checkSameOutcome(runId: string, result: Awaited<ReturnType<typeof runDurable>>['result'], reference: string, reran: string[] = [], redone: string[] = []) {
  assert.equal(result.status, 'completed');
  assert.equal(result.output, reference);
  assert.equal(result.toolRuns, 4);
  assert.ok(!existsSync(path.join(h.workspace, 'access.log')));
  const trace = await h.trace(runId);
  const starts = trace.filter((l) => l.type === 'tool_start').map((l) => l.toolCallId);
  assert.deepEqual(starts, ['c1', 'c2', 'c3', 'c4'], 'each tool started once in the trace');
  const seqs = trace.map((l) => l.seq);
  assert.deepEqual(seqs, seqs.map((_, i) => i + 1), 'no duplicated or lost trace lines');
  const executions = toolRuns(runId);
  for (const id of ['c1', 'c2', 'c3', 'c4']) {
    const count = executions.filter((e) => e.toolCallId === id).length;
    if (reran.includes(id)) assert.ok(count === 2 && executions.some((e) => e.toolCallId === id && e.attempt === 2), `${id} retried once`);
    else if (redone.includes(id)) assert.deepEqual(executions.filter((e) => e.toolCallId === id).map((e) => e.attempt), [1, 1], `${id} redone once, from the start`);
    else assert.equal(count, 1, `${id} ran exactly once across both processes`);
  }
  const deletes = trace.flatMap((l) => (l.type === 'tool_start' && l.toolName === 'delete_file' ? [l.callKey] : []));
  assert.equal(deletes.length, 1, 'one deletion started');
  assert.equal((await h.store.lookupEffect(`${runId}:${deletes[0]}`))?.phase, 'done', 'and recorded done in the ledger');
}

let reference: string;

test('uninterrupted, the reference outcome', async () => {
  const { runId, result } = await runDurable('reference');
  await checkSameOutcome(runId, result, result.output!);
  reference = result.output!;
  assert.match(reference, /^done \| Wrote report\.txt .* \| Scanned 400 files: no problems found\. \| Deleted access\.log\.$/);
  const history = await h.temporal.workflow.getHandle(runId).fetchHistory();
  assert.ok(activities(history).every((a) => a.attempt === 1), 'no activity needed a second attempt');
});

test('killed during a model call: the call is retried on the new worker', async () => {
  const goal = goalFor('model call');
  const turn1 = () => h.scripted.requests.filter((r) => r.turn === 1 && r.messages[1]?.content === goal);
  const { runId, result } = await runDurable('model call', async (id) => {
    // The second model call (a 1.5 s reply) is in flight: the model server has it, Temporal shows it started.
    await eventually(() => turn1().some((r) => r.ms === 0 && !r.aborted), 'the slow model call in flight');
    assert.deepEqual(await inFlight(id), [{ type: 'callModel', state: STARTED, attempt: 1 }], 'at the kill, the model call runs and nothing else');
  });
  await checkSameOutcome(runId, result, reference);
  // The model server saw the call cut off by the kill, then the same call again, answered.
  assert.deepEqual(turn1().map((r) => [r.aborted, r.status]), [[true, 200], [false, 200]], 'the request was aborted, then retried');
  // The history: that call needed a second attempt (after the dead worker's heartbeat timeout); no other did.
  const history = await h.temporal.workflow.getHandle(runId).fetchHistory();
  const calls = activities(history, 'callModel');
  assert.deepEqual(calls.map((c) => c.attempt), [1, 2, 1, 1, 1]);
  assert.match(calls[1]!.lastFailure?.message ?? '', /heartbeat/i, 'retried because the dead worker stopped heartbeating');
});

test("killed during a local model call (modelCall 'local'): the workflow task it held times out, the new worker redoes that task's steps", async () => {
  const goal = goalFor('local model call');
  const turn1 = () => h.scripted.requests.filter((r) => r.turn === 1 && r.messages[1]?.content === goal);
  const { runId, result } = await runDurable(
    'local model call',
    async (id) => {
      await eventually(() => turn1().some((r) => r.ms === 0 && !r.aborted), 'the slow model call in flight');
      assert.deepEqual(await inFlight(id), [], 'at the kill, no activity task: the call runs inside the workflow task');
    },
    { modelCall: 'local' },
  );
  // The first task held turn 0's model call, list_files (c1, a quick read: local too) and turn 1's call:
  // none was recorded, so the new worker makes them again. The write (c2) is an ordinary activity: once.
  await checkSameOutcome(runId, result, reference, [], ['c1']);
  const turn0 = h.scripted.requests.filter((r) => r.turn === 0 && r.messages[1]?.content === goal);
  assert.equal(turn0.length, 2, "turn 0's model call was made again");
  assert.deepEqual(turn1().map((r) => [r.aborted, r.status]), [[true, 200], [false, 200]], 'the request was aborted, then made again');
  const history = await h.temporal.workflow.getHandle(runId).fetchHistory();
  assert.ok(eventTypes(history).includes('WorkflowTaskTimedOut'), "the dead worker's workflow task timed out");
  assert.equal(localActivities(history, 'callModel').length, 5, 'each model call recorded once');
  assert.deepEqual(activities(history, 'callModel'), []);
});

test('killed during a tool: the interrupted tool is retried with the same key, nothing else reruns', async () => {
  const { runId, result, killed, replacement } = await runDurable('tool', async (id) => {
    await eventually(() => toolRuns(id).some((r) => r.toolCallId === 'c3'), 'the scan to start');
    assert.deepEqual(await inFlight(id), [{ type: 'runTool', state: STARTED, attempt: 1 }], 'at the kill, the scan runs and nothing else');
  });
  await checkSameOutcome(runId, result, reference, ['c3']);
  const scans = toolRuns(runId).filter((r) => r.toolCallId === 'c3');
  assert.deepEqual(
    scans.map((r) => [r.attempt, `${r.runId}:${r.runKey}`, r.pid]),
    [
      [1, `${runId}:t3.1`, killed.child.pid],
      [2, `${runId}:t3.1`, replacement.child.pid],
    ],
    'attempt 1 in the killed process, attempt 2 in its replacement, both with the idempotency key <runId>:t3.1',
  );
  const history = await h.temporal.workflow.getHandle(runId).fetchHistory();
  const tools = activities(history, 'runTool');
  assert.equal(tools.length, 3, 'list_files ran as a local activity; the write, the scan and the deletion as activities');
  const scan = tools.find((t) => (t.input as { runKey: string }).runKey === 't3.1')!;
  assert.equal(scan.attempt, 2, 'the same scheduled activity (the same input, so the same key) ran a second time');
  assert.ok(tools.filter((t) => t !== scan).every((t) => t.attempt === 1));
});

test('killed while waiting for approval: the approval sent with no worker is not lost', async () => {
  writeFileSync(path.join(h.workspace, 'access.log'), 'old access log\n');
  const killed = await liveWorker();
  const { runId } = await h.agents.startRun({ goal: goalFor('approval wait'), model: scenario('durable.ts'), workspace: h.workspace });
  const { pending } = await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval');
  assert.ok(pending?.kind === 'approval');
  assert.deepEqual(await inFlight(runId), [], 'at the kill, the run waits and nothing runs');
  await killed.kill();
  await h.agents.approve(runId, { callKey: pending.callKey, argsHash: pending.argsHash }, { wait: false });
  const worker = await spawnWorker(h);
  let failed = true;
  try {
    await checkSameOutcome(runId, await h.agents.result(runId), reference);
    failed = false;
  } finally {
    await handOn(worker, failed);
  }
});

test('a cancel sent while no worker runs is not lost', async () => {
  writeFileSync(path.join(h.workspace, 'access.log'), 'old access log\n');
  const killed = await liveWorker();
  const { runId } = await h.agents.startRun({ goal: goalFor('cancel'), model: scenario('durable.ts'), workspace: h.workspace });
  await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval');
  await killed.kill();
  await h.agents.cancelRun(runId, 'stopped while the worker was down');
  const worker = await spawnWorker(h);
  let failed = true;
  try {
    const result = await h.agents.result(runId);
    assert.equal(result.status, 'interrupted');
    assert.deepEqual(result.interruption, { type: 'cancelled', reason: 'stopped while the worker was down' });
    assert.ok(existsSync(path.join(h.workspace, 'access.log')), 'nothing deleted');
    failed = false;
  } finally {
    await handOn(worker, failed);
  }
});

test('killed between turns: the next worker picks up where the history ends', async () => {
  // A worker that runs both workflow tasks and activities is never idle between turns: the task that records
  // a turn's results schedules the next model call at once, on itself. So here the killed process runs the
  // workflow (and its local activities) only, and this process runs the other activities; the write (turn
  // 2's tool) waits on a latch, so the kill happens while the killed worker has nothing in flight.
  // Its own two workflow-only workers: the full worker the earlier tests handed on would take the tasks.
  await live?.kill();
  live = null;
  const latch = path.join(h.dataDir, `release-between-turns-${Date.now()}`);
  const activityWorker = await startActivityWorker(h, (ledger) =>
    builtinTools(ledger).map((tool) =>
      tool.name !== 'write_file'
        ? tool
        : implementTool(tool, async (args, ctx) => {
            await untilExists(latch);
            return tool.run(args, ctx);
          }),
    ),
  );
  writeFileSync(path.join(h.workspace, 'access.log'), 'old access log\n');
  const killed = await spawnWorker(h, h.address, { workflowOnly: true });
  let worker = killed;
  const { runId } = await h.agents.startRun({ goal: goalFor('between turns'), model: scenario('durable.ts'), workspace: h.workspace });
  const handle = h.temporal.workflow.getHandle(runId);
  try {
    await eventually(() => toolRuns(runId).some((r) => r.toolCallId === 'c2'), 'the write to start');
    assert.deepEqual(await inFlight(runId), [{ type: 'runTool', state: STARTED, attempt: 1 }], 'only the write runs, on the activity worker');
    const atKill = await handle.fetchHistory();
    assert.equal(eventTypes(atKill).at(-1), 'ActivityTaskScheduled', "the workflow worker's last task is done: no workflow task in flight");
    await worker.kill();

    // The write finishes with no workflow worker alive: turn 2's result is in the history, turn 3 is not begun.
    writeFileSync(latch, '');
    const write = (history: typeof atKill) => activities(history, 'runTool').find((a) => (a.input as { runKey: string }).runKey === 't2.1');
    const between = await waitForHistory(h.temporal, runId, (history) => write(history)?.closedAs === 'Completed', 'the write to complete');
    const after = (between.events ?? []).slice(eventId(write(between)!.closed!));
    assert.ok(after.every((e) => e.workflowTaskScheduledEventAttributes || e.workflowTaskTimedOutEventAttributes), `nothing but a waiting workflow task after it: ${eventTypes({ events: after }).join(', ')}`);
    assert.equal(activities(between, 'callModel').length, 2, 'two model calls so far: the third is not scheduled');
    assert.deepEqual(await inFlight(runId), [], 'between turns: nothing in flight');

    worker = await spawnWorker(h, h.address, { workflowOnly: true });
    await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval');
    await h.agents.approve(runId);
    await checkSameOutcome(runId, await h.agents.result(runId), reference);
    // Every workflow task up to the kill was the killed worker's; every one after it, its replacement's.
    const tasks = workflowTaskWorkers(await handle.fetchHistory());
    const cut = tasks.findIndex((t) => eventId(t.started) > eventId(write(between)!.closed!));
    assert.ok(cut > 0);
    assert.deepEqual(new Set(tasks.slice(0, cut).map((t) => t.identity)), new Set([killed.identity]));
    assert.deepEqual(new Set(tasks.slice(cut).map((t) => t.identity)), new Set([worker.identity]));
  } finally {
    writeFileSync(latch, '');
    await worker.kill();
    await activityWorker.stop();
  }
});
