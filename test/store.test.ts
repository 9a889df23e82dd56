/**
 * The store layer (src/store): one contract suite run against both implementations — the embedded
 * SQLite file and a real PostgreSQL server started for the test (src/store/throwaway-postgres.ts) — each with
 * two store instances on the same database, as two worker hosts would have. Then what is particular to
 * each: PostgreSQL outages and concurrent migrations; SQLite across processes and its quiet loading.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { outputRef } from '../src/store/content-address.ts';
import { linkHash, type TranscriptLink } from '../src/wire/transcript-link.ts';
import { StoreIntegrityError, StoreUnavailableError } from '../src/store/errors.ts';
import { openStore, storeTarget } from '../src/store/open-store.ts';
import { PostgresStore } from '../src/store/postgres-store.ts';
import { collectGarbage } from '../src/store/retention.ts';
import { nodeSqlite } from '../src/store/sqlite-module.ts';
import { SqliteStore } from '../src/store/sqlite-store.ts';
import { loadMigrations } from '../src/store/migration-files.ts';
import { POSTGRES_MIGRATIONS_DIR } from '../src/store/postgres-migrations.ts';
import { SQLITE_MIGRATIONS_DIR } from '../src/store/sqlite-schema.ts';
import type { AgentStore, StoredEvent } from '../src/store/store.ts';
import type { TraceTask } from '../src/store/trace-tasks.ts';
import type { WorkerOffer } from '../src/offers/offer.ts';
import type { TraceLine } from '../src/wire/trace-events.ts';
import { eventually } from './helpers/eventually.ts';
import { postgresSkipReason, startPostgres, type PostgresServer } from '../src/store/throwaway-postgres.ts';

interface Backend {
  name: string;
  setup(): Promise<void>;
  /** A new store instance on the same database (another "host"). */
  open(): Promise<AgentStore>;
  /** Runs SQL directly on the database, behind the store's back. */
  exec(sql: string, params?: unknown[]): Promise<void>;
  teardown(): Promise<void>;
}

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function turnLine(runId: string, seq: number, turn: number): TraceLine {
  return { runId, seq, at: new Date().toISOString(), type: 'turn', turn, prompt_tokens: 10, completion_tokens: 2, total_tokens: 12, costUsd: 0, finish: 'stop' };
}

/** Publishes one line as its task would; whether it was new (its event appended). */
async function traced(store: AgentStore, line: TraceLine, task?: TraceTask): Promise<boolean> {
  return (await store.publishTrace(line.runId, [task ? { line, task } : { line }])).length === 1;
}

function link(prev: string | null, text: string): { hash: string; link: TranscriptLink } {
  const value: TranscriptLink = { prev, messages: [{ role: 'user', content: text }, { role: 'assistant', content: `re: ${text}` }] };
  return { hash: linkHash(value), link: value };
}

