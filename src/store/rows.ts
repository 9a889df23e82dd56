/** Database rows to store values, shared by both implementations (their tables have the same columns). */
import type { EffectEntry, StoredEvent } from './store.ts';

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
