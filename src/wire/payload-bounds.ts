/**
 * Size bounds for everything that crosses the Temporal boundary. Temporal refuses a payload over 2 MiB
 * and a workflow task completion over 4 MiB, and a refused completion is retried for ever: a run must
 * never get near either. Pure helpers, shared by the workflow, the activities and the client.
 */

/** What the model sees of one tool result when the tool's contract does not say otherwise. */
export const DEFAULT_MAX_OUTPUT_CHARS = 64 * 1024;
/** All tool messages of one turn together (they travel in one model-call input). */
export const MAX_TURN_TOOL_CHARS = 1024 * 1024;
/** One model reply (text and tool calls with their arguments). */
export const MAX_REPLY_CHARS = 256 * 1024;
export const MAX_GOAL_CHARS = 32 * 1024;
export const MAX_SYSTEM_CHARS = 32 * 1024;
/** An answer to an ask_user question. */
export const MAX_ANSWER_CHARS = 16 * 1024;
/** A rejection's reason, an approver's name. */
export const MAX_REASON_CHARS = 2000;

/** Where a full output that did not fit is kept: in the trace and the truncation note. */
export interface KeptOutput {
  ref: string;
  chars: number;
}

/**
 * The first `max` characters of `text` and a note the model can read, or `text` itself when it fits.
 * `kept` names where the whole text is (when it was stored).
 */
export function truncateForModel(text: string, max: number, kept?: KeptOutput): string {
  if (text.length <= max) return text;
  const where = kept ? `; the full output is kept as ${kept.ref}` : '';
  return `${text.slice(0, max)}\n… truncated: ${formatCount(text.length)} characters, first ${formatCount(max)} shown${where}.`;
}

/**
 * Shrinks the tool messages of one turn so that together they stay under `budget` characters: the
 * ones that fit a fair share stay whole, the rest share what is left. Order and count are kept.
 */
export function fitTurnBudget(contents: readonly string[], budget = MAX_TURN_TOOL_CHARS): string[] {
  const total = contents.reduce((sum, c) => sum + c.length, 0);
  if (total <= budget) return [...contents];
  // Room for each note, so the result really stays under budget.
  const NOTE = 120;
  let left = budget - NOTE * contents.length;
  let large = contents.length;
  const sorted = [...contents].sort((a, b) => a.length - b.length);
  let share = Math.floor(left / large);
  for (const c of sorted) {
    if (c.length > share) break;
    left -= c.length;
    large--;
    share = Math.floor(left / Math.max(1, large));
  }
  return contents.map((c) => (c.length <= share ? c : truncateForModel(c, Math.max(0, share))));
}

/** 3145728 → "3,145,728" (no Intl in the workflow sandbox is needed for this). */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
