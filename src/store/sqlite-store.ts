/**
 * The embedded store: one SQLite file (default `<dataDir>/agent-store.sqlite`) through Node's built-in
 * `node:sqlite`. WAL mode and a busy timeout let several processes on one host (the CLI, workers) share
 * the file; every write is one statement or one `BEGIN IMMEDIATE` transaction, so uniqueness holds
 * across processes. Calls are synchronous underneath: a call waiting on another process's lock blocks
 * this process's event loop for up to the busy timeout.
 *
 * Run events: an appender notifies the other store instances in its process at once (an emitter per
 * database file); changes made by other processes are noticed by polling `PRAGMA data_version` (a cheap
 * counter) while there are subscribers.
 */
import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { TraceLine } from '../wire/trace-events.ts';
import { checkedLinkBody, isOutputRef, outputRef, verifiedLink, verifiedOutput } from './content-address.ts';
import { StoreUnavailableError } from './errors.ts';
import { EventFanout } from './event-fanout.ts';
import { sqliteMigrations } from './sqlite-schema.ts';
import { nodeSqlite } from './sqlite-module.ts';
import type {
  AgentStore,
  BeginEffectResult,
  CollectedRun,
  StoppedRun,
  EffectEntry,
  EventListener,
  StoredEvent,
  SubscribeOptions,
  TraceWrite,
  Unsubscribe,
} from './store.ts';
import type { TranscriptLink } from '../wire/transcript-link.ts';
import { toEntry, toEvent, toWorkerOffer, workerOfferValues, type EffectRow, type EventRow, type WorkerOfferRow } from './rows.ts';
import type { WorkerOffer } from '../offers/offer.ts';
import { checkAfterId, checkRunTrace, eventJson } from './validate.ts';
import { currentLines, sameContent, type TraceRow, type TraceTask } from './trace-tasks.ts';

export interface SqliteStoreOptions {
  /** How long a write waits for another process's lock before failing with StoreUnavailableError. */
  busyTimeoutMs?: number;
  /**
   * How often, while anything subscribes, the store looks for events other processes appended (one
   * `PRAGMA data_version` read; the runs' events are read only when it changed). Default 50 ms: a cancel
   * announced by a CLI in another process reaches a running activity within it (`activities/heartbeats.ts`).
   */
  pollMs?: number;
  /**
   * `NORMAL` (default; `AGENT_SQLITE_SYNCHRONOUS=FULL` overrides) keeps every commit across a process
   * crash and may lose the last ones on power loss; it takes the WAL sync off the worker's event loop on
   * every trace line (a plan run 212–236 → 140–158 ms in the bench). `FULL` syncs the WAL on every commit,
   * so a ledger entry written before an effect survives a power cut too. Clusters use PostgreSQL.
   */
  synchronous?: 'FULL' | 'NORMAL';
}

/** One emitter per database file, shared by the store instances of this process. */
const hubs = new Map<string, EventEmitter>();

function hubFor(file: string): EventEmitter {
  let hub = hubs.get(file);
  if (!hub) {
    hub = new EventEmitter();
    hub.setMaxListeners(0);
    hubs.set(file, hub);
  }
  return hub;
}

const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_READONLY = 8;
const SQLITE_IOERR = 10;
const SQLITE_FULL = 13;
const SQLITE_CANTOPEN = 14;

export class SqliteStore implements AgentStore {
  readonly kind = 'sqlite' as const;
  readonly location: string;
  readonly file: string;
  private readonly busyTimeoutMs: number;
  private readonly pollMs: number;
  private readonly db: DatabaseSync;
  private readonly sql: Record<
    | 'putLink'
    | 'getLink'
    | 'beginEffect'
    | 'getEffect'
    | 'completeEffect'
    | 'appendTrace'
    | 'getTraceLine'
    | 'replaceTrace'
    | 'readTrace'
    | 'putOutput'
    | 'getOutput'
    | 'appendEvent'
    | 'readEvents'
    | 'lastEventId'
    | 'dataVersion'
    | 'putWorkerOffer'
    | 'listWorkerOffers'
    | 'deleteWorkerOffer'
    | 'own'
    | 'keepRun'
    | 'keptRuns'
    | 'isKept'
    | 'stoppedRuns'
    | 'ownedBy'
    | 'disown'
    | 'isOwned'
    | 'deleteLink'
    | 'deleteOutput'
    | 'deleteTrace'
    | 'deleteEvents',
    StatementSync
  >;
  private readonly fanout: EventFanout;
  private readonly hub: EventEmitter;
  private readonly onHub = (runId: string) => this.fanout.notify(runId);
  private pollTimer: NodeJS.Timeout | undefined;
  private dataVersion = -1;
  private closed = false;

