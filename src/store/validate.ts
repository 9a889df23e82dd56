/** Checks on what callers hand the store, shared by both implementations. */
import type { TraceLine } from '../wire/trace-events.ts';

export function checkTraceLine(line: TraceLine): void {
  if (typeof line?.runId !== 'string' || line.runId === '') throw new TypeError('a trace line needs a runId');
  if (!Number.isSafeInteger(line.seq) || line.seq < 1) throw new TypeError(`a trace line needs a positive integer seq (got ${String(line.seq)})`);
}

/** `publishTrace`'s lines: valid, and all of the run named (one run's event ids are taken in one transaction). */
export function checkRunTrace(runId: string, lines: readonly { line: TraceLine }[]): void {
  for (const { line } of lines) {
    checkTraceLine(line);
    if (line.runId !== runId) throw new TypeError(`publishTrace(${JSON.stringify(runId)}) was given a line of run ${JSON.stringify(line.runId)}: publish each run's lines apart`);
  }
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
