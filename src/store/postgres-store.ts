/**
 * The cluster store: PostgreSQL through `pg`, a pool shared by all calls, migrations applied on open
 * (postgres-migrations.ts). Uniqueness is the database's (primary keys + `ON CONFLICT DO NOTHING`), so
 * it holds across hosts; a ledger entry moves from started to done in a transaction; run events are
 * announced by a trigger with NOTIFY and heard on one dedicated LISTEN connection per store instance,
 * which reconnects by itself after an outage and then lets every subscription catch up.
 *
 * Connection failures (server down, network, shutting down, missing database, refused credentials) reject
 * with StoreUnavailableError; the pool reconnects on its own once the server is back.
 */
import pg from 'pg';
import type { ClientConfig, Notification, PoolClient } from 'pg';
import type { TraceLine } from '../wire/trace-events.ts';
import { checkedLinkBody, isOutputRef, outputRef, verifiedLink, verifiedOutput } from './content-address.ts';
import { EventFanout } from './event-fanout.ts';
import { migratePostgres } from './postgres-migrations.ts';
import { toStoreError } from './postgres-errors.ts';
import { toEntry, toEvent, toWorkerOffer, workerOfferValues, type EffectRow, type EventRow, type WorkerOfferRow } from './rows.ts';
import type { WorkerOffer } from '../offers/offer.ts';
import type {
  AgentStore,
  BeginEffectResult,
  CollectedRun,
  EffectEntry,
  EventListener,
  StoppedRun,
  StoredEvent,
  SubscribeOptions,
  TraceWrite,
  Unsubscribe,
} from './store.ts';
import type { TranscriptLink } from '../wire/transcript-link.ts';
import { checkAfterId, checkRunTrace, eventJson } from './validate.ts';
import { currentLines, sameContent, type TraceRow, type TraceTask } from './trace-tasks.ts';

export interface PostgresStoreOptions {
  /** Pool size (default 10). */
  maxConnections?: number;
  /** How long to wait for a connection before failing with StoreUnavailableError (default 5000 ms). */
  connectTimeoutMs?: number;
  /** A query unanswered for this long fails with StoreUnavailableError and its connection is dropped (default 30000 ms). */
  queryTimeoutMs?: number;
  /** Longest wait between attempts to re-establish the LISTEN connection (default 2000 ms). */
  maxReconnectDelayMs?: number;
  /**
   * How often the LISTEN connection is checked while it is idle (default 30000 ms): a connection that
   * silently died (a network partition, a failover) is replaced, and subscriptions catch up.
   */
  listenerCheckMs?: number;
}

const CHANNEL = 'agent_run_events';

/** A query on the pool or on a transaction's connection. */
type Query = <R extends pg.QueryResultRow>(sql: string, params: unknown[]) => Promise<pg.QueryResult<R>>;

/** Whether the line is new (see `AgentStore.publishTrace`). */
async function traceRow(query: Query, line: TraceLine, task: TraceTask | undefined): Promise<boolean> {
  const json = JSON.stringify(line);
  const inserted = await query(
    'INSERT INTO trace_lines (run_id, seq, line, run_start_ms, history_length) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (run_id, seq) DO NOTHING',
    [line.runId, line.seq, json, task?.runStartMs ?? null, task?.historyLength ?? null],
  );
  if (inserted.rowCount === 1) return true;
  if (!task) return false;
  // The seq is taken: by this very line (a retried write), or by a task Temporal refused, whose line
  // only a later workflow task takes over (trace-tasks.ts). `old` is the line as the statement began.
  const { rows } = await query<{ old: string }>(
    `WITH old AS (SELECT line FROM trace_lines WHERE run_id = $1 AND seq = $2)
     UPDATE trace_lines SET line = $3, run_start_ms = $4, history_length = $5
     WHERE run_id = $1 AND seq = $2 AND (run_start_ms, history_length) < ($4, $5)
     RETURNING (SELECT line FROM old) AS old`,
    [line.runId, line.seq, json, task.runStartMs, task.historyLength],
  );
  return rows.length === 1 && !sameContent(rows[0]!.old, line);
}