  constructor(file: string, options: SqliteStoreOptions = {}) {
    this.file = path.resolve(file);
    this.location = `SQLite file ${this.file}`;
    this.busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    this.pollMs = options.pollMs ?? 50;
    const { DatabaseSync } = nodeSqlite();
    try {
      mkdirSync(path.dirname(this.file), { recursive: true });
      this.db = new DatabaseSync(this.file, { timeout: this.busyTimeoutMs });
    } catch (error) {
      throw this.mapError(error);
    }
    try {
      this.db.exec('PRAGMA journal_mode = WAL');
      this.db.exec(`PRAGMA synchronous = ${options.synchronous ?? (process.env.AGENT_SQLITE_SYNCHRONOUS === 'FULL' ? 'FULL' : 'NORMAL')}`);
      this.migrate();
      this.sql = {
        putLink: this.db.prepare('INSERT INTO transcript_links (hash, prev, body, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING'),
        getLink: this.db.prepare('SELECT body FROM transcript_links WHERE hash = ?'),
        beginEffect: this.db.prepare(
          "INSERT INTO effects (key, tool, phase, detail, started_at) VALUES (?, ?, 'started', ?, ?) ON CONFLICT (key) DO NOTHING",
        ),
        getEffect: this.db.prepare('SELECT * FROM effects WHERE key = ?'),
        completeEffect: this.db.prepare("UPDATE effects SET phase = 'done', outcome = ?, done_at = ? WHERE key = ? AND phase = 'started'"),
        appendTrace: this.db.prepare(
          'INSERT INTO trace_lines (run_id, seq, line, run_start_ms, history_length) VALUES (?, ?, ?, ?, ?) ON CONFLICT (run_id, seq) DO NOTHING',
        ),
        getTraceLine: this.db.prepare('SELECT line FROM trace_lines WHERE run_id = ? AND seq = ?'),
        // Only a later workflow task takes a seq over (trace-tasks.ts).
        replaceTrace: this.db.prepare(
          'UPDATE trace_lines SET line = ?, run_start_ms = ?, history_length = ? WHERE run_id = ? AND seq = ? AND (run_start_ms, history_length) < (?, ?)',
        ),
        readTrace: this.db.prepare('SELECT line, run_start_ms, history_length FROM trace_lines WHERE run_id = ? ORDER BY seq'),
        putOutput: this.db.prepare('INSERT INTO outputs (ref, body, created_at) VALUES (?, ?, ?) ON CONFLICT (ref) DO NOTHING'),
        getOutput: this.db.prepare('SELECT body FROM outputs WHERE ref = ?'),
        // One statement: the write lock makes "max + 1" atomic across connections and processes.
        appendEvent: this.db.prepare(
          'INSERT INTO run_events (run_id, id, at, event) SELECT ?, COALESCE(MAX(id), 0) + 1, ?, ? FROM run_events WHERE run_id = ? RETURNING id',
        ),
        readEvents: this.db.prepare('SELECT id, at, event FROM run_events WHERE run_id = ? AND id > ? ORDER BY id LIMIT ?'),
        lastEventId: this.db.prepare('SELECT COALESCE(MAX(id), 0) AS id FROM run_events WHERE run_id = ?'),
        dataVersion: this.db.prepare('PRAGMA data_version'),
        putWorkerOffer: this.db.prepare(
          `INSERT INTO worker_offers (worker_id, task_queue, digest, offer, started_at, last_seen_at, stopped_at) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (worker_id) DO UPDATE SET task_queue = excluded.task_queue, digest = excluded.digest, offer = excluded.offer,
             started_at = excluded.started_at, last_seen_at = excluded.last_seen_at, stopped_at = excluded.stopped_at`,
        ),
        listWorkerOffers: this.db.prepare('SELECT * FROM worker_offers ORDER BY task_queue, worker_id'),
        deleteWorkerOffer: this.db.prepare('DELETE FROM worker_offers WHERE worker_id = ?'),
        own: this.db.prepare('INSERT INTO content_owners (ref, run_id) VALUES (?, ?) ON CONFLICT DO NOTHING'),
        keepRun: this.db.prepare('INSERT INTO kept_runs (run_id, reason, kept_at) VALUES (?, ?, ?) ON CONFLICT (run_id) DO UPDATE SET reason = excluded.reason'),
        keptRuns: this.db.prepare('SELECT run_id, reason, kept_at FROM kept_runs ORDER BY kept_at, run_id'),
        isKept: this.db.prepare('SELECT 1 AS kept FROM kept_runs WHERE run_id = ?'),
        // The LIKE skips the JSON parse of every other line.
        stoppedRuns: this.db.prepare(
          `SELECT t.run_id AS run_id, MAX(json_extract(t.line, '$.at')) AS stopped_at FROM trace_lines t
           WHERE t.line LIKE '%"run_stopped"%' AND json_extract(t.line, '$.type') = 'run_stopped'
             AND NOT EXISTS (SELECT 1 FROM kept_runs k WHERE k.run_id = t.run_id)
           GROUP BY t.run_id HAVING stopped_at < ? ORDER BY stopped_at, t.run_id`,
        ),
        ownedBy: this.db.prepare('SELECT ref FROM content_owners WHERE run_id = ?'),
        disown: this.db.prepare('DELETE FROM content_owners WHERE run_id = ?'),
        isOwned: this.db.prepare('SELECT 1 AS owned FROM content_owners WHERE ref = ? LIMIT 1'),
        deleteLink: this.db.prepare('DELETE FROM transcript_links WHERE hash = ?'),
        deleteOutput: this.db.prepare('DELETE FROM outputs WHERE ref = ?'),
        deleteTrace: this.db.prepare('DELETE FROM trace_lines WHERE run_id = ?'),
        deleteEvents: this.db.prepare('DELETE FROM run_events WHERE run_id = ?'),
      };
    } catch (error) {
      this.db.close();
      throw this.mapError(error);
    }
    this.fanout = new EventFanout((runId, afterId) => this.readEvents(runId, afterId));
    this.hub = hubFor(this.file);
    this.hub.on('append', this.onHub);
  }

