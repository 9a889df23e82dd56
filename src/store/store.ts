/**
 * The one store for everything the harness keeps outside Temporal history (README, "The store"): transcript
 * links, side-effect ledger entries, trace lines, large tool outputs and run event streams. Every
 * worker host reaches the same store, so a run can move between hosts. Two implementations behind this
 * interface, chosen by `AGENT_STORE_URL` (see open-store.ts): an embedded SQLite file (sqlite-store.ts)
 * and PostgreSQL (postgres-store.ts).
 *
 * Failures: every method may reject with StoreUnavailableError (the store cannot be reached: retry
 * later); reads of content-addressed data reject with StoreIntegrityError when the stored bytes do not
 * hash to their name. Both are in errors.ts.
 */
import type { TranscriptLink } from '../wire/transcript-link.ts';
import type { TraceLine } from '../wire/trace-events.ts';
import type { TraceTask } from './trace-tasks.ts';
import type { WorkerOffer } from '../offers/offer.ts';

/** A trace line and the workflow task that wrote it (none: written outside a task). */
export interface TraceWrite {
  line: TraceLine;
  task?: TraceTask;
}

/** A run whose trace says it stopped, and when (the `run_stopped` line's `at`). */
export interface StoppedRun {
  runId: string;
  stoppedAt: string;
}

/** What `collectRun` removed (all 0 and `kept: true` when the run is kept). */
export interface CollectedRun {
  runId: string;
  kept: boolean;
  traceLines: number;
  events: number;
  links: number;
  outputs: number;
}

/** A side-effect ledger entry, unique by idempotency key. */
export interface EffectEntry {
  /** The idempotency key, `<runId>:<runKey>`: the run (its workflow id) and the tool run's key within it (see ToolContext). */
  key: string;
  tool: string;
  /** `started` is written before the effect, `done` after it, with the outcome reported. */
  phase: 'started' | 'done';
  /** What the first attempt recorded before acting (e.g. whether the file existed). */
  detail: Record<string, unknown>;
  /** The outcome reported to the model; set once `done`. */
  outcome?: string;
  /** ISO times. */
  startedAt: string;
  doneAt?: string;
}

export interface BeginEffectResult {
  /** True when this call wrote the `started` entry; false when an entry for the key already existed. */
  created: boolean;
  /** The entry now stored: this call's, or the earlier one (`started` or `done`), unchanged. */
  entry: EffectEntry;
}

/** One event of a run's live stream. */
export interface StoredEvent {
  runId: string;
  /** 1, 2, 3, … per run, in the order the events were appended; never reused. */
  id: number;
  /** ISO time the event was appended. */
  at: string;
  /** The event as appended (any JSON value). */
  event: unknown;
}

export type EventListener = (event: StoredEvent) => void;

export interface SubscribeOptions {
  /**
   * Deliver events after this id too (catch-up, e.g. from an SSE `Last-Event-ID`); by default only
   * events appended after the subscription is established.
   */
  afterId?: number;
  /**
   * Called when a listener throws or a catch-up read fails (e.g. StoreUnavailableError during an outage;
   * the subscription stays and catches up once the store is back). By default such errors are dropped.
   */
  onError?: (error: unknown) => void;
}

/** Stops a subscription; no listener call happens after it returns. */
export type Unsubscribe = () => void;

/** What a side-effect tool needs of the store: its ledger. */
export type EffectLedger = Pick<AgentStore, 'beginEffect' | 'completeEffect' | 'lookupEffect'>;

/** The store: transcript links, the side-effect ledger, trace lines and run event streams (SQLite or PostgreSQL). */
export interface AgentStore {
  readonly kind: 'sqlite' | 'postgres';
  /** Where the store is, for messages and logs (never contains a password). */
  readonly location: string;

  // ── Transcript links: content-addressed, immutable ────────────────────────────────────────────────
  /**
   * Stores `link` under `hash`, which must be `linkHash(link)` (src/wire/transcript-link.ts: the name the
   * workflow gives the link): a mismatch rejects with StoreIntegrityError and stores nothing. Putting an
   * existing hash stores nothing new. `owner`: the run that uses the link (its workflow id), recorded even
   * when the link was stored before; `gc` removes a link once no kept run owns it (retention.ts).
   */
  putLink(hash: string, link: TranscriptLink, owner?: string): Promise<void>;
  /**
   * The link stored under `hash`, or undefined if there is none. The store verifies that the stored
   * content hashes to `hash` and rejects with StoreIntegrityError otherwise: a caller never sees a
   * link that differs from the one its hash names. (Walking the chain via `prev` is the caller's.)
   */
  getLink(hash: string): Promise<TranscriptLink | undefined>;

