/**
 * What compaction may replace in a conversation, decided from the messages alone (pure, deterministic):
 * old tool results become stubs, then older turns become one summary. The system prompt and the goal (the
 * conversation's first two messages) and the last `keep` turns are never touched; a person's answers
 * (`ask_user`) are never elided. A turn is a model reply and the messages after it up to the next reply.
 */
import type { ChatMessage } from '../src/wire/types.ts';
import { ELIDED_MARK, summarisedTurns, summaryText } from '../src/wire/compaction-text.ts';

/** Tools whose results are never elided: a person's words. */
const NEVER_ELIDED = new Set(['ask_user']);

/** The summary message that replaces the conversation's first `turns` turns. */
export function summaryMessage(turns: number, summary: string): ChatMessage {
  return { role: 'user', content: summaryText(turns, summary) };
}

/** The turns a summary of `messages[from, to)` stands for: those of an earlier summary there, and the replies after it. */
export function turnsCovered(messages: readonly ChatMessage[], from: number, to: number): number {
  const slice = messages.slice(from, to);
  const earlier = slice[0]?.role === 'user' ? (summarisedTurns(slice[0].content) ?? 0) : 0;
  return earlier + slice.filter((m) => m.role === 'assistant').length;
}

/** Where each turn starts (the index of its model reply). */
export function turnStarts(messages: readonly ChatMessage[]): number[] {
  return messages.flatMap((m, i) => (m.role === 'assistant' ? [i] : []));
}

/** Where the messages of the last `keep` turns begin (the conversation's length when there are none). */
function keptFrom(messages: readonly ChatMessage[], keep: number): number {
  const starts = turnStarts(messages);
  return starts.length > keep ? starts[starts.length - keep]! : (starts[0] ?? messages.length);
}

/** The opening the run never compacts: the system prompt and the goal. */
export function openingLength(messages: readonly ChatMessage[]): number {
  let n = 0;
  if (messages[n]?.role === 'system') n++;
  if (messages[n]?.role === 'user' && !isSummary(messages[n]!)) n++;
  return n;
}

export function isSummary(message: ChatMessage): boolean {
  return message.role === 'user' && summarisedTurns(message.content) !== null;
}

/**
 * Tool results that may be elided: those before the last `keep` turns (or, with `keep` 1, all but the latest
 * turn's), not stubs already, not a person's answers, and longer than the stub they would become.
 */
export function elidable(messages: readonly ChatMessage[], keep: number): number[] {
  const until = keptFrom(messages, keep);
  const found: number[] = [];
  for (let i = openingLength(messages); i < until; i++) {
    const m = messages[i]!;
    if (m.role !== 'tool' || NEVER_ELIDED.has(m.name ?? '') || m.content.startsWith(ELIDED_MARK)) continue;
    if (m.content.length > STUB_CHARS) found.push(i);
  }
  return found;
}

/** Roughly a stub's length: shorter results are left as they are. */
const STUB_CHARS = 320;

/** The messages a summary replaces: after the opening, up to the last `keep` turns (an earlier summary included); null when there are none. */
export function summarisable(messages: readonly ChatMessage[], keep: number): { from: number; to: number } | null {
  const from = openingLength(messages);
  const to = keptFrom(messages, keep);
  // A lone earlier summary is not summarised again.
  if (to <= from || (to - from === 1 && isSummary(messages[from]!))) return null;
  return { from, to };
}

/** The conversation as text for the summary call: one paragraph per message, each cut to `perMessage` characters. */
export function renderForSummary(messages: readonly ChatMessage[], perMessage: number, total: number): string {
  const parts = messages.map((m) => {
    const who = m.role === 'tool' ? `tool result (${m.name ?? 'tool'})` : m.role === 'assistant' ? 'assistant' : m.role;
    const calls = m.role === 'assistant' && m.tool_calls?.length ? ` [calls: ${m.tool_calls.map((c) => `${c.name}(${c.arguments})`).join('; ')}]` : '';
    const text = m.content ?? '';
    return `${who}${calls}: ${text.length > perMessage ? `${text.slice(0, perMessage)} […${text.length - perMessage} more characters]` : text}`;
  });
  const all = parts.join('\n\n');
  if (all.length <= total) return all;
  // Too long: the start (an earlier summary, the first steps) and the end (the latest steps) matter most.
  const half = Math.floor(total / 2);
  return `${all.slice(0, half)}\n\n[…${all.length - total} characters left out…]\n\n${all.slice(all.length - half)}`;
}