/** Appends the event with the run's next id. */
async function eventRow(query: Query, runId: string, event: unknown): Promise<StoredEvent> {
  const json = eventJson(event);
  const at = new Date().toISOString();
  // One statement: the run's head row is locked from the id's allocation to the commit, so ids are
  // committed in order and a reader never sees id n+1 before n.
  const { rows } = await query<{ id: string }>(
    `WITH next AS (
       INSERT INTO run_event_heads AS h (run_id, last_id) VALUES ($1, 1)
       ON CONFLICT (run_id) DO UPDATE SET last_id = h.last_id + 1
       RETURNING last_id)
     INSERT INTO run_events (run_id, id, at, event) SELECT $1, last_id, $2, $3 FROM next RETURNING id`,
    [runId, at, json],
  );
  return { runId, id: Number(rows[0]!.id), at, event: JSON.parse(json) };
}

/** `PostgreSQL at host:port/database`, from the URL without its credentials. */
export function describePostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const host = parsed.searchParams.get('host') ?? (parsed.hostname || 'localhost');
    return `PostgreSQL at ${host}:${parsed.port || '5432'}${parsed.pathname || '/'}`;
  } catch {
    return 'PostgreSQL (unparsable AGENT_STORE_URL)';
  }
}

export class PostgresStore implements AgentStore {
  readonly kind = 'postgres' as const;
  readonly location: string;
  private readonly config: ClientConfig;
  private readonly pool: pg.Pool;
  private readonly fanout: EventFanout;
  private readonly maxReconnectDelayMs: number;
  private readonly listenerCheckMs: number;
  private listenerCheck: NodeJS.Timeout | undefined;
  private migrated: Promise<void> | undefined;
  private listener: pg.Client | undefined;
  private listening: Promise<void> | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectDelayMs = 100;
  private closed = false;