function contractSuite(backend: Backend, options: { skip?: string | false } = {}): void {
  describe(`store contract: ${backend.name}`, { skip: options.skip }, () => {
    let a: AgentStore;
    let b: AgentStore;

    before(async () => {
      await backend.setup();
      a = await backend.open();
      b = await backend.open();
    });
    after(async () => {
      await a?.close();
      await b?.close();
      await backend.teardown();
    });

    test('transcript links: put, get from another instance, idempotent put, chain via prev', async () => {
      const first = link(null, unique('hello'));
      const second = link(first.hash, 'and then');
      await a.putLink(first.hash, first.link);
      await a.putLink(first.hash, first.link); // the same link again: a no-op
      await b.putLink(first.hash, first.link); // from the other host too
      await b.putLink(second.hash, second.link);
      assert.deepEqual(await b.getLink(first.hash), first.link);
      const head = await a.getLink(second.hash);
      assert.deepEqual(head, second.link);
      assert.equal(head?.prev, first.hash);
      assert.equal(await a.getLink('0'.repeat(64)), undefined);
    });

    test('transcript links: a hash that does not name the content is refused on put', async () => {
      const { link: value } = link(null, unique('mismatch'));
      const wrong = link(null, 'something else').hash;
      await assert.rejects(a.putLink(wrong, value), StoreIntegrityError);
      assert.equal(await a.getLink(wrong), undefined);
    });

    test('transcript links: tampered content is a StoreIntegrityError, never a different context', async () => {
      const word = unique('secret');
      const { hash, link: value } = link(null, word);
      await a.putLink(hash, value);
      await backend.exec('UPDATE transcript_links SET body = replace(body, $1, $2) WHERE hash = $3', [word, 'TAMPERED', hash]);
      const error = await b.getLink(hash).then(
        () => assert.fail('getLink returned tampered content'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof StoreIntegrityError, String(error));
      assert.equal(error.ref, hash);
      assert.match(error.message, new RegExp(`transcript link ${hash} is corrupt`));
    });

    test('ledger: begin records started; a second begin sees the first; complete; first outcome wins', async () => {
      const key = unique('wf:call');
      assert.equal(await a.lookupEffect(key), undefined);
      const first = await a.beginEffect(key, 'delete_file', { path: 'x.txt', existed: true });
      assert.equal(first.created, true);
      assert.equal(first.entry.phase, 'started');
      const second = await b.beginEffect(key, 'delete_file', { path: 'x.txt', existed: false });
      assert.equal(second.created, false);
      assert.deepEqual(second.entry.detail, { path: 'x.txt', existed: true });
      assert.equal(second.entry.phase, 'started');

      const done = await b.completeEffect(key, 'Deleted x.txt.');
      assert.equal(done.phase, 'done');
      assert.equal(done.outcome, 'Deleted x.txt.');
      assert.ok(done.doneAt);
      const again = await a.completeEffect(key, 'x.txt did not exist; nothing was deleted.');
      assert.equal(again.outcome, 'Deleted x.txt.');
      const seen = await a.lookupEffect(key);
      assert.equal(seen?.phase, 'done');
      assert.equal(seen?.outcome, 'Deleted x.txt.');
      assert.equal(seen?.tool, 'delete_file');
      const third = await a.beginEffect(key, 'delete_file', {});
      assert.equal(third.created, false);
      assert.equal(third.entry.outcome, 'Deleted x.txt.');
      await assert.rejects(a.completeEffect(unique('never-begun'), 'x'), /beginEffect before completeEffect/);
    });

    test('ledger: concurrent begins from two instances on one key: exactly one wins', async () => {
      const keys = Array.from({ length: 25 }, (_, i) => unique(`race-${i}`));
      const results = await Promise.all(
        keys.flatMap((key) => [a.beginEffect(key, 'send_message', { by: 'a' }), b.beginEffect(key, 'send_message', { by: 'b' }), a.beginEffect(key, 'send_message', { by: 'a2' })]),
      );
      for (let i = 0; i < keys.length; i++) {
        const three = results.slice(i * 3, i * 3 + 3);
        assert.equal(three.filter((r) => r.created).length, 1, `key ${keys[i]}: one begin wins`);
        const winner = three.find((r) => r.created)!.entry.detail;
        for (const r of three) assert.deepEqual(r.entry.detail, winner, 'every begin sees the winner');
      }
      const outcomes = await Promise.all([a.completeEffect(keys[0]!, 'sent by a'), b.completeEffect(keys[0]!, 'sent by b')]);
      assert.equal(outcomes[0].outcome, outcomes[1].outcome, 'concurrent completes agree on one outcome');
    });

    test('traces: unique by run and seq (duplicate dropped), read in order from either host', async () => {
      const runId = unique('run');
      assert.equal(await traced(a, turnLine(runId, 1, 1)), true);
      assert.equal(await traced(b, turnLine(runId, 2, 2)), true);
      assert.equal(await traced(a, turnLine(runId, 4, 4)), true);
      assert.equal(await traced(b, turnLine(runId, 3, 3)), true); // out of order, from the other host
      assert.equal(await traced(b, { ...turnLine(runId, 2, 99) }), false, 'a retried seq is dropped');
      assert.equal(await traced(a, turnLine(unique('other-run'), 1, 1)), true);
      for (const store of [a, b]) {
        const lines = await store.readTrace(runId);
        assert.deepEqual(
          lines.map((l) => l.seq),
          [1, 2, 3, 4],
        );
        assert.deepEqual(
          lines.map((l) => (l.type === 'turn' ? l.turn : -1)),
          [1, 2, 3, 4],
          'the first line written for a seq is kept',
        );
        assert.deepEqual(Object.keys(lines[0]!).slice(0, 4), ['runId', 'seq', 'at', 'type'], 'lines come back as written');
      }
      assert.deepEqual(await a.readTrace(unique('no-such-run')), []);
      await assert.rejects(traced(a, turnLine(runId, 0, 0)), TypeError);
    });

    test("traces: a later workflow task takes the place of a refused task's lines", async () => {
      const runId = unique('run');
      // A task: when its execution began, and the history length when it started.
      const task = (historyLength: number, runStartMs = 1_000) => ({ runStartMs, historyLength });
      assert.equal(await traced(a, turnLine(runId, 1, 1), task(3)), true);
      // The task that started at history length 9 wrote seqs 2–4, and Temporal refused it.
      for (const seq of [2, 3, 4]) assert.equal(await traced(a, turnLine(runId, seq, 90 + seq), task(9)), true);
      // Its replacement (from 13) wrote fewer lines, the first the same but for its time, the second not.
      assert.equal(await traced(b, { ...turnLine(runId, 2, 92), at: '2030-01-01T00:00:00.000Z' }, task(13)), false, 'the same line again is not new');
      assert.equal(await traced(b, turnLine(runId, 3, 130), task(13)), true, 'a different line in its place is');
      assert.equal(await traced(a, turnLine(runId, 3, 130), task(13)), false, 'a retried write');
      assert.equal(await traced(a, turnLine(runId, 3, 93), task(9)), false, 'the refused task cannot take its seq back');
      assert.equal(await traced(a, turnLine(runId, 3, 1000)), false, 'nor can a line written without a task');
      for (const store of [a, b]) {
        const lines = await store.readTrace(runId);
        assert.deepEqual(
          lines.map((l) => [l.seq, l.type === 'turn' ? l.turn : -1, l.at]),
          [
            [1, 1, lines[0]!.at],
            [2, 92, '2030-01-01T00:00:00.000Z'],
            [3, 130, lines[2]!.at],
          ],
          "the replacement's lines; the refused task's seq 4 is left out",
        );
      }
      // The run continues-as-new: the next execution's first task is later than any of the first one's.
      assert.equal(await traced(a, turnLine(runId, 4, 4), task(3, 2_000)), true, "it takes the refused task's seq 4");
      assert.equal(await traced(b, turnLine(runId, 5, 5), task(3, 2_000)), true);
      assert.equal(await traced(b, turnLine(runId, 6, 6)), true);
      assert.deepEqual((await a.readTrace(runId)).map((l) => [l.seq, l.type === 'turn' ? l.turn : -1]), [[1, 1], [2, 92], [3, 130], [4, 4], [5, 5], [6, 6]]);
    });

    test('traces published: each new line and its event in one transaction, all or nothing', async () => {
      const runId = unique('run');
      const task = (historyLength: number) => ({ runStartMs: 1_000, historyLength });
      const seqsOf = (events: StoredEvent[]) => events.map((e) => (e.event as TraceLine).seq);
      await a.appendEvent(runId, { type: 'cancel_requested' });
      const first = await a.publishTrace(runId, [{ line: turnLine(runId, 1, 1), task: task(3) }, { line: turnLine(runId, 2, 2), task: task(3) }]);
      assert.deepEqual(seqsOf(first), [1, 2]);
      assert.deepEqual(first.map((e) => e.id), [2, 3], "the run's next event ids");
      // A retried task's lines again, and one more: only the new line is an event.
      const retried = await b.publishTrace(runId, [{ line: turnLine(runId, 2, 2), task: task(3) }, { line: turnLine(runId, 3, 3), task: task(3) }]);
      assert.deepEqual(seqsOf(retried), [3]);
      // A later task's different line in a refused task's place is an event; the same line is not.
      const replaced = await a.publishTrace(runId, [{ line: { ...turnLine(runId, 3, 3), at: '2030-01-01T00:00:00.000Z' }, task: task(9) }, { line: turnLine(runId, 4, 40), task: task(9) }]);
      assert.deepEqual(seqsOf(replaced), [4]);
      for (const store of [a, b]) {
        assert.deepEqual((await store.readEvents(runId)).map((e) => [e.id, (e.event as { seq?: number }).seq]), [[1, undefined], [2, 1], [3, 2], [4, 3], [5, 4]]);
        assert.deepEqual((await store.readTrace(runId)).map((l) => l.seq), [1, 2, 3, 4]);
      }
      // A line that cannot be stored (seq 0) refuses the whole batch: nothing of it is written.
      await assert.rejects(b.publishTrace(runId, [{ line: turnLine(runId, 5, 5) }, { line: turnLine(runId, 0, 0) }]), TypeError);
      // So does a store error in the middle of the transaction (an event that is not JSON, after a good line).
      await assert.rejects(a.publishTrace(runId, [{ line: turnLine(runId, 5, 5) }, { line: { ...turnLine(runId, 6, 6), turn: 10n } as unknown as TraceLine }]));
      await assert.rejects(a.publishTrace(runId, [{ line: turnLine(unique('other-run'), 1, 1) }]), /publish each run's lines apart/);
      assert.deepEqual((await b.readTrace(runId)).map((l) => l.seq), [1, 2, 3, 4]);
      assert.equal((await b.readEvents(runId)).length, 5);
      assert.deepEqual(await a.publishTrace(runId, []), []);
    });

    test('outputs: content-addressed, shared, verified', async () => {
      const text = `${unique('output')}\n${'x'.repeat(100_000)}`;
      const ref = await a.putOutput(text);
      assert.equal(ref, outputRef(text));
      assert.match(ref, /^output:[0-9a-f]{64}$/);
      assert.equal(await a.putOutput(text), ref, 'the same text twice is one reference');
      assert.equal(await b.getOutput(ref), text);
      assert.equal(await b.getOutput(outputRef('never stored')), undefined);
      await assert.rejects(b.getOutput('not-a-ref'), TypeError);
      await backend.exec('UPDATE outputs SET body = $1 WHERE ref = $2', ['forged', ref]);
      await assert.rejects(b.getOutput(ref), StoreIntegrityError);
    });

    test('retention: gc removes finished runs and what only they owned; open, kept and recent runs, their children and shared content stay', async () => {
      const p = unique('gc');
      const [done, open, kept, busy] = ['done', 'open', 'kept', 'busy'].map((n) => `${p}-${n}`) as [string, string, string, string];
      const doneChild = `${done}:research:t1.1`;
      const openChild = `${open}:research:t1.1`;
      const LONG_AGO = '2020-06-01T00:00:00.000Z';
      const stopped = (runId: string, seq: number): TraceLine => ({ runId, seq, at: LONG_AGO, type: 'run_stopped', status: 'completed', reason: null, turns: 1, toolRuns: 0, costUsd: 0 });
      const withStop = async (runId: string) => {
        await a.publishTrace(runId, [{ line: turnLine(runId, 1, 1) }, { line: stopped(runId, 2) }]);
      };
      for (const runId of [done, kept, busy, doneChild, openChild]) await withStop(runId);
      await a.publishTrace(open, [{ line: turnLine(open, 1, 1) }]); // no run_stopped: still running, whatever its age
      await a.keepRun(kept, 'recorded → recordings/kept.json');
      const shared = link(null, `${p} shared first turn`);
      const onlyDone = link(shared.hash, `${p} done's second turn`);
      const keptLink = link(null, `${p} kept`);
      const legacy = link(null, `${p} written before owners existed`);
      await a.putLink(shared.hash, shared.link, done);
      await b.putLink(shared.hash, shared.link, open); // the same content from another run, on another host
      await a.putLink(onlyDone.hash, onlyDone.link, done);
      await a.putLink(keptLink.hash, keptLink.link, kept);
      await a.putLink(legacy.hash, legacy.link);
      const doneOutput = await a.putOutput(`${p} only done's output`, done);
      const sharedOutput = await a.putOutput(`${p} an output both keep`, done);
      await b.putOutput(`${p} an output both keep`, openChild);
      const childOutput = await a.putOutput(`${p} the child's output`, doneChild);

      // Only this test's runs stopped before 2021: the other tests' traces are of now.
      const options = { olderThanMs: 0, now: new Date('2021-01-01T00:00:00Z'), isOpen: (runId: string) => Promise.resolve(runId === busy) };
      const dry = await collectGarbage(b, { ...options, dryRun: true });
      assert.deepEqual(dry.collected.map((r) => r.runId).sort(), [done, doneChild].sort(), 'a dry run lists what would go');
      assert.equal((await a.readTrace(done)).length, 2, 'and removes nothing');

      const report = await collectGarbage(b, options);
      assert.deepEqual(report.collected.map((r) => r.runId).sort(), [done, doneChild].sort());
      assert.deepEqual(new Map(report.skipped.map((s) => [s.runId, s.why])), new Map([
        [busy, 'Temporal reports it still open'],
        [openChild, `its parent ${open} stays`],
      ]), 'the kept run is not even a candidate; an open one in Temporal and a child of an open run stay');
      const collectedDone = report.collected.find((r) => r.runId === done)!;
      assert.deepEqual({ ...collectedDone }, { runId: done, kept: false, traceLines: 2, events: 2, links: 1, outputs: 1 });
      for (const runId of [done, doneChild]) {
        assert.deepEqual(await a.readTrace(runId), [], `${runId}'s trace is gone`);
        assert.deepEqual(await a.readEvents(runId), [], `${runId}'s events are gone`);
      }
      assert.equal(await a.getLink(onlyDone.hash), undefined, 'a link only the collected run owned is gone');
      assert.equal(await a.getOutput(doneOutput), undefined);
      assert.equal(await a.getOutput(childOutput), undefined);
      assert.deepEqual(await a.getLink(shared.hash), shared.link, 'a link an open run owns too stays');
      assert.equal(await a.getOutput(sharedOutput), `${p} an output both keep`);
      assert.deepEqual(await a.getLink(keptLink.hash), keptLink.link, 'the kept run keeps its links');
      assert.deepEqual(await a.getLink(legacy.hash), legacy.link, 'a link with no owner is never collected');
      for (const runId of [open, kept, busy, openChild]) assert.ok((await a.readTrace(runId)).length > 0, `${runId}'s trace stays`);
      assert.deepEqual((await a.keptRuns()).filter((r) => r.runId.startsWith(p)).map((r) => [r.runId, r.reason]), [[kept, 'recorded → recordings/kept.json']]);
      assert.deepEqual(await a.collectRun(kept), { runId: kept, kept: true, traceLines: 0, events: 0, links: 0, outputs: 0 }, 'collectRun itself refuses a kept run');

      // The open run stops: now it goes, its child with it, and the content the three shared.
      await a.publishTrace(open, [{ line: stopped(open, 2) }]);
      const later = await collectGarbage(b, { ...options, isOpen: () => Promise.resolve(false) });
      assert.deepEqual(later.collected.map((r) => r.runId).sort(), [busy, open, openChild].sort());
      assert.equal(await a.getLink(shared.hash), undefined, 'the last owner gone, the shared link goes');
      assert.equal(await a.getOutput(sharedOutput), undefined);
      assert.ok((await a.readTrace(kept)).length > 0, 'the kept run still stays');
    });

    test('events: ids 1, 2, 3 per run across instances; read after an id, with a limit', async () => {
      const runId = unique('run');
      const other = unique('run');
      const e1 = await a.appendEvent(runId, { type: 'turn', n: 1 });
      const e2 = await b.appendEvent(runId, { type: 'turn', n: 2 });
      await b.appendEvent(other, 'other run');
      const e3 = await a.appendEvent(runId, { type: 'done' });
      assert.deepEqual([e1.id, e2.id, e3.id], [1, 2, 3]);
      assert.equal(e1.runId, runId);
      assert.ok(!Number.isNaN(Date.parse(e1.at)));
      assert.deepEqual(
        (await b.readEvents(runId)).map((e) => e.event),
        [{ type: 'turn', n: 1 }, { type: 'turn', n: 2 }, { type: 'done' }],
      );
      assert.deepEqual(
        (await a.readEvents(runId, 1)).map((e) => e.id),
        [2, 3],
      );
      assert.deepEqual(
        (await a.readEvents(runId, 0, 2)).map((e) => e.id),
        [1, 2],
      );
      assert.deepEqual(await a.readEvents(runId, 3), []);
      assert.deepEqual((await a.readEvents(other)).map((e) => [e.id, e.event]), [[1, 'other run']]);
      await assert.rejects(a.appendEvent(runId, undefined), TypeError);
    });

    test('events: concurrent appends from two instances get distinct consecutive ids', async () => {
      const runId = unique('run');
      const appended = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).appendEvent(runId, i)));
      assert.deepEqual(
        appended.map((e) => e.id).sort((x, y) => x - y),
        Array.from({ length: 30 }, (_, i) => i + 1),
      );
      const read = await a.readEvents(runId);
      assert.deepEqual(
        read.map((e) => e.id),
        Array.from({ length: 30 }, (_, i) => i + 1),
      );
    });

    test('events: a subscriber hears what another instance appends, once each, in order; not after unsubscribing', async () => {
      const runId = unique('run');
      await b.appendEvent(runId, 'before subscribing');
      const heard: StoredEvent[] = [];
      const unsubscribe = await a.subscribe(runId, (event) => heard.push(event));
      await b.appendEvent(runId, 'one');
      await b.appendEvent(unique('other-run'), 'not for us');
      await b.appendEvent(runId, 'two');
      await a.appendEvent(runId, 'three');
      await eventually(() => heard.length >= 3, 'three events heard', 5000);
      await sleep(100);
      assert.deepEqual(
        heard.map((e) => [e.id, e.event]),
        [
          [2, 'one'],
          [3, 'two'],
          [4, 'three'],
        ],
      );
      unsubscribe();
      await b.appendEvent(runId, 'after');
      await sleep(250);
      assert.equal(heard.length, 3);
    });

    test('worker offers: one row per worker, replaced by a refresh, seen by another host, deleted by id', async () => {
      const taskQueue = unique('queue');
      const at = new Date().toISOString();
      const offer: WorkerOffer = {
        workerId: unique('host:1'),
        taskQueue,
        digest: 'a'.repeat(64),
        tools: [{ name: 'lookup_order', risk: 'low', readOnly: true, source: 'own', digest: 'b'.repeat(64) }],
        agents: [{ name: 'support', model: null, tools: ['lookup_order'], digest: 'c'.repeat(64) }],
        startedAt: at,
        lastSeenAt: at,
        stoppedAt: null,
      };
      await a.putWorkerOffer(offer);
      const later = new Date(Date.now() + 1000).toISOString();
      await a.putWorkerOffer({ ...offer, lastSeenAt: later, stoppedAt: later });
      const ofQueue = async () => (await b.listWorkerOffers()).filter((o) => o.taskQueue === taskQueue);
      assert.deepEqual(await ofQueue(), [{ ...offer, lastSeenAt: later, stoppedAt: later }]);
      await b.deleteWorkerOffers([offer.workerId, 'unknown']);
      assert.deepEqual(await ofQueue(), []);
    });

    test('events: a subscription with afterId catches up first, then goes on live', async () => {
      const runId = unique('run');
      await a.appendEvent(runId, 'e1');
      await a.appendEvent(runId, 'e2');
      const heard: unknown[] = [];
      const unsubscribe = await b.subscribe(runId, (event) => heard.push(event.event), { afterId: 1 });
      await a.appendEvent(runId, 'e3');
      await eventually(() => heard.length >= 2, 'caught up and live', 5000);
      assert.deepEqual(heard, ['e2', 'e3']);
      unsubscribe();
    });
  });
}

