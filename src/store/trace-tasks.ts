/**
 * Which workflow task wrote a trace line, so that a task Temporal did not accept leaves no line behind.
 *
 * The worker writes a task's lines before it reports the task done (the sink is awaited), and the server
 * can still refuse it: a signal came in while the task was completing the run (UnhandledCommand), or the
 * task timed out after its lines were written (its worker died). The task that replaces it replays the
 * run and numbers its lines from the same seq, but what it emits can differ (it handles the signal too).
 * So a line carries its task, which orders it against every other task of the run: when the task's
 * execution began (an execution continued-as-new begins after the last task of the one before) and the
 * execution's history length when the task started (it grows with every task). Then:
 * - a line of a later task takes the place of a stored line with the same seq;
 * - when the trace is read, a line of an earlier task at or after a seq that a later task wrote is left
 *   out (the refused task had written more lines than its replacement).
 * An accepted task's lines were all written before the next task started, so no later task writes at or
 * before their seqs: they are never superseded. Lines written without a task keep the first line written.
 */
import type { TraceLine } from '../wire/trace-events.ts';

export interface TraceTask {
  /** When the task's execution began (epoch ms: Temporal's `runStartTime`). */
  runStartMs: number;
  /** The execution's history length when the task started. */
  historyLength: number;
}

/** A stored trace line with the task that wrote it (nulls: written without one). */
export interface TraceRow {
  line: string;
  /** Numbers (SQLite) or decimal strings (PostgreSQL bigint). */
  run_start_ms: number | string | null;
  history_length: number | string | null;
}

/** Whether two lines say the same thing (`at` is the workflow time of the task that wrote them). */
export function sameContent(storedJson: string, line: TraceLine): boolean {
  const { at: _storedAt, ...stored } = JSON.parse(storedJson) as TraceLine;
  const { at: _at, ...written } = line;
  return JSON.stringify(stored) === JSON.stringify(written);
}

/** The run's lines, ordered by seq, without those a later task superseded. */
export function currentLines(rowsBySeq: readonly TraceRow[]): TraceLine[] {
  // A line is superseded when a later task wrote at or before its seq: walking the lines in seq order,
  // the latest task seen so far tells.
  let latest: TraceTask | null = null;
  const lines: TraceLine[] = [];
  for (const row of rowsBySeq) {
    if (row.run_start_ms !== null && row.history_length !== null) {
      const task = { runStartMs: Number(row.run_start_ms), historyLength: Number(row.history_length) };
      if (latest && isEarlier(task, latest)) continue;
      latest = task;
    }
    lines.push(JSON.parse(row.line) as TraceLine);
  }
  return lines;
}

function isEarlier(a: TraceTask, b: TraceTask): boolean {
  return a.runStartMs < b.runStartMs || (a.runStartMs === b.runStartMs && a.historyLength < b.historyLength);
}