  /** Connects and applies migrations; rejects with StoreUnavailableError if the server cannot be reached. */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const store = new PostgresStore(url, options);
    try {
      await store.ready();
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  /** Makes a store without connecting; migrations run on first use (see `open`). */
  constructor(url: string, options: PostgresStoreOptions = {}) {
    this.location = describePostgresUrl(url);
    this.config = {
      connectionString: url,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      query_timeout: options.queryTimeoutMs ?? 30_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      application_name: 'agent-store',
    };
    this.pool = new pg.Pool({ ...this.config, max: options.maxConnections ?? 10, idleTimeoutMillis: 30_000 });
    // An idle client whose server went away: the pool drops it and the next query makes a new one.
    this.pool.on('error', () => undefined);
    this.maxReconnectDelayMs = options.maxReconnectDelayMs ?? 2000;
    this.listenerCheckMs = options.listenerCheckMs ?? 30_000;
    this.fanout = new EventFanout((runId, afterId) => this.readEvents(runId, afterId));
  }

  /** Applies migrations once (retried on the next call if the server could not be reached). */
  ready(): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`the agent store (${this.location}) is closed`));
    this.migrated ??= this.withClient((client) => migratePostgres(client)).then(
      () => undefined,
      (error: unknown) => {
        this.migrated = undefined;
        throw error;
      },
    );
    return this.migrated;
  }

  async putLink(hash: string, link: TranscriptLink, owner?: string): Promise<void> {
    const body = checkedLinkBody(hash, link);
    // The owner first, committed: a gc that runs meanwhile sees it and keeps the link (retention.ts).
    if (owner !== undefined) await this.own(hash, owner);
    await this.query('INSERT INTO transcript_links (hash, prev, body) VALUES ($1, $2, $3) ON CONFLICT (hash) DO NOTHING', [hash, link.prev, body]);
  }

  async getLink(hash: string): Promise<TranscriptLink | undefined> {
    const { rows } = await this.query<{ body: string }>('SELECT body FROM transcript_links WHERE hash = $1', [hash]);
    return rows[0] ? verifiedLink(hash, rows[0].body) : undefined;
  }

  async beginEffect(key: string, tool: string, detail: Record<string, unknown>): Promise<BeginEffectResult> {
    const detailJson = JSON.stringify(detail);
    const startedAt = new Date().toISOString();
    // A concurrent begin of the same key waits here until the other commits, then does nothing.
    const inserted = await this.query(
      "INSERT INTO effects (key, tool, phase, detail, started_at) VALUES ($1, $2, 'started', $3, $4) ON CONFLICT (key) DO NOTHING",
      [key, tool, detailJson, startedAt],
    );
    if (inserted.rowCount === 1) {
      return { created: true, entry: { key, tool, phase: 'started', detail: JSON.parse(detailJson) as Record<string, unknown>, startedAt } };
    }
    const { rows } = await this.query<EffectRow>('SELECT * FROM effects WHERE key = $1', [key]);
    return { created: false, entry: toEntry(rows[0]!) };
  }

  async completeEffect(key: string, outcome: string): Promise<EffectEntry> {
    return this.transaction(async (client) => {
      const { rows } = await client.query<EffectRow>('SELECT * FROM effects WHERE key = $1 FOR UPDATE', [key]);
      const row = rows[0];
      if (!row) throw new Error(`no ledger entry for ${key}: call beginEffect before completeEffect`);
      if (row.phase === 'done') return toEntry(row);
      const updated = await client.query<EffectRow>("UPDATE effects SET phase = 'done', outcome = $2, done_at = $3 WHERE key = $1 RETURNING *", [
        key,
        outcome,
        new Date().toISOString(),
      ]);
      return toEntry(updated.rows[0]!);
    });
  }

  async lookupEffect(key: string): Promise<EffectEntry | undefined> {
    const { rows } = await this.query<EffectRow>('SELECT * FROM effects WHERE key = $1', [key]);
    return rows[0] ? toEntry(rows[0]) : undefined;
  }

  async publishTrace(runId: string, lines: readonly TraceWrite[]): Promise<StoredEvent[]> {
    checkRunTrace(runId, lines);
    return this.transaction(async (client) => {
      const query: Query = (sql, params) => client.query(sql, params);
      const events: StoredEvent[] = [];
      for (const { line, task } of lines) if (await traceRow(query, line, task)) events.push(await eventRow(query, runId, line));
      return events;
    });
  }

  async readTrace(runId: string): Promise<TraceLine[]> {
    const { rows } = await this.query<TraceRow>('SELECT line, run_start_ms, history_length FROM trace_lines WHERE run_id = $1 ORDER BY seq', [runId]);
    return currentLines(rows);
  }

  async putOutput(text: string, owner?: string): Promise<string> {
    const ref = outputRef(text);
    if (owner !== undefined) await this.own(ref, owner);
    await this.query('INSERT INTO outputs (ref, body) VALUES ($1, $2) ON CONFLICT (ref) DO NOTHING', [ref, text]);
    return ref;
  }

  async getOutput(ref: string): Promise<string | undefined> {
    if (!isOutputRef(ref)) throw new TypeError(`not an output reference: ${JSON.stringify(ref)} (expected output:<64 hex digits>)`);
    const { rows } = await this.query<{ body: string }>('SELECT body FROM outputs WHERE ref = $1', [ref]);
    return rows[0] ? verifiedOutput(ref, rows[0].body) : undefined;
  }

  private async own(ref: string, runId: string): Promise<void> {
    await this.query('INSERT INTO content_owners (ref, run_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [ref, runId]);
  }

  async keepRun(runId: string, reason: string): Promise<void> {
    await this.query('INSERT INTO kept_runs (run_id, reason, kept_at) VALUES ($1, $2, $3) ON CONFLICT (run_id) DO UPDATE SET reason = excluded.reason', [
      runId,
      reason,
      new Date().toISOString(),
    ]);
  }

  async keptRuns(): Promise<{ runId: string; reason: string; keptAt: string }[]> {
    const { rows } = await this.query<{ run_id: string; reason: string; kept_at: string }>('SELECT run_id, reason, kept_at FROM kept_runs ORDER BY kept_at, run_id', []);
    return rows.map((r) => ({ runId: r.run_id, reason: r.reason, keptAt: r.kept_at }));
  }

  async stoppedRuns(before: string): Promise<StoppedRun[]> {
    // The LIKE skips the JSON parse of every other line.
    const { rows } = await this.query<{ run_id: string; stopped_at: string }>(
      `SELECT t.run_id, MAX(t.line::jsonb ->> 'at') AS stopped_at FROM trace_lines t
       WHERE t.line LIKE '%"run_stopped"%' AND t.line::jsonb ->> 'type' = 'run_stopped'
         AND NOT EXISTS (SELECT 1 FROM kept_runs k WHERE k.run_id = t.run_id)
       GROUP BY t.run_id HAVING MAX(t.line::jsonb ->> 'at') < $1 ORDER BY stopped_at, t.run_id`,
      [before],
    );
    return rows.map((r) => ({ runId: r.run_id, stoppedAt: r.stopped_at }));
  }

  async collectRun(runId: string): Promise<CollectedRun> {
    return this.transaction(async (client) => {
      // FOR SHARE: a keepRun of this run waits for the collection, or the collection sees it.
      const kept = await client.query('SELECT 1 FROM kept_runs WHERE run_id = $1 FOR SHARE', [runId]);
      if (kept.rowCount) return { runId, kept: true, traceLines: 0, events: 0, links: 0, outputs: 0 };
      const refs = (await client.query<{ ref: string }>('DELETE FROM content_owners WHERE run_id = $1 RETURNING ref', [runId])).rows.map((r) => r.ref);
      const orphan = 'AND NOT EXISTS (SELECT 1 FROM content_owners o WHERE o.ref = ';
      const links = await client.query(`DELETE FROM transcript_links l WHERE l.hash = ANY($1) ${orphan}l.hash)`, [refs]);
      const outputs = await client.query(`DELETE FROM outputs x WHERE x.ref = ANY($1) ${orphan}x.ref)`, [refs]);
      const traceLines = await client.query('DELETE FROM trace_lines WHERE run_id = $1', [runId]);
      const events = await client.query('DELETE FROM run_events WHERE run_id = $1', [runId]);
      await client.query('DELETE FROM run_event_heads WHERE run_id = $1', [runId]);
      return { runId, kept: false, traceLines: traceLines.rowCount ?? 0, events: events.rowCount ?? 0, links: links.rowCount ?? 0, outputs: outputs.rowCount ?? 0 };
    });
  }

  async appendEvent(runId: string, event: unknown): Promise<StoredEvent> {
    return eventRow((sql, params) => this.query(sql, params), runId, event);
  }

  async readEvents(runId: string, afterId = 0, limit?: number): Promise<StoredEvent[]> {
    checkAfterId(afterId);
    const { rows } = await this.query<EventRow>('SELECT id, at, event FROM run_events WHERE run_id = $1 AND id > $2 ORDER BY id LIMIT $3', [
      runId,
      afterId,
      limit ?? null,
    ]);
    return rows.map((row) => toEvent(runId, row));
  }

  async putWorkerOffer(offer: WorkerOffer): Promise<void> {
    await this.query(
      `INSERT INTO worker_offers (worker_id, task_queue, digest, offer, started_at, last_seen_at, stopped_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (worker_id) DO UPDATE SET task_queue = EXCLUDED.task_queue, digest = EXCLUDED.digest, offer = EXCLUDED.offer,
         started_at = EXCLUDED.started_at, last_seen_at = EXCLUDED.last_seen_at, stopped_at = EXCLUDED.stopped_at`,
      workerOfferValues(offer),
    );
  }

  async listWorkerOffers(): Promise<WorkerOffer[]> {
    const { rows } = await this.query<WorkerOfferRow>('SELECT * FROM worker_offers ORDER BY task_queue, worker_id', []);
    return rows.map(toWorkerOffer);
  }

  async deleteWorkerOffers(workerIds: readonly string[]): Promise<void> {
    if (workerIds.length) await this.query('DELETE FROM worker_offers WHERE worker_id = ANY($1)', [[...workerIds]]);
  }

  async subscribe(runId: string, listener: EventListener, options: SubscribeOptions = {}): Promise<Unsubscribe> {
    await this.ready();
    await this.listen();
    return this.fanout.add(runId, listener, options, async () => {
      const { rows } = await this.query<{ last_id: string }>('SELECT last_id FROM run_event_heads WHERE run_id = $1', [runId]);
      return rows[0] ? Number(rows[0].last_id) : 0;
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.listenerCheck);
    this.fanout.clear();
    const listener = this.listener;
    this.listener = undefined;
    await Promise.all([listener?.end().catch(() => undefined), this.pool.end().catch(() => undefined)]);
  }

  // ── connections ─────────────────────────────────────────────────────────────────────────────────────

  private async query<R extends object = Record<string, unknown>>(sql: string, params: unknown[]): Promise<pg.QueryResult<R>> {
    await this.ready();
    try {
      return await this.pool.query<R>(sql, params);
    } catch (error) {
      throw toStoreError(error, this.location);
    }
  }

  private async transaction<T>(fn: (client: PoolClient) => Promise<T>): Promise<T> {
    await this.ready();
    return this.withClient(async (client) => {
      await client.query('BEGIN');
      try {
        const result = await fn(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  private async withClient<T>(fn: (client: PoolClient) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw toStoreError(error, this.location);
    }
    let broken: Error | undefined;
    // The pool listens for errors of idle clients only: a connection lost while this one is checked out emits
    // 'error' on it (besides failing its query), an uncaught exception that would end the process.
    const lost = (error: Error) => (broken = error);
    client.on('error', lost);
    try {
      return await fn(client);
    } catch (error) {
      const mapped = toStoreError(error, this.location);
      // A client whose connection failed is not given back to the pool.
      if (mapped !== error) broken = error as Error;
      throw mapped;
    } finally {
      client.removeListener('error', lost);
      client.release(broken);
    }
  }

  /** Establishes the LISTEN connection once; later losses are repaired by `reconnect`. */
  private listen(): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`the agent store (${this.location}) is closed`));
    this.listening ??= this.connectListener().catch((error: unknown) => {
      this.listening = undefined;
      throw toStoreError(error, this.location);
    });
    return this.listening;
  }

  private async connectListener(): Promise<void> {
    const client = new pg.Client(this.config);
    const lost = () => this.lostListener(client);
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message: Notification) => {
      if (message.channel === CHANNEL && message.payload !== undefined) this.fanout.notify(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      client.removeListener('end', lost);
      client.removeListener('error', lost);
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.listener = client;
    clearInterval(this.listenerCheck);
    this.listenerCheck = setInterval(() => {
      client.query('SELECT 1').catch(lost); // query_timeout bounds the wait
    }, this.listenerCheckMs);
    this.listenerCheck.unref();
  }

  private lostListener(client: pg.Client): void {
    if (this.listener !== client) return;
    this.listener = undefined;
    this.listening = undefined;
    clearInterval(this.listenerCheck);
    client.on('error', () => undefined);
    client.end().catch(() => undefined);
    this.reconnect();
  }

  /** Re-establishes LISTEN with backoff, then lets every subscription read what it missed meanwhile. */
  private reconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      // With no subscriber left, the next subscribe() connects again.
      if (this.closed || this.fanout.size === 0) return;
      this.listen().then(
        () => {
          this.reconnectDelayMs = 100;
          this.fanout.notifyAll();
        },
        () => {
          this.reconnectDelayMs = Math.min(this.reconnectDelayMs * 2, this.maxReconnectDelayMs);
          this.reconnect();
        },
      );
    }, this.reconnectDelayMs);
    this.reconnectTimer.unref();
  }
}