// ── SQLite ────────────────────────────────────────────────────────────────────────────────────────────

let sqliteDir = '';
const sqliteFile = () => path.join(sqliteDir, 'agent-store.sqlite');

contractSuite({
  name: 'SQLite',
  setup() {
    sqliteDir = mkdtempSync(path.join(tmpdir(), 'agent-store-test-'));
    return Promise.resolve();
  },
  open: () => Promise.resolve(new SqliteStore(sqliteFile(), { pollMs: 50 })),
  exec(sql, params = []) {
    const db = new (nodeSqlite().DatabaseSync)(sqliteFile(), { timeout: 5000 });
    try {
      db.prepare(sql.replace(/\$\d+/g, '?')).run(...(params as string[]));
    } finally {
      db.close();
    }
    return Promise.resolve();
  },
  teardown() {
    rmSync(sqliteDir, { recursive: true, force: true });
    return Promise.resolve();
  },
});

/**
 * Runs ES module code in a fresh Node process. `onReady` is called when the child prints a line
 * `ready`; what it returns is written to the child's stdin. Resolves with the rest of its stdout.
 */
function runNode(code: string, onReady?: () => string): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (onReady && stdout.startsWith('ready\n')) {
        stdout = stdout.slice('ready\n'.length);
        child.stdin.end(onReady());
        onReady = undefined;
      }
    });
    if (!onReady) child.stdin.end();
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (exitCode) => resolve({ stdout, stderr, code: exitCode }));
  });
}