  // ── Side-effect ledger: unique by idempotency key ─────────────────────────────────────────────────
  /**
   * Records `started` for `key` before the effect, atomically: of any number of concurrent begins for
   * one key (from any host) exactly one gets `created: true`; every other call gets the stored entry
   * (which may be `started` — an attempt that may have died mid-effect — or `done`).
   */
  beginEffect(key: string, tool: string, detail: Record<string, unknown>): Promise<BeginEffectResult>;
  /**
   * Moves `key` from `started` to `done` with `outcome` (one transaction) and returns the stored entry.
   * If the key is already `done`, nothing changes and the first outcome is returned: report
   * `entry.outcome`. Rejects if the key was never begun.
   */
  completeEffect(key: string, outcome: string): Promise<EffectEntry>;
  lookupEffect(key: string): Promise<EffectEntry | undefined>;

  // ── Traces: unique by run id + seq ────────────────────────────────────────────────────────────────
  /**
   * Appends one run's trace lines in order, each written by the workflow task given with it, and each line
   * that is new to the run's event stream, all in one transaction: a line is never stored without its
   * event, even if the process dies between them, and nothing is written if any write fails. Resolves to
   * the events appended. Every line must be of `runId`, with a positive integer `seq` (else TypeError).
   * A line whose (runId, seq) is already stored is not new and is dropped, unless an earlier task wrote
   * the stored one: then that was a refused task's line and this one takes its place (new if it says
   * something else). See trace-tasks.ts.
   */
  publishTrace(runId: string, lines: readonly TraceWrite[]): Promise<StoredEvent[]>;
  /** The run's trace lines ordered by seq, from whichever host wrote them, without any a refused task left. */
  readTrace(runId: string): Promise<TraceLine[]>;

  // ── Large tool outputs: content-addressed ─────────────────────────────────────────────────────────
  /** Stores `text` and returns its reference, `output:<hex>`, the SHA-256 of its UTF-8 bytes (`outputRef` of content-address.ts); the same text twice is one row. */
  /** `owner`: the run that keeps the output (as for `putLink`). */
  putOutput(text: string, owner?: string): Promise<string>;
  /** The text stored under `ref`, or undefined; StoreIntegrityError if it does not hash to `ref`. */
  getOutput(ref: string): Promise<string | undefined>;

  // ── Run events (live streams) ─────────────────────────────────────────────────────────────────────
  /** Appends `event` (a JSON value) to the run's stream with the next id (1, 2, …) and notifies subscribers. */
  appendEvent(runId: string, event: unknown): Promise<StoredEvent>;
  /** The run's events with id > afterId (default 0), in id order, at most `limit` (default all). */
  readEvents(runId: string, afterId?: number, limit?: number): Promise<StoredEvent[]>;
  /**
   * Calls `listener` with each event appended to the run after the returned promise resolves — by this
   * or any other store instance on the same store (PostgreSQL: any host, via LISTEN/NOTIFY; SQLite:
   * immediately within this process, within ~0.2 s from other processes) — once each, in id order.
   * After a notification is lost (e.g. the PostgreSQL connection dropped) the subscription catches up
   * on its own, so no event is skipped.
   */
  subscribe(runId: string, listener: EventListener, options?: SubscribeOptions): Promise<Unsubscribe>;

  // ── Worker offers: one row per worker (src/offers/) ───────────────────────────────────────────────
  /** Writes the worker's publication, replacing any earlier one of the same `workerId`. */
  putWorkerOffer(offer: WorkerOffer): Promise<void>;
  /** Every publication stored, of every task queue, live or not (`isLive` in offers/offer.ts tells). */
  listWorkerOffers(): Promise<WorkerOffer[]>;
  /** Removes these workers' publications (unknown ids are ignored). */
  deleteWorkerOffers(workerIds: readonly string[]): Promise<void>;

  // ── Retention (retention.ts, docs/operations-retention.md) ────────────────────────────────────────
  /** Keeps the run from `gc` for good (`record` does, for the run and its children); again: the reason is replaced. */
  keepRun(runId: string, reason: string): Promise<void>;
  /** The runs kept from gc, with why. */
  keptRuns(): Promise<{ runId: string; reason: string; keptAt: string }[]>;
  /**
   * Runs whose trace holds a `run_stopped` line timed before `before` (ISO), oldest first: the store's
   * evidence that a run has finished. Kept runs are not listed.
   */
  stoppedRuns(before: string): Promise<StoppedRun[]>;
  /**
   * Removes the run's trace lines, events and ownership of content, then the transcript links and outputs
   * no run owns any more, in one transaction; a kept run is left alone (`kept: true`). The caller decides
   * that the run has finished (retention.ts): this method does not check.
   */
  collectRun(runId: string): Promise<CollectedRun>;

  /** Closes connections and timers; the store is unusable afterwards. Idempotent. */
  close(): Promise<void>;
}
