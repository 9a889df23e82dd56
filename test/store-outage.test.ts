/**
 * The store goes down under a running run (a real PostgreSQL store, stopped and started again): the run
 * waits for it on durable timers, longer than a tool's own retries, and nothing of the outage reaches the
 * model. An approved side effect runs exactly once when the store is back; an outage longer than the run
 * allows ends it `failed` (store_unavailable) with the effect not run.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { groupAlive, spawnGroup } from './helpers/cli-process.ts';
import { eventually } from './helpers/eventually.ts';
import { startHarness, scenario, type Harness } from './helpers/harness.ts';
import { PROJECT_ROOT } from '../src/paths.ts';
import { postgresSkipReason, startPostgres, type PostgresServer } from '../src/store/throwaway-postgres.ts';
import type { RunState } from '../src/wire/types.ts';

/** Longer than a tool's own retries (3 attempts, a second apart) and a model call's first ones. */
const OUTAGE_MS = 6000;

const pgSkip = postgresSkipReason();

describe('a store outage under a running run', { skip: pgSkip }, () => {
  let pg: PostgresServer;
  let h: Harness;
  before(async () => {
    pg = await startPostgres();
    await pg.createDatabase('agent');
    await pg.createDatabase('late');
    h = await startHarness('store-outage', { storeUrl: pg.url('agent') });
  });
  after(async () => {
    await pg.start().catch(() => {}); // the trace sink writes what it kept before the harness closes
    try {
      await h.replayAndClose();
    } finally {
      await pg.destroy(); // a failed replay must not leave PostgreSQL running (the test process would not exit)
    }
  });

  const outbox = () => {
    const dir = path.join(h.workspace, 'outbox');
    return existsSync(dir) ? readdirSync(dir) : [];
  };
  const waitingForStore = (runId: string) => h.waitForState(runId, (s) => /^waiting for the store since/.test(s.progress ?? ''), 'the run to say it waits for the store');

  async function pendingApproval(): Promise<{ runId: string; pending: Extract<NonNullable<RunState['pending']>, { kind: 'approval' }> }> {
    const { runId } = await h.agents.startRun({ goal: 'Tell alice the nightly job timed out.', model: scenario('send-message.ts'), workspace: h.workspace });
    const state = await h.waitForState(runId, (s) => s.pending?.kind === 'approval', 'the approval request');
    assert.equal(state.pending?.kind, 'approval');
    return { runId, pending: state.pending };
  }

  test('an approval arriving during the outage: the message is sent once the store is back, and the run completes with its real result', async () => {
    const before = outbox().length;
    const { runId, pending } = await pendingApproval();
    await pg.stop();
    await h.agents.approve(runId, { callKey: pending.callKey, argsHash: pending.argsHash, by: 'tester' }, { wait: false });
    const waiting = await waitingForStore(runId);
    assert.match(waiting.progress!, /\(t1\.1\): store unavailable/);
    await sleep(OUTAGE_MS);
    assert.equal((await h.agents.getState(runId)).status, 'running', 'the run waits out an outage longer than the tool retries');
    assert.equal(outbox().length, before, 'nothing is sent while the ledger cannot be written');
    await pg.start();

    const result = await h.agents.result(runId);
    assert.equal(result.status, 'completed', result.error ?? '');
    assert.match(result.output ?? '', /^Message sent \(\d+ characters\)\.$/, 'the model read the tool result, not the outage');
    assert.equal(outbox().length, before + 1, 'the message went out exactly once');
    const effect = await h.store.lookupEffect(`${runId}:${pending.callKey}`);
    assert.equal(effect?.phase, 'done');
    assert.deepEqual(result.receipt.map((e) => e.outcome), ['done']);
    const trace = await h.trace(runId);
    assert.ok(trace.some((l) => l.type === 'store_unavailable' && l.what === 't1.1'), 'the trace says the run waited for the store');
    assert.ok(trace.some((l) => l.type === 'store_available' && l.what === 't1.1' && l.waitedMs >= OUTAGE_MS));
    assert.equal(trace.filter((l) => l.type === 'tool_result').length, 1);
    assert.equal((await h.agents.getState(runId)).progress, null, 'the wait is no longer shown');
  });

  test('a rejection during the outage: the model call waits for the transcript store, then the run goes on', async () => {
    const { runId, pending } = await pendingApproval();
    await pg.stop();
    await h.agents.reject(runId, { callKey: pending.callKey, reason: 'not now' }, { wait: false });
    const waiting = await waitingForStore(runId);
    assert.match(waiting.progress!, /\(model\): store unavailable/);
    await sleep(OUTAGE_MS);
    await pg.start();
    const result = await h.agents.result(runId);
    assert.equal(result.status, 'completed', result.error ?? '');
    assert.doesNotMatch(result.output ?? '', /store unavailable/);
    assert.deepEqual(result.receipt.map((e) => e.outcome), ['rejected']);
  });

  test('an outage longer than the run allows: failed, store_unavailable, and the effect not run', async () => {
    const before = outbox().length;
    const { runId: id } = await h.agents.startRun({ goal: 'Tell alice the nightly job timed out.', model: scenario('send-message.ts'), workspace: h.workspace, limits: { maxStoreOutageMs: 3000 } });
    const state = await h.waitForState(id, (s) => s.pending?.kind === 'approval', 'the approval request');
    assert.equal(state.pending?.kind, 'approval');
    await pg.stop();
    await h.agents.approve(id, { callKey: state.pending.callKey, argsHash: state.pending.argsHash }, { wait: false });
    const result = await h.agents.result(id);
    await pg.start();
    assert.equal(result.status, 'failed');
    assert.equal(result.reason, 'store_unavailable');
    assert.match(result.error ?? '', /^The store was unreachable for \d+ s during t1\.1, longer than the run allows \(limits\.maxStoreOutageMs\): store unavailable/);
    assert.equal(outbox().length, before, 'nothing was sent');
    assert.equal(await h.store.lookupEffect(`${id}:${state.pending.callKey}`), undefined, 'the ledger never saw the call begin');
    assert.equal(result.receipt[0]?.outcome, 'interrupted');
  });

  test('`agent worker` waits for a store that is down, says so, and serves runs once it is up', { timeout: 240_000 }, async (t) => {
    await pg.stop();
    const env = {
      TEMPORAL_ADDRESS: h.address,
      AGENT_TASK_QUEUE: `${h.taskQueue}-late`,
      AGENT_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'agent-store-late-')),
      AGENT_STORE_URL: pg.url('late'),
      AGENT_SCRIPTED_MODEL_URL: '',
    };
    const worker = spawnGroup('npm', ['run', 'agent', '--silent', '--', 'worker', '--scripted'], env);
    const output = () => worker.stdout() + worker.stderr();
    t.after(() => {
      if (groupAlive(worker.child.pid!)) process.kill(-worker.child.pid!, 'SIGKILL');
    });
    await eventually(() => output().includes('Waiting for the store') || (worker.child.exitCode !== null && Promise.reject(new Error(output()))), 'the worker to say it waits for the store', 120_000);
    assert.match(output(), /Waiting for the store: store unavailable: PostgreSQL at [^ ]+\/late \(.+\): check that PostgreSQL is running.*\. Ctrl-C stops\./);
    await sleep(3000);
    assert.equal(worker.child.exitCode, null, `the worker is still up while the store is down:\n${output()}`);

    await pg.start();
    await eventually(() => output().includes('Worker polling task queue') || (worker.child.exitCode !== null && Promise.reject(new Error(output()))), 'the worker to start polling', 60_000);
    assert.match(output(), /The store is reachable after \d+ s\./);
    const run = spawnSync('npm', ['run', 'agent', '--silent', '--', 'run', '--no-worker', 'Which log file mentions a timeout?', '--model', 'scripted:plan'], { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /status=completed/);
    process.kill(-worker.child.pid!, 'SIGINT');
  });
});

describe('progress labels', () => {
  let h: Harness;
  before(async () => (h = await startHarness('progress-labels')));
  after(() => h.replayAndClose());

  test("a tool's label goes when the tool finishes: the next call does not show it", async () => {
    const { runId } = await h.agents.startRun({ goal: 'Scan, then list.', model: scenario('scan-then-list.ts'), workspace: h.workspace });
    await h.waitForState(runId, (s) => /^scanned/.test(s.progress ?? ''), 'the scan to report progress');
    const result = await h.agents.result(runId);
    assert.equal(result.status, 'completed');
    assert.equal((await h.agents.getState(runId)).progress, null);
  });
});
