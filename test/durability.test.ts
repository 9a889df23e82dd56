/**
 * Process death: a real worker process is SIGKILLed at each kind of point and a new one finishes the
 * run with the same outcome as an uninterrupted run; no completed tool runs again.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { eventually } from './helpers/eventually.ts';
import { scenario, startHarness, type Harness } from './helpers/harness.ts';
import { spawnWorker, type WorkerProcess } from './helpers/worker-process.ts';

const address = process.env.TEMPORAL_ADDRESS;
let h: Harness;
before(async () => {
  h = await startHarness('durable');
  await h.stopWorker(); // only worker processes from here on
});
after(async () => {
  await h.replayAll();
  await h.close();
});

const GOAL = 'Write the report, scan, and free space.';
type KillPoint = (runId: string) => Promise<void>;

/** Runs the durable scenario, killing the worker at `killAt` (if given) and starting a fresh one. */
async function runDurable(killAt?: KillPoint) {
  writeFileSync(path.join(h.workspace, 'access.log'), 'old access log\n');
  let worker: WorkerProcess = await spawnWorker(h, address!);
  const { runId } = await h.agents.startRun({ goal: GOAL, model: scenario('durable.ts'), workspace: h.workspace });
  try {
    if (killAt) {
      await killAt(runId);
      await worker.kill();
      worker = await spawnWorker(h, address!);
    }
    await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval');
    await h.agents.approve(runId);
    return { runId, result: await h.agents.result(runId) };
  } finally {
    await worker.kill();
  }
}

function toolRuns(runId: string) {
  return readFileSync(path.join(h.dataDir, 'tool-runs.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { runId: string; callKey: string; toolCallId: string; tool: string; attempt: number })
    .filter((r) => r.runId === runId);
}

async function checkSameOutcome(runId: string, result: Awaited<ReturnType<typeof runDurable>>['result'], reference: string, reran: string[] = []) {
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
    else assert.equal(count, 1, `${id} ran exactly once across both processes`);
  }
  const deletes = trace.flatMap((l) => (l.type === 'tool_start' && l.toolName === 'delete_file' ? [l.callKey] : []));
  assert.equal(deletes.length, 1, 'one deletion started');
  assert.equal((await h.store.lookupEffect(`${runId}:${deletes[0]}`))?.phase, 'done', 'and recorded done in the ledger');
}

let reference: string;

test('uninterrupted, the reference outcome', async () => {
  const { runId, result } = await runDurable();
  await checkSameOutcome(runId, result, result.output!);
  reference = result.output!;
  assert.match(reference, /^done \| Wrote report\.txt .* \| Scanned 400 files: no problems found\. \| Deleted access\.log\.$/);
});

test('killed during a model call: the call is retried on the new worker', async () => {
  const { runId, result } = await runDurable(async () => {
    // Only the call in flight has no duration yet: earlier runs' turn-1 calls took 1.5 s.
    await eventually(() => h.scripted.requests.some((r) => r.turn === 1 && r.scenario.endsWith('durable.ts') && r.ms === 0 && !r.aborted), 'the slow model call in flight');
  });
  await checkSameOutcome(runId, result, reference);
});

test('killed during a tool: the interrupted tool is retried with the same key, nothing else reruns', async () => {
  const { runId, result } = await runDurable(async (id) => {
    await eventually(() => toolRuns(id).some((r) => r.toolCallId === 'c3'), 'the scan to start');
    await new Promise((r) => setTimeout(r, 500));
  });
  await checkSameOutcome(runId, result, reference, ['c3']);
});

test('killed while waiting for approval: the approval sent with no worker is not lost', async () => {
  writeFileSync(path.join(h.workspace, 'access.log'), 'old access log\n');
  let worker = await spawnWorker(h, address!);
  const { runId } = await h.agents.startRun({ goal: GOAL, model: scenario('durable.ts'), workspace: h.workspace });
  const { pending } = await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval');
  assert.ok(pending?.kind === 'approval');
  await worker.kill();
  await h.agents.approve(runId, { callKey: pending.callKey, argsHash: pending.argsHash }, { wait: false });
  worker = await spawnWorker(h, address!);
  try {
    await checkSameOutcome(runId, await h.agents.result(runId), reference);
  } finally {
    await worker.kill();
  }
});

test('killed between turns: the next worker picks up where the history ends', async () => {
  const { runId, result } = await runDurable(async (id) => {
    await eventually(async () => (await h.trace(id)).some((l) => l.type === 'tool_result' && l.callKey === 't1.1'), 'the first tool result');
  });
  await checkSameOutcome(runId, result, reference);
});

test('a cancel sent while no worker runs is not lost', async () => {
  writeFileSync(path.join(h.workspace, 'access.log'), 'old access log\n');
  let worker = await spawnWorker(h, address!);
  const { runId } = await h.agents.startRun({ goal: GOAL, model: scenario('durable.ts'), workspace: h.workspace });
  await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval');
  await worker.kill();
  await h.agents.cancelRun(runId, 'stopped while the worker was down');
  worker = await spawnWorker(h, address!);
  try {
    const result = await h.agents.result(runId);
    assert.equal(result.status, 'interrupted');
    assert.deepEqual(result.interruption, { type: 'cancelled', reason: 'stopped while the worker was down' });
    assert.ok(existsSync(path.join(h.workspace, 'access.log')), 'nothing deleted');
  } finally {
    await worker.kill();
  }
});

