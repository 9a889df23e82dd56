/**
 * A recorded conversation as a replay that compacts sends it (docs/context.md): the first turns a summary
 * replaced become that summary (the recording's, so a different one is a divergence), and a tool result
 * becomes its stub where the stub names exactly that result (`output:<sha256>` of its text).
 */
import { outputRef } from '../store/content-address.ts';
import { stubRef, summarisedTurns, summaryText } from '../wire/compaction-text.ts';
import type { ChatMessage } from '../wire/types.ts';
import type { WireMessage } from './conversation.ts';
import type { RecordedSummary } from './schema.ts';

/** Where the request's summary message is and how many turns it replaces (none: `at` -1, 0 turns). */
export function summaryOf(sent: readonly WireMessage[]): { at: number; turns: number } {
  const at = sent.findIndex((m) => m.role === 'user' && summarisedTurns(m.content) !== null);
  return { at, turns: at < 0 ? 0 : summarisedTurns(sent[at]!.content)! };
}

/** `recorded` (what the model was sent in the recorded run) as the compacted request `sent` should have it. */
export function asCompacted(recorded: readonly ChatMessage[], sent: readonly WireMessage[], summaries: readonly RecordedSummary[]): ChatMessage[] {
  let expected = [...recorded];
  const summary = summaryOf(sent);
  if (summary.at >= 0) {
    const starts = recorded.flatMap((m, i) => (m.role === 'assistant' ? [i] : []));
    const recordedSummary = summaries.find((s) => s.turns === summary.turns);
    // Without a recorded summary of as many turns, the recording's own words cannot match: a divergence.
    const content = recordedSummary ? summaryText(summary.turns, recordedSummary.text) : `(the recording has no summary of the first ${summary.turns} turns)`;
    expected = [...recorded.slice(0, summary.at), { role: 'user', content }, ...recorded.slice(starts[summary.turns] ?? recorded.length)];
  }
  return expected.map((m, i) => {
    const stub = sent[i];
    if (m.role !== 'tool' || stub?.role !== 'tool' || !stub.content) return m;
    const ref = stubRef(stub.content);
    return ref !== null && ref === outputRef(m.content) ? { ...m, content: stub.content } : m;
  });
}