  putLink(hash: string, link: TranscriptLink, owner?: string): Promise<void> {
    return this.call(() => {
      const body = checkedLinkBody(hash, link);
      // The owner first: a gc between the two statements then sees it and keeps the link (retention.ts).
      if (owner !== undefined) this.sql.own.run(hash, owner);
      this.sql.putLink.run(hash, link.prev, body, new Date().toISOString());
    });
  }

  getLink(hash: string): Promise<TranscriptLink | undefined> {
    return this.call(() => {
      const row = this.sql.getLink.get(hash) as { body: string } | undefined;
      return row ? verifiedLink(hash, row.body) : undefined;
    });
  }

  beginEffect(key: string, tool: string, detail: Record<string, unknown>): Promise<BeginEffectResult> {
    return this.call(() => {
      const startedAt = new Date().toISOString();
      const detailJson = JSON.stringify(detail);
      const { changes } = this.sql.beginEffect.run(key, tool, detailJson, startedAt);
      if (Number(changes) === 1) {
        return { created: true, entry: { key, tool, phase: 'started', detail: JSON.parse(detailJson) as Record<string, unknown>, startedAt } };
      }
      return { created: false, entry: toEntry(this.sql.getEffect.get(key) as unknown as EffectRow) };
    });
  }

  completeEffect(key: string, outcome: string): Promise<EffectEntry> {
    return this.call(() =>
      this.inWriteTransaction(() => {
        const row = this.sql.getEffect.get(key) as EffectRow | undefined;
        if (!row) throw new Error(`no ledger entry for ${key}: call beginEffect before completeEffect`);
        if (row.phase === 'started') this.sql.completeEffect.run(outcome, new Date().toISOString(), key);
        return toEntry(this.sql.getEffect.get(key) as unknown as EffectRow);
      }),
    );
  }

  lookupEffect(key: string): Promise<EffectEntry | undefined> {
    return this.call(() => {
      const row = this.sql.getEffect.get(key) as EffectRow | undefined;
      return row ? toEntry(row) : undefined;
    });
  }

  publishTrace(runId: string, lines: readonly TraceWrite[]): Promise<StoredEvent[]> {
    return this.call(() => {
      checkRunTrace(runId, lines);
      const events = this.inWriteTransaction(() => lines.flatMap(({ line, task }) => (this.traceRow(line, task) ? [this.eventRow(runId, line)] : [])));
      if (events.length) this.hub.emit('append', runId);
      return events;
    });
  }

