/**
 * Runs that move between hosts (issue 9, items 3 and 4), on the production shape: the real Temporal server
 * v1.29.1 on PostgreSQL, and workers as separate processes with separate data directories, as on separate
 * hosts (no network namespaces: the hosts are separate processes on one loopback), all with
 * AGENT_STORE_URL naming one database (`agent`) of the cluster's PostgreSQL. Nothing the harness keeps is
 * on a disk two hosts share: each host has its own data directory and its own copy of the workspace,
 * except in (b), where both hosts act on one workspace because the test must see one tool effect from
 * either host — the workspace is the tools' data, not the harness's state.
 *
 * One cluster and one scripted model server for the file; each test has a task queue of its own, so its
 * hosts serve only its runs. Run with `npm run test:cluster`.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import { Client, Connection } from '@temporalio/client';
import { AgentClient } from '../../src/client/client.ts';
import { agentDataConverter } from '../../src/client/payload-codec.ts';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { startScriptedModelServer, type RecordedRequest, type ScriptedModelServer } from '../../src/scripted-model/server.ts';
import { openStore } from '../../src/store/open-store.ts';
import type { AgentStore } from '../../src/store/store.ts';
import type { PendingApproval, RunResult } from '../../src/wire/types.ts';
import type { TraceLine } from '../../src/wire/trace-events.ts';
import { hostEnv, makeWorkspace, runCli, startHost, type Host, type HostOptions } from '../helpers/cluster-hosts.ts';
import { eventually } from '../helpers/eventually.ts';
import { scenario } from '../helpers/harness.ts';
import { goalOf } from '../helpers/latch.ts';
import { findPostgresBinDir, startPostgres, type PostgresServer } from '../../src/store/throwaway-postgres.ts';
import { startTemporalCluster, type TemporalCluster } from '../helpers/temporal-cluster.ts';
import { DAYS, dayFiles, dayText, expectedAnswer, HELD_TURN } from '../scenarios/twelve-reads.ts';
import { releaseGoal } from '../scenarios/latched-reads.ts';

/** A SIGKILLed worker's activity is retried elsewhere after its heartbeat timeout (10 s): allow for that and more. */
const ACROSS_HOSTS_MS = 60_000;

const EXAMPLE = (file: string) => readFileSync(path.join(PROJECT_ROOT, 'examples', 'workspace', file), 'utf8');
/** What the latched-reads scenario answers when it saw both files. */
const LATCHED_ANSWER = `read: ${EXAMPLE('notes.txt')}\n${EXAMPLE('errors.log')}`;
const MESSAGE_SENT = 'Message sent (26 characters).'; // send-message.ts sends 26 characters

