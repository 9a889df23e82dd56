/**
 * The words compaction puts in a conversation (docs/context.md), written by the compaction activity and
 * read by the scripted model server's replay of a recording: the stub of an elided tool result, the summary
 * message, and the summary call's request. Each says what it stands for, so a replay can check it.
 */

/** How a stub starts: a tool result already elided is left as it is. */
export const ELIDED_MARK = '[Elided by the harness to save context:';

/** How the summary message starts; then "the first N turns" it replaces. */
export const SUMMARY_MARK = '[Summary by the harness of the earlier conversation';

/** How the summary call's user message starts. */
export const SUMMARY_REQUEST_HEADER = 'Conversation to summarise';

/** The stub a tool result becomes: what it was, and how to read it again. */
export function stubText(o: { tool: string; toolCallId: string; chars: number; ref: string }): string {
  return `${ELIDED_MARK} the result of ${o.tool} (call ${o.toolCallId}), ${o.chars} characters, is kept as ${o.ref}. Call recall_output with {"ref": "${o.ref}"} to read it again.]`;
}

/** The reference a stub names, if `content` is one. */
export function stubRef(content: string): string | null {
  return content.startsWith(ELIDED_MARK) ? (/ is kept as (output:[0-9a-f]{64})\./.exec(content)?.[1] ?? null) : null;
}

/** The summary message's text: it replaces the conversation's first `turns` turns (after the system prompt and goal). */
export function summaryText(turns: number, summary: string): string {
  return `${SUMMARY_MARK} (its first ${turns} turns), to save context; the full transcript is kept for audit.]\n${summary}`;
}

/** How many turns a summary message replaces; null when `content` is not one. */
export function summarisedTurns(content: string | null | undefined): number | null {
  if (!content?.startsWith(SUMMARY_MARK)) return null;
  const turns = /^\S.*?\(its first (\d+) turns\)/.exec(content)?.[1];
  return turns === undefined ? null : Number(turns);
}

/** The summary call's user message: the conversation's first `turns` turns, rendered. */
export function summaryRequestText(turns: number, rendered: string): string {
  return `${SUMMARY_REQUEST_HEADER} (its first ${turns} turns):\n\n${rendered}`;
}

/** How many turns a summary call's request covers; null when `content` is not one. */
export function requestedTurns(content: string | null | undefined): number | null {
  if (!content?.startsWith(SUMMARY_REQUEST_HEADER)) return null;
  const turns = /^\S.*?\(its first (\d+) turns\)/.exec(content)?.[1];
  return turns === undefined ? null : Number(turns);
}