  /** Whether the line is new (see `AgentStore.publishTrace`); inside a write transaction. */
  private traceRow(line: TraceLine, task: TraceTask | undefined): boolean {
    const json = JSON.stringify(line);
    const { runStartMs, historyLength } = task ?? { runStartMs: null, historyLength: null };
    if (Number(this.sql.appendTrace.run(line.runId, line.seq, json, runStartMs, historyLength).changes) === 1) return true;
    if (!task) return false;
    // The seq is taken: by this very line (a retried write), or by a task Temporal refused. Read and replace
    // under the transaction's write lock (PostgreSQL does both in one statement): no other process writes in between.
    const stored = this.sql.getTraceLine.get(line.runId, line.seq) as { line: string };
    const replaced = Number(this.sql.replaceTrace.run(json, runStartMs, historyLength, line.runId, line.seq, runStartMs, historyLength).changes) === 1;
    return replaced && !sameContent(stored.line, line);
  }

  /** `fn` under one write lock (`BEGIN IMMEDIATE`), committed, or rolled back if it throws. */
  private inWriteTransaction<T>(fn: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = fn();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  readTrace(runId: string): Promise<TraceLine[]> {
    return this.call(() => currentLines(this.sql.readTrace.all(runId) as unknown as TraceRow[]));
  }

  putOutput(text: string, owner?: string): Promise<string> {
    return this.call(() => {
      const ref = outputRef(text);
      if (owner !== undefined) this.sql.own.run(ref, owner);
      this.sql.putOutput.run(ref, text, new Date().toISOString());
      return ref;
    });
  }

  getOutput(ref: string): Promise<string | undefined> {
    return this.call(() => {
      if (!isOutputRef(ref)) throw new TypeError(`not an output reference: ${JSON.stringify(ref)} (expected output:<64 hex digits>)`);
      const row = this.sql.getOutput.get(ref) as { body: string } | undefined;
      return row ? verifiedOutput(ref, row.body) : undefined;
    });
  }

  appendEvent(runId: string, event: unknown): Promise<StoredEvent> {
    return this.call(() => {
      const stored = this.eventRow(runId, event);
      this.hub.emit('append', runId);
      return stored;
    });
  }

  /** Appends the event with the run's next id (one statement: the write lock makes "max + 1" atomic). */
  private eventRow(runId: string, event: unknown): StoredEvent {
    const json = eventJson(event);
    const at = new Date().toISOString();
    const row = this.sql.appendEvent.get(runId, at, json, runId) as { id: number };
    return { runId, id: Number(row.id), at, event: JSON.parse(json) };
  }

  readEvents(runId: string, afterId = 0, limit?: number): Promise<StoredEvent[]> {
    return this.call(() => {
      checkAfterId(afterId);
      return (this.sql.readEvents.all(runId, afterId, limit ?? -1) as unknown as EventRow[]).map((row) => toEvent(runId, row));
    });
  }

  putWorkerOffer(offer: WorkerOffer): Promise<void> {
    return this.call(() => void this.sql.putWorkerOffer.run(...workerOfferValues(offer)));
  }

  listWorkerOffers(): Promise<WorkerOffer[]> {
    return this.call(() => (this.sql.listWorkerOffers.all() as unknown as WorkerOfferRow[]).map(toWorkerOffer));
  }

  deleteWorkerOffers(workerIds: readonly string[]): Promise<void> {
    return this.call(() => this.inWriteTransaction(() => workerIds.forEach((id) => this.sql.deleteWorkerOffer.run(id))));
  }

  keepRun(runId: string, reason: string): Promise<void> {
    return this.call(() => void this.sql.keepRun.run(runId, reason, new Date().toISOString()));
  }

  keptRuns(): Promise<{ runId: string; reason: string; keptAt: string }[]> {
    return this.call(() => (this.sql.keptRuns.all() as { run_id: string; reason: string; kept_at: string }[]).map((r) => ({ runId: r.run_id, reason: r.reason, keptAt: r.kept_at })));
  }

  stoppedRuns(before: string): Promise<StoppedRun[]> {
    return this.call(() => (this.sql.stoppedRuns.all(before) as { run_id: string; stopped_at: string }[]).map((r) => ({ runId: r.run_id, stoppedAt: r.stopped_at })));
  }

  collectRun(runId: string): Promise<CollectedRun> {
    return this.call(() =>
      this.inWriteTransaction(() => {
        if (this.sql.isKept.get(runId)) return { runId, kept: true, traceLines: 0, events: 0, links: 0, outputs: 0 };
        const refs = (this.sql.ownedBy.all(runId) as { ref: string }[]).map((r) => r.ref);
        this.sql.disown.run(runId);
        let links = 0;
        let outputs = 0;
        for (const ref of refs) {
          if (this.sql.isOwned.get(ref)) continue;
          if (isOutputRef(ref)) outputs += Number(this.sql.deleteOutput.run(ref).changes);
          else links += Number(this.sql.deleteLink.run(ref).changes);
        }
        const traceLines = Number(this.sql.deleteTrace.run(runId).changes);
        const events = Number(this.sql.deleteEvents.run(runId).changes);
        return { runId, kept: false, traceLines, events, links, outputs };
      }),
    );
  }

  async subscribe(runId: string, listener: EventListener, options: SubscribeOptions = {}): Promise<Unsubscribe> {
    this.assertOpen();
    this.startPolling();
    const unsubscribe = await this.fanout.add(runId, listener, options, () =>
      this.call(() => Number((this.sql.lastEventId.get(runId) as { id: number }).id)),
    );
    return () => {
      unsubscribe();
      if (this.fanout.size === 0) this.stopPolling();
    };
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.stopPolling();
    this.fanout.clear();
    this.hub.off('append', this.onHub);
    if (this.hub.listenerCount('append') === 0) hubs.delete(this.file);
    this.db.close();
    return Promise.resolve();
  }

  private startPolling(): void {
    if (this.pollTimer) return;
    this.dataVersion = this.readDataVersion();
    this.pollTimer = setInterval(() => {
      let version: number;
      try {
        version = this.readDataVersion();
      } catch {
        return; // locked or gone for now: the next tick tries again
      }
      if (version !== this.dataVersion) {
        this.dataVersion = version;
        this.fanout.notifyAll();
      }
    }, this.pollMs);
    this.pollTimer.unref();
  }

  private stopPolling(): void {
    clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  private readDataVersion(): number {
    return Number((this.sql.dataVersion.get() as { data_version: number }).data_version);
  }

  /** Applies the schema versions above `PRAGMA user_version`, in one transaction that holds the write lock. */
  private migrate(): void {
    const migrations = sqliteMigrations();
    const latest = migrations.at(-1)!.version;
    const current = () => Number((this.db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
    if (current() >= latest) return;
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const from = current(); // another process may have migrated while we waited for the lock
      for (const migration of migrations) {
        if (migration.version <= from) continue;
        this.db.exec(migration.sql);
        this.db.exec(`PRAGMA user_version = ${migration.version}`);
      }
      this.db.exec('COMMIT');
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error(`the agent store (${this.location}) is closed`);
  }

  /** Runs a synchronous database call as a promise, with SQLite's lock and I/O errors as StoreUnavailableError. */
  private call<T>(fn: () => T): Promise<T> {
    try {
      this.assertOpen();
      return Promise.resolve(fn());
    } catch (error) {
      return Promise.reject(this.mapError(error));
    }
  }

  private mapError(error: unknown): Error {
    const err = error as { code?: string; errcode?: number; errstr?: string; message?: string };
    if (typeof err?.errcode === 'number' || err?.code === 'ERR_SQLITE_ERROR') {
      const primary = (err.errcode ?? -1) & 0xff;
      const why = err.errstr ?? err.message ?? String(error);
      const check =
        primary === SQLITE_BUSY || primary === SQLITE_LOCKED
          ? `another process held the database lock for over ${this.busyTimeoutMs} ms: check for a stuck process using this file`
          : primary === SQLITE_CANTOPEN || primary === SQLITE_READONLY
            ? 'check that the directory exists and is writable by this user (AGENT_DATA_DIR / AGENT_STORE_URL)'
            : primary === SQLITE_IOERR || primary === SQLITE_FULL
              ? 'check the disk (space, permissions, I/O errors)'
              : undefined;
      if (check) return new StoreUnavailableError(this.location, why, check, { cause: error });
    }
    const code = (error as NodeJS.ErrnoException)?.code;
    if (code === 'EACCES' || code === 'EROFS' || code === 'ENOSPC' || code === 'ENOTDIR' || code === 'EPERM') {
      return new StoreUnavailableError(this.location, (error as Error).message, 'check that the data directory can be created and written', { cause: error });
    }
    return error instanceof Error ? error : new Error(String(error));
  }
}