describe('SQLite store: several processes, one file', () => {
  let dir: string;
  let store: SqliteStore;
  const moduleUrl = pathToFileURL(path.resolve('src/store/sqlite-store.ts')).href;

  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'agent-store-procs-'));
    store = new SqliteStore(path.join(dir, 'agent-store.sqlite'), { pollMs: 50 });
  });
  after(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('begins from two processes at once: each key won exactly once; events from the other process reach a subscriber', async (t) => {
    const runId = unique('run');
    const heard: unknown[] = [];
    const unsubscribe = await store.subscribe(runId, (event) => heard.push(event.event));
    const keys = Array.from({ length: 200 }, (_, i) => `k${i}`);
    // Both processes go through the keys at the same time (from a barrier), from opposite ends, and
    // contest the keys where they meet.
    let go!: () => void;
    const started = new Promise<void>((resolve) => (go = resolve));
    const child = runNode(
      `
      import { SqliteStore } from ${JSON.stringify(moduleUrl)};
      const store = new SqliteStore(${JSON.stringify(path.join(dir, 'agent-store.sqlite'))});
      console.log('ready');
      for await (const _ of process.stdin) break;
      const won = [];
      for (const key of ${JSON.stringify([...keys].reverse())}) {
        if ((await store.beginEffect(key, 't', { by: 'child' })).created) won.push(key);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      await store.appendEvent(${JSON.stringify(runId)}, 'from the child');
      console.log(JSON.stringify(won));
      await store.close();
    `,
      () => {
        go();
        return 'go\n';
      },
    );
    await started;
    const won: string[] = [];
    for (const key of keys) {
      if ((await store.beginEffect(key, 't', { by: 'parent' })).created) won.push(key);
      await sleep(1); // a breath between writes, as real callers leave: the two interleave
    }
    const result = await child;
    assert.equal(result.code, 0, result.stderr);
    const childWon = JSON.parse(result.stdout) as string[];
    assert.deepEqual([...won, ...childWon].sort(), [...keys].sort(), 'every key was won once, by one process');
    // (How they share depends on lock timing: SQLite's busy wait is not fair, one process often wins most.)
    t.diagnostic(`keys won: this process ${won.length}, the other ${childWon.length}`);
    await eventually(() => heard.includes('from the child'), 'the child process event', 5000);
    unsubscribe();
  });

  test('loading node:sqlite silences only its own ExperimentalWarning', async () => {
    const result = await runNode(`
      import { SqliteStore } from ${JSON.stringify(moduleUrl)};
      const store = new SqliteStore(${JSON.stringify(path.join(dir, 'warn.sqlite'))});
      await store.close();
      process.emitWarning('some other feature is experimental', 'ExperimentalWarning');
    `);
    assert.equal(result.code, 0, result.stderr);
    assert.doesNotMatch(result.stderr, /SQLite is an experimental feature/);
    assert.match(result.stderr, /ExperimentalWarning: some other feature is experimental/);
  });

  test('a lock held past the busy timeout is StoreUnavailableError, and passes', async () => {
    const file = path.join(dir, 'locked.sqlite');
    const quick = new SqliteStore(file, { busyTimeoutMs: 100 });
    const holder = new (nodeSqlite().DatabaseSync)(file);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const error = await quick.beginEffect('k', 't', {}).then(
        () => assert.fail('write under a held lock succeeded'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof StoreUnavailableError, String(error));
      assert.match(error.message, /^store unavailable: SQLite file .*locked\.sqlite \(database is locked\): another process held the database lock/);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    assert.equal((await quick.beginEffect('k', 't', {})).created, true);
    await quick.close();
  });

  test('a closed store refuses calls', async () => {
    const closed = new SqliteStore(path.join(dir, 'closed.sqlite'));
    await closed.close();
    await closed.close();
    await assert.rejects(closed.lookupEffect('k'), /is closed/);
  });
});

