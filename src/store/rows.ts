/** Database rows to store values, shared by both implementations (their tables have the same columns). */
import type { EffectEntry, StoredEvent } from './store.ts';
import type { WorkerOffer } from '../offers/offer.ts';

export interface EffectRow {
  key: string;
  tool: string;
  phase: 'started' | 'done';
  /** JSON object. */
  detail: string;
  outcome: string | null;
  started_at: string;
  done_at: string | null;
}

export interface EventRow {
  /** A number (SQLite) or a decimal string (PostgreSQL bigint). */
  id: number | string;
  at: string;
  /** JSON. */
  event: string;
}

export function toEntry(row: EffectRow): EffectEntry {
  const entry: EffectEntry = {
    key: row.key,
    tool: row.tool,
    phase: row.phase,
    detail: JSON.parse(row.detail) as Record<string, unknown>,
    startedAt: row.started_at,
  };
  if (row.outcome !== null) entry.outcome = row.outcome;
  if (row.done_at !== null) entry.doneAt = row.done_at;
  return entry;
}

export function toEvent(runId: string, row: EventRow): StoredEvent {
  return { runId, id: Number(row.id), at: row.at, event: JSON.parse(row.event) };
}

/** A `worker_offers` row as both stores return it. */
export interface WorkerOfferRow {
  worker_id: string;
  task_queue: string;
  digest: string;
  offer: string;
  started_at: string;
  last_seen_at: string;
  stopped_at: string | null;
}

export function toWorkerOffer(row: WorkerOfferRow): WorkerOffer {
  const { tools, agents } = JSON.parse(row.offer) as Pick<WorkerOffer, 'tools' | 'agents'>;
  return { workerId: row.worker_id, taskQueue: row.task_queue, digest: row.digest, tools, agents, startedAt: row.started_at, lastSeenAt: row.last_seen_at, stoppedAt: row.stopped_at };
}

/** The row's values in column order: worker_id, task_queue, digest, offer, started_at, last_seen_at, stopped_at. */
export function workerOfferValues(offer: WorkerOffer): [string, string, string, string, string, string, string | null] {
  return [offer.workerId, offer.taskQueue, offer.digest, JSON.stringify({ tools: offer.tools, agents: offer.agents }), offer.startedAt, offer.lastSeenAt, offer.stoppedAt];
}
