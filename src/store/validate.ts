/** Checks on what callers hand the store, shared by both implementations. */
import type { TraceLine } from '../wire/trace-events.ts';

export function checkTraceLine(line: TraceLine): void {
  if (typeof line?.runId !== 'string' || line.runId === '') throw new TypeError('a trace line needs a runId');
  if (!Number.isSafeInteger(line.seq) || line.seq < 1) throw new TypeError(`a trace line needs a positive integer seq (got ${String(line.seq)})`);
}

/** The JSON text of an event; undefined, functions and symbols are refused rather than stored as nothing. */
export function eventJson(event: unknown): string {
  const json = JSON.stringify(event) as string | undefined;
  if (json === undefined) throw new TypeError('a run event must be a JSON value');
  return json;
}

export function checkAfterId(afterId: number): void {
  if (!Number.isSafeInteger(afterId) || afterId < 0) throw new TypeError(`afterId must be a non-negative integer (got ${String(afterId)})`);
}