describe('openStore picks the store from AGENT_STORE_URL', () => {
  test('unset or empty → SQLite in the data directory; sqlite:<path>; postgres URLs; anything else is refused', async () => {
    assert.deepEqual(storeTarget(undefined, '/data'), { kind: 'sqlite', file: '/data/agent-store.sqlite' });
    assert.deepEqual(storeTarget('  ', '/data'), { kind: 'sqlite', file: '/data/agent-store.sqlite' });
    assert.deepEqual(storeTarget('sqlite:/tmp/x.sqlite', '/data'), { kind: 'sqlite', file: '/tmp/x.sqlite' });
    assert.deepEqual(storeTarget('sqlite:///tmp/y.sqlite', '/data'), { kind: 'sqlite', file: '/tmp/y.sqlite' });
    assert.deepEqual(storeTarget('postgres://u:p@db:5432/agent', '/data'), { kind: 'postgres', url: 'postgres://u:p@db:5432/agent' });
    assert.deepEqual(storeTarget('postgresql://db/agent', '/data'), { kind: 'postgres', url: 'postgresql://db/agent' });
    assert.throws(() => storeTarget('mysql://u:secret@db/agent', '/data'), (error: Error) => /AGENT_STORE_URL must be/.test(error.message) && !error.message.includes('secret'));

    const dir = mkdtempSync(path.join(tmpdir(), 'agent-store-open-'));
    try {
      const store = await openStore({ url: '', dataDir: dir });
      assert.equal(store.kind, 'sqlite');
      assert.equal(store.location, `SQLite file ${path.join(dir, 'agent-store.sqlite')}`);
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// ── PostgreSQL ────────────────────────────────────────────────────────────────────────────────────────

const pgSkip = postgresSkipReason();

let server: PostgresServer | undefined;
const serverReady = async (): Promise<PostgresServer> => (server ??= await startPostgres());

async function pgExec(database: string, sql: string, params: unknown[] = []): Promise<number> {
  const client = new pg.Client({ connectionString: (await serverReady()).url(database) });
  await client.connect();
  try {
    return (await client.query(sql, params)).rowCount ?? 0;
  } finally {
    await client.end();
  }
}

contractSuite(
  {
    name: 'PostgreSQL',
    async setup() {
      await (await serverReady()).createDatabase('store_contract');
    },
    async open() {
      return PostgresStore.open((await serverReady()).url('store_contract'));
    },
    exec: async (sql, params) => {
      await pgExec('store_contract', sql, params);
    },
    teardown: () => Promise.resolve(), // the server goes with the last suite
  },
  { skip: pgSkip },
);

describe('PostgreSQL store: migrations and outages', { skip: pgSkip }, () => {
  after(async () => {
    await server?.destroy();
  });

  test('workers opening a fresh database together migrate it once', async () => {
    const pgServer = await serverReady();
    await pgServer.createDatabase('store_migrations');
    const stores = await Promise.all(Array.from({ length: 4 }, () => openStore({ url: pgServer.url('store_migrations'), dataDir: '/nonexistent' })));
    try {
      assert.ok(stores.every((s) => s.kind === 'postgres'));
      const client = new pg.Client({ connectionString: pgServer.url('store_migrations') });
      await client.connect();
      const { rows } = await client.query<{ version: number; file: string }>('SELECT version, file FROM agent_store_migrations ORDER BY version');
      await client.end();
      assert.deepEqual(rows, [
        { version: 1, file: '001_init.sql' },
        { version: 2, file: '002_trace_tasks.sql' },
        { version: 3, file: '003_worker_offers.sql' },
        { version: 4, file: '004_retention.sql' },
      ]);
      assert.equal((await stores[0]!.beginEffect('k', 't', {})).created, true);
      assert.equal((await stores[3]!.beginEffect('k', 't', {})).created, false);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  test('the SQLite and PostgreSQL migrations have the same versions and end with the same tables and columns', async () => {
    const versions = (dir: string) => loadMigrations(dir).map((m) => m.version);
    assert.deepEqual(versions(SQLITE_MIGRATIONS_DIR), versions(POSTGRES_MIGRATIONS_DIR));

    const dir = mkdtempSync(path.join(tmpdir(), 'agent-store-schema-'));
    const sqliteColumns: string[] = [];
    try {
      const file = path.join(dir, 'schema.sqlite');
      await new SqliteStore(file).close();
      const db = new (nodeSqlite().DatabaseSync)(file);
      try {
        const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
        for (const { name } of tables) {
          for (const column of db.prepare(`PRAGMA table_info(${name})`).all() as { name: string }[]) sqliteColumns.push(`${name}.${column.name}`);
        }
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    const pgServer = await serverReady();
    await pgServer.createDatabase('store_schema');
    await (await PostgresStore.open(pgServer.url('store_schema'))).close();
    const client = new pg.Client({ connectionString: pgServer.url('store_schema') });
    await client.connect();
    const { rows } = await client.query<{ column: string }>(
      "SELECT table_name || '.' || column_name AS column FROM information_schema.columns WHERE table_schema = 'public'",
    );
    await client.end();
    // PostgreSQL's own: its migration record, and each run's last event id (SQLite, one writer at a time, takes MAX(id) + 1).
    const pgColumns = rows.map((r) => r.column).filter((c) => !/^(agent_store_migrations|run_event_heads)\./.test(c));
    assert.deepEqual(pgColumns.sort(), sqliteColumns.sort());
  });

  test('a missing database is StoreUnavailableError saying what to check', async () => {
    const pgServer = await serverReady();
    const error = await PostgresStore.open(pgServer.url('no_such_database'), { connectTimeoutMs: 2000 }).then(
      () => assert.fail('opened a missing database'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof StoreUnavailableError, String(error));
    assert.match(error.message, /^store unavailable: PostgreSQL at 127\.0\.0\.1:\d+\/no_such_database .*check that the database exists/);
  });

  test('a dropped LISTEN connection is replaced and the subscription catches up', async () => {
    const pgServer = await serverReady();
    await pgServer.createDatabase('store_listen');
    const url = pgServer.url('store_listen');
    const a = await PostgresStore.open(url, { maxReconnectDelayMs: 200 });
    const b = await PostgresStore.open(url);
    try {
      const runId = unique('run');
      const heard: unknown[] = [];
      const unsubscribe = await a.subscribe(runId, (event) => heard.push(event.event));
      const terminated = await pgExec('store_listen', "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'store_listen' AND query LIKE 'LISTEN%'");
      assert.equal(terminated, 1, 'the store has one LISTEN connection');
      await b.appendEvent(runId, 'while reconnecting');
      await eventually(() => heard.length === 1, 'the event appended while the listener was down', 5000);
      await b.appendEvent(runId, 'live again');
      await eventually(() => heard.length === 2, 'the next event', 5000);
      assert.deepEqual(heard, ['while reconnecting', 'live again']);
      unsubscribe();
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('a connection lost while a transaction holds it: no uncaught exception (which would end the worker), and the next call works', async () => {
    const pgServer = await serverReady();
    await pgServer.createDatabase('store_checked_out');
    const store = await PostgresStore.open(pgServer.url('store_checked_out'));
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      // Between two statements of a transaction (a trace write, a ledger entry) the server drops the connection.
      const inTransaction = (store as unknown as { withClient<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> }).withClient(async (client) => {
        const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
        assert.equal(await pgExec('store_checked_out', 'SELECT pg_terminate_backend($1)', [pid]), 1);
        await new Promise((resolve) => setTimeout(resolve, 500));
        return 'done';
      });
      assert.equal(await inTransaction, 'done');
      assert.deepEqual(uncaught, [], "the lost connection's error is the store's, not the process's");
      assert.equal((await store.beginEffect(unique('k'), 't', {})).created, true, 'the broken connection was not given back to the pool');
    } finally {
      process.off('uncaughtException', onUncaught);
      await store.close();
    }
  });

  test('server stopped: calls reject with StoreUnavailableError; started again: they work, and subscriptions catch up', async () => {
    const pgServer = await serverReady();
    await pgServer.createDatabase('store_outage');
    const url = pgServer.url('store_outage');
    const a = await PostgresStore.open(url, { connectTimeoutMs: 2000, maxReconnectDelayMs: 200 });
    const b = await PostgresStore.open(url, { connectTimeoutMs: 2000 });
    try {
      const runId = unique('run');
      const heard: unknown[] = [];
      const outageErrors: unknown[] = [];
      const unsubscribe = await a.subscribe(runId, (event) => heard.push(event.event), { onError: (e) => outageErrors.push(e) });
      await b.appendEvent(runId, 'before the outage');
      await eventually(() => heard.length === 1, 'the first event', 5000);

      await pgServer.stop();
      for (const call of [
        () => a.lookupEffect('k'),
        () => a.beginEffect(unique('k'), 't', {}),
        () => b.appendEvent(runId, 'lost'),
        () => b.publishTrace(runId, [{ line: turnLine(runId, 1, 1) }]),
        () => a.readTrace(runId),
        () => a.getLink('0'.repeat(64)),
      ]) {
        const error = await call().then(
          () => assert.fail('a call succeeded with the server stopped'),
          (e: unknown) => e,
        );
        assert.ok(error instanceof StoreUnavailableError, `${String(error)}`);
        assert.match(error.message, /^store unavailable: PostgreSQL at 127\.0\.0\.1:\d+\/store_outage \(.+\): check that PostgreSQL is running/);
      }
      const opening = await PostgresStore.open(url, { connectTimeoutMs: 2000 }).then(
        () => assert.fail('opened a store with the server stopped'),
        (e: unknown) => e,
      );
      assert.ok(opening instanceof StoreUnavailableError, String(opening));

      await pgServer.start();
      const key = unique('k');
      assert.equal((await a.beginEffect(key, 't', {})).created, true);
      assert.equal((await b.beginEffect(key, 't', {})).created, false);
      // Another run's line: its event would reach this run's subscriber otherwise.
      assert.equal(await traced(b, turnLine(unique('run'), 1, 1)), true);
      await b.appendEvent(runId, 'after the outage');
      await eventually(() => heard.includes('after the outage'), 'the event appended after the outage', 10_000);
      assert.deepEqual(heard, ['before the outage', 'after the outage']);
      unsubscribe();
    } finally {
      await a.close();
      await b.close();
    }
  });
});