describe('two hosts on Temporal on PostgreSQL', () => {
  let cluster: TemporalCluster;
  let scripted: ScriptedModelServer;
  let connection: Connection;
  let temporal: Client;
  let storeUrl: string;
  /** The test's own view of the shared store (an observer, not a host). */
  let store: AgentStore;
  let scratch: string;
  const hosts: Host[] = [];
  /**
   * Runs finished on another host than the one they started on: (d) reads their traces, through the CLI
   * for those marked `cli` (each CLI process costs ~1.5 s of CPU, so not for all).
   */
  const crossed: { runId: string; what: string; hostB: Host; cli?: boolean; check: (trace: TraceLine[]) => void }[] = [];

  before(async () => {
    cluster = await startTemporalCluster();
    await cluster.postgres.createDatabase('agent');
    storeUrl = cluster.postgres.url('agent');
    scripted = await startScriptedModelServer({ scenarioDirs: [path.join(PROJECT_ROOT, 'test', 'scenarios')] });
    connection = await Connection.connect({ address: cluster.address });
    temporal = new Client({ connection, dataConverter: agentDataConverter() });
    scratch = mkdtempSync(path.join(tmpdir(), 'agent-two-hosts-'));
    store = await openStore({ url: storeUrl, dataDir: scratch });
  });

  after(async () => {
    await Promise.all(hosts.map((h) => h.dispose()));
    await store?.close();
    await connection?.close();
    await scripted?.close();
    await cluster?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  /**
   * A task queue and a client for one test; its hosts serve that queue only and are killed when the test
   * ends (their data directories stay until the file ends: (d) reads the traces "on" host B).
   */
  function forTest(t: TestContext, label: string, options: { storeUrl?: string } = {}) {
    const taskQueue = `two-hosts-${label}-${Date.now().toString(36)}`;
    const mine: Host[] = [];
    t.after(() => Promise.all(mine.map((h) => h.kill())));
    const agents = new AgentClient(temporal, { taskQueue, workspaceRoots: [] });
    const host = async (name: string, extra: Partial<HostOptions> = {}) => {
      const started = await startHost({
        name: `${label}-${name}`,
        taskQueue,
        address: cluster.address,
        storeUrl: options.storeUrl ?? storeUrl,
        scriptedModelUrl: scripted.baseUrl,
        ...extra,
      });
      hosts.push(started);
      mine.push(started);
      return started;
    };
    return { taskQueue, agents, host };
  }

  const uniqueGoal = (what: string) => `${what} (${randomUUID().slice(0, 8)})`;
  const requestsOf = (goal: string) => scripted.requests.filter((r) => goalOf(r.messages) === goal);
  /** The model call for `turn` of the run with `goal`, while it is still in flight. */
  const inFlight = (goal: string, turn: number): RecordedRequest | undefined =>
    requestsOf(goal).find((r) => r.turn === turn && r.ms === 0 && !r.aborted);
  /** The tool messages the model was last sent in the run with `goal`. */
  const lastToolMessages = (goal: string) =>
    (requestsOf(goal).at(-1)?.messages ?? []).filter((m) => m.role === 'tool').map((m) => m.content ?? '');

  /** `promise`, or a failure after `ms` naming what was awaited, with the tails of the hosts' stderr. */
  async function within<T>(promise: Promise<T>, what: string, ms = ACROSS_HOSTS_MS): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const logs = hosts.map((h) => `--- ${h.name} (${h.child.exitCode ?? h.child.signalCode ?? 'running'}):\n${h.stderr().slice(-2000)}`).join('\n');
        reject(new Error(`Timed out after ${ms} ms waiting for ${what}\n${logs}`));
      }, ms);
    });
    try {
      return await Promise.race([promise, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
  const resultOf = (agents: AgentClient, runId: string) => within(agents.result(runId), `the result of ${runId}`);

  async function pendingApproval(agents: AgentClient, runId: string): Promise<PendingApproval> {
    const state = await eventually(async () => {
      const s = await agents.getState(runId);
      return s.pending?.kind === 'approval' ? s : undefined;
    }, `${runId} to wait for an approval`);
    return state.pending as PendingApproval;
  }

  /** Seq 1..n with no gap and no duplicate, one run id, ending with run_stopped. */
  function checkWhole(trace: TraceLine[], runId: string, status: string): void {
    assert.deepEqual(
      trace.map((l) => l.seq),
      trace.map((_, i) => i + 1),
      'trace seq runs 1..n with no gap and no duplicate',
    );
    assert.ok(trace.every((l) => l.runId === runId));
    const last = trace.at(-1);
    assert.ok(last?.type === 'run_stopped' && last.status === status, `the trace ends with run_stopped ${status}: ${JSON.stringify(last)}`);
  }

  const count = (trace: TraceLine[], type: TraceLine['type']) => trace.filter((l) => l.type === type).length;

  /** Timings per phase, as test diagnostics. */
  function laps(t: TestContext) {
    let started = Date.now();
    return (what: string) => {
      t.diagnostic(`${what}: ${Date.now() - started} ms`);
      started = Date.now();
    };
  }

  test('(a) a 12-turn run that continued-as-new is SIGKILLed on host A and finished on host B with its whole context', async (t) => {
    const lap = laps(t);
    const { agents, host } = forTest(t, 'a');
    // Each host has its own copy of the files the run reads (as deployed data), none of the other's state.
    const hostA = await host('host-a', { files: dayFiles() });
    const goal = uniqueGoal('Read the eleven day files and say what they hold');
    const { runId } = await agents.startRun({ goal, model: scenario('twelve-reads.ts'), continueAsNewEveryTurns: 3 });
    await eventually(() => inFlight(goal, HELD_TURN), `model call ${HELD_TURN + 1} in flight on host A`, ACROSS_HOSTS_MS);
    const beforeKill = await eventually(async () => {
      const trace = await store.readTrace(runId);
      return count(trace, 'continued_as_new') >= 2 ? trace : undefined;
    }, 'the continue-as-news in the trace');
    assert.equal(count(beforeKill, 'tool_result'), HELD_TURN);
    lap(`host A: ${HELD_TURN} turns, 2 continue-as-new`);

    await hostA.kill();
    const hostB = await host('host-b', { files: dayFiles() });
    const result = await resultOf(agents, runId);
    lap('host A killed in a model call, host B finished the run');

    assert.equal(result.status, 'completed', JSON.stringify(result));
    assert.equal(result.turns, DAYS + 1);
    assert.equal(result.toolRuns, DAYS);
    // The scenario checks its context at every turn; its answer quotes every result it was last sent.
    assert.equal(result.output, expectedAnswer());
    assert.deepEqual(lastToolMessages(goal), Array.from({ length: DAYS }, (_, i) => dayText(i + 1)));
    // Host A read the first seven files, host B the rest: the run really moved.
    const ran = (h: Host) => h.toolRuns().filter((r) => r.runId === runId).map((r) => r.toolCallId);
    assert.deepEqual(ran(hostA), ['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7']);
    assert.deepEqual(ran(hostB), ['r8', 'r9', 'r10', 'r11']);
    crossed.push({
      runId,
      what: '(a)',
      hostB,
      cli: true,
      check: (trace) => {
        checkWhole(trace, runId, 'completed');
        assert.equal(count(trace, 'continued_as_new'), 3);
        assert.equal(count(trace, 'turn'), DAYS + 1);
        assert.deepEqual(
          trace.filter((l) => l.type === 'tool_start').map((l) => l.toolCallId),
          Array.from({ length: DAYS }, (_, i) => `r${i + 1}`),
        );
        assert.equal(count(trace, 'tool_result'), DAYS);
      },
    });
  });

  test('(b) a side effect killed on host A after acting is retried on host B: it acts once and reports the first outcome', async (t) => {
    const lap = laps(t);
    const { agents, host } = forTest(t, 'b');
    // Both hosts act on one workspace, so the test can see whether the effect happened once or twice. The
    // ledger that decides is in the store; nothing of the harness's is in this directory.
    const workspace = makeWorkspace(path.join(scratch, 'b-workspace'));
    const markers = mkdtempSync(path.join(scratch, 'b-markers-'));
    const hostA = await host('host-a', {
      workspace,
      entry: 'cluster-worker',
      env: { AGENT_TEST_HOLD: 'delete_file:before-complete,send_message:after-done', AGENT_TEST_HOLD_DIR: markers },
    });
    const delGoal = uniqueGoal('Free some disk space');
    const sendGoal = uniqueGoal('Tell Alice about the timeout');
    const del = await agents.startRun({ goal: delGoal, model: 'scripted:delete-approval' });
    const send = await agents.startRun({ goal: sendGoal, model: scenario('send-message.ts') });
    const delCall = await pendingApproval(agents, del.runId);
    const sendCall = await pendingApproval(agents, send.runId);
    await agents.approve(del.runId, { callKey: delCall.callKey, argsHash: delCall.argsHash });
    await agents.approve(send.runId, { callKey: sendCall.callKey, argsHash: sendCall.argsHash });
    const delKey = `${del.runId}:${delCall.callKey}`;
    const sendKey = `${send.runId}:${sendCall.callKey}`;

    type Held = { key: string; outcome: string };
    const held = (file: string) => eventually(() => (existsSync(path.join(markers, file)) ? (JSON.parse(readFileSync(path.join(markers, file), 'utf8')) as Held) : undefined), file);
    const delHeld = await held('delete_file.before-complete.json');
    const sendHeld = await held('send_message.after-done.json');
    assert.equal(delHeld.key, delKey);
    assert.equal(sendHeld.key, sendKey);
    // Host A has acted on both. The deletion is not recorded yet (the host is held between the effect and
    // completeEffect); the message is recorded done (the host is held before its activity completes).
    assert.ok(!existsSync(path.join(workspace, 'access.log')), 'host A deleted access.log');
    const outbox = path.join(workspace, 'outbox');
    assert.equal(readdirSync(outbox).length, 1);
    const sentFile = path.join(outbox, readdirSync(outbox)[0]!);
    const sentByA = readFileSync(sentFile, 'utf8');
    assert.equal((await store.lookupEffect(delKey))?.phase, 'started');
    const sendEntryA = await store.lookupEffect(sendKey);
    assert.equal(sendEntryA?.phase, 'done');
    assert.equal(sendEntryA?.outcome, sendHeld.outcome);
    lap('host A acted and is held');

    await hostA.kill();
    const hostB = await host('host-b', { workspace });
    const [delResult, sendResult] = await Promise.all([resultOf(agents, del.runId), resultOf(agents, send.runId)]);
    lap('host A killed, host B retried both tools and finished both runs');

    // Each tool ran a second attempt, on host B.
    for (const key of [delKey, sendKey]) {
      const attempts = (h: Host) => h.toolRuns().filter((r) => `${r.runId}:${r.runKey}` === key).map((r) => r.attempt);
      assert.deepEqual(attempts(hostA), [1], `${key}: the first attempt on host A`);
      assert.equal(attempts(hostB).length, 1, `${key}: one retry on host B`);
      assert.ok(attempts(hostB)[0]! >= 2);
    }

    // The deletion: done once, with what host A would have recorded; a second unlink would have reported
    // "access.log did not exist; nothing was deleted".
    assert.equal(delResult.status, 'completed', JSON.stringify(delResult));
    assert.equal(delResult.output, 'Deleted access.log to free space.');
    const delEntry = await store.lookupEffect(delKey);
    assert.equal(delEntry?.phase, 'done');
    assert.deepEqual(delEntry?.detail, { path: 'access.log', existed: true });
    assert.equal(delEntry?.outcome, delHeld.outcome);
    assert.equal(lastToolMessages(delGoal).at(-1), delHeld.outcome, "the run's tool message is the first outcome");

    // The message: one outbox file, untouched by host B (its sentAt is host A's); the ledger entry as host A left it.
    assert.equal(sendResult.status, 'completed', JSON.stringify(sendResult));
    assert.equal(sendResult.output, MESSAGE_SENT);
    assert.deepEqual(readdirSync(outbox), [path.basename(sentFile)]);
    assert.equal(readFileSync(sentFile, 'utf8'), sentByA, 'host B did not send the message again');
    assert.deepEqual(await store.lookupEffect(sendKey), sendEntryA, 'the ledger entry is the one host A recorded');
    assert.equal(lastToolMessages(sendGoal).at(-1), sendHeld.outcome, "the run's tool message is the first outcome");

    crossed.push(
      { runId: del.runId, what: '(b) delete_file', hostB, cli: true, check: (trace) => checkWhole(trace, del.runId, 'completed') },
      { runId: send.runId, what: '(b) send_message', hostB, check: (trace) => checkWhole(trace, send.runId, 'completed') },
    );
  });

  test('(c) approvals sent while every worker is dead (an update that waits, and a signal) are not lost: a new host finishes the runs', async (t) => {
    const lap = laps(t);
    const { agents, host } = forTest(t, 'c');
    const hostA = await host('host-a');
    const delGoal = uniqueGoal('Free some disk space');
    const sendGoal = uniqueGoal('Tell Alice about the timeout');
    const del = await agents.startRun({ goal: delGoal, model: 'scripted:delete-approval' });
    const send = await agents.startRun({ goal: sendGoal, model: scenario('send-message.ts') });
    const delCall = await pendingApproval(agents, del.runId);
    const sendCall = await pendingApproval(agents, send.runId);
    lap('two runs wait for approval on host A');

    await hostA.kill();
    // No worker serves the queue now. The update is accepted by the server and waits for a worker to run it.
    const approved = agents.approve(del.runId, { callKey: delCall.callKey, argsHash: delCall.argsHash, by: 'ops' });
    approved.catch(() => {}); // awaited below; a failure before then is not an unhandled rejection
    await agents.approve(send.runId, { callKey: sendCall.callKey, argsHash: sendCall.argsHash, by: 'ops' }, { wait: false });
    const hostB = await host('host-b');
    assert.deepEqual(await within(approved, 'the approval update'), { decision: 'approved', callKey: delCall.callKey, by: 'ops' });
    const [delResult, sendResult] = await Promise.all([resultOf(agents, del.runId), resultOf(agents, send.runId)]);
    lap('host A killed, approvals sent, host B finished both runs');

    assert.equal(delResult.status, 'completed', JSON.stringify(delResult));
    assert.equal(delResult.output, 'Deleted access.log to free space.');
    assert.equal(sendResult.status, 'completed', JSON.stringify(sendResult));
    assert.equal(sendResult.output, MESSAGE_SENT);
    // The approved effects happened where the runs were finished: on host B's workspace, not host A's.
    assert.ok(existsSync(path.join(hostA.workspace, 'access.log')));
    assert.ok(!existsSync(path.join(hostB.workspace, 'access.log')));
    assert.equal(readdirSync(path.join(hostB.workspace, 'outbox')).length, 1);
    assert.ok(!existsSync(path.join(hostA.workspace, 'outbox')));
    for (const [runId, call] of [[del.runId, delCall], [send.runId, sendCall]] as const) {
      assert.equal((await store.lookupEffect(`${runId}:${call.callKey}`))?.phase, 'done');
      const decided = (await store.readTrace(runId)).filter((l) => l.type === 'approval_decided');
      assert.deepEqual(decided.map((l) => [l.callKey, l.decision, l.by]), [[call.callKey, 'approved', 'ops']]);
    }
    crossed.push(
      { runId: del.runId, what: '(c) update', hostB, check: (trace) => checkWhole(trace, del.runId, 'completed') },
      { runId: send.runId, what: '(c) signal', hostB, check: (trace) => checkWhole(trace, send.runId, 'completed') },
    );
  });

  test('(d) the trace of a run that crossed hosts is whole and in order, read from host B and from a third host', async (t) => {
    const lap = laps(t);
    assert.ok(crossed.length, 'runs that crossed hosts (tests a–c) to read');
    // A third host: a data directory of its own, no worker, no workspace; only the store's URL.
    const third = mkdtempSync(path.join(scratch, 'd-third-'));
    const thirdEnv = hostEnv({ address: cluster.address, storeUrl, scriptedModelUrl: scripted.baseUrl, taskQueue: 'two-hosts-d', dataDir: third });
    const viaCli = crossed.filter((c) => c.cli);
    assert.ok(viaCli.length);
    await Promise.all(
      viaCli.map(async ({ runId, what, hostB, check }) => {
        const [fromB, fromThird] = await Promise.all([runCli(['trace', runId], hostB.env), runCli(['trace', runId], thirdEnv)]);
        assert.equal(fromB.code, 0, `${what}: trace on host B: ${fromB.stderr}`);
        assert.equal(fromThird.code, 0, `${what}: trace on a third host: ${fromThird.stderr}`);
        assert.equal(fromThird.stdout, fromB.stdout, `${what}: the same trace from either host`);
        const trace = fromB.stdout.trim().split('\n').map((line) => JSON.parse(line) as TraceLine);
        assert.deepEqual(trace, await store.readTrace(runId), `${what}: the CLI prints the store's trace`);
        check(trace);
      }),
    );
    lap(`${viaCli.length} traces read through the CLI on host B and on a third host`);
    // The others from the store directly (what the CLI does).
    for (const { runId, check } of crossed.filter((c) => !c.cli)) check(await store.readTrace(runId));
    // No host keeps harness state of its own: no embedded store, no trace or ledger files.
    for (const dir of [...hosts.map((h) => h.dataDir), third]) {
      const left = readdirSync(dir).filter((f) => f !== 'workspace' && f !== 'tool-runs.jsonl');
      assert.deepEqual(left, [], `${dir} holds only its workspace and tool-run audit log`);
    }
  });

  test('(e) the Temporal server restarts while one run waits for approval and one waits in a model call: both finish', async (t) => {
    const lap = laps(t);
    const { agents, host } = forTest(t, 'e');
    await host('host');
    const release = path.join(scratch, 'e-release');
    const slowGoal = releaseGoal(uniqueGoal('Read through a server restart'), release);
    const waitGoal = uniqueGoal('Free some disk space');
    const slow = await agents.startRun({ goal: slowGoal, model: scenario('latched-reads.ts') });
    const waiting = await agents.startRun({ goal: waitGoal, model: 'scripted:delete-approval' });
    await eventually(() => inFlight(slowGoal, 1), 'the second model call in flight');
    const call = await pendingApproval(agents, waiting.runId);
    lap('one run in a model call, one waiting for approval');

    await cluster.stopServer();
    await cluster.startServer();
    lap('Temporal server stopped and started');
    writeFileSync(release, ''); // the model answers now, to a worker that reconnected
    await eventually(
      () => agents.approve(waiting.runId, { callKey: call.callKey, argsHash: call.argsHash }).catch(() => undefined),
      'the approval after the restart',
    );
    const [slowResult, waitResult] = await Promise.all([resultOf(agents, slow.runId), resultOf(agents, waiting.runId)]);
    lap('both runs finished');

    assert.equal(slowResult.status, 'completed', JSON.stringify(slowResult));
    assert.equal(slowResult.output, LATCHED_ANSWER);
    assert.equal(waitResult.status, 'completed', JSON.stringify(waitResult));
    assert.equal(waitResult.output, 'Deleted access.log to free space.');
    for (const [runId, turns] of [[slow.runId, 3], [waiting.runId, 3]] as const) {
      const trace = await eventually(async () => {
        const lines = await store.readTrace(runId);
        return lines.at(-1)?.type === 'run_stopped' ? lines : undefined;
      }, `the whole trace of ${runId}`);
      checkWhole(trace, runId, 'completed');
      assert.equal(count(trace, 'turn'), turns);
    }
  });

  describe('store failures (the store on a PostgreSQL of its own, so stopping it leaves Temporal running)', () => {
    let storePg: PostgresServer;
    let ownStoreUrl: string;
    /** The test's view of that store. */
    let ownStore: AgentStore;

    before(async () => {
      storePg = await startPostgres();
      await storePg.createDatabase('agent');
      ownStoreUrl = storePg.url('agent');
      ownStore = await openStore({ url: ownStoreUrl, dataDir: scratch });
    });
    after(async () => {
      await ownStore?.close();
      await storePg?.destroy();
    });

    test('the store stopped while a run is in a model call: the run waits for the store, saying so, and resumes when it is back', async (t) => {
      const lap = laps(t);
      const { agents, host } = forTest(t, 'outage', { storeUrl: ownStoreUrl });
      await host('host');
      const release = path.join(scratch, 'outage-release');
      const goal = releaseGoal(uniqueGoal('Read through a store outage'), release);
      const { runId } = await agents.startRun({ goal, model: scenario('latched-reads.ts') });
      await eventually(() => inFlight(goal, 1), 'the second model call in flight');
      await storePg.stop();
      writeFileSync(release, ''); // the model answers; the next model call needs the store
      lap('store stopped during a model call');

      // The activity that met the outage failed at once; the workflow waits on a timer and calls again.
      const waiting = await eventually(
        async () => {
          const state = await agents.getState(runId);
          return /^waiting for the store since .* \(model\): store unavailable: PostgreSQL at 127\.0\.0\.1:\d+\/agent/.test(state.progress ?? '') ? state : undefined;
        },
        'the run to say it waits for the store',
        ACROSS_HOSTS_MS,
      );
      assert.equal(waiting.status, 'running');
      lap('the run waits for the store');

      await storePg.start();
      const result = await resultOf(agents, runId);
      lap('store started, run finished');
      assert.equal(result.status, 'completed', JSON.stringify(result));
      assert.equal(result.output, LATCHED_ANSWER);
      // The trace lines written while the store was down were kept and written when it came back.
      const trace = await eventually(async () => {
        const lines = await ownStore.readTrace(runId);
        return lines.at(-1)?.type === 'run_stopped' ? lines : undefined;
      }, 'the whole trace');
      checkWhole(trace, runId, 'completed');
      assert.equal(count(trace, 'turn'), 3);
      assert.equal(count(trace, 'tool_result'), 2);
      assert.ok(trace.some((l) => l.type === 'store_unavailable' && l.what === 'model') && trace.some((l) => l.type === 'store_available' && l.what === 'model'));
    });

    test('a transcript link whose content does not match its hash: the run ends failed naming the integrity problem', async (t) => {
      const lap = laps(t);
      const { agents, host } = forTest(t, 'tamper', { storeUrl: ownStoreUrl });
      const hostA = await host('host-a');
      const release = path.join(scratch, 'tamper-release'); // never opened: host A dies in that model call
      const goal = releaseGoal(uniqueGoal('Read the notes'), release);
      const { runId } = await agents.startRun({ goal, model: scenario('latched-reads.ts') });
      await eventually(() => inFlight(goal, 1), 'the second model call in flight');
      await hostA.kill();
      // The link holding notes.txt's content (the one after the link with this run's goal), rewritten in place.
      const psql = path.join(findPostgresBinDir(), 'psql');
      const nonce = /\((\w{8})\)/.exec(goal)![1]!;
      const tampered = execFileSync(
        psql,
        [
          ownStoreUrl,
          '-XtAc',
          `UPDATE transcript_links SET body = replace(body, 'rotate your logs', 'delete every log') WHERE prev IN (SELECT hash FROM transcript_links WHERE body LIKE '%${nonce}%') RETURNING hash`,
        ],
        { encoding: 'utf8' },
      )
        .trim()
        .split('\n')
        .filter((l) => /^[0-9a-f]{64}$/.test(l));
      assert.equal(tampered.length, 1, 'one link rewritten');
      lap('host A killed in a model call, its transcript link tampered with');

      // Host B has nothing cached: it reads the chain from the store, and finds the link does not match its name.
      await host('host-b');
      const result: RunResult = await resultOf(agents, runId);
      lap('host B ended the run');
      assert.equal(result.status, 'failed', JSON.stringify(result));
      assert.match(result.error ?? '', new RegExp(`^store integrity: transcript link ${tampered[0]} is corrupt: its stored content hashes to [0-9a-f]{64}`));
      assert.ok(
        requestsOf(goal).every((r) => !JSON.stringify(r.messages).includes('delete every log')),
        'the model was never sent the tampered context',
      );
      writeFileSync(release, '');
    });
  });
});
