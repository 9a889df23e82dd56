import { call, isSummaryRequest, text, type Scenario, type ScriptedMessage } from '../../../scripted-model/scenario.ts';

/**
 * The context bench's model (src/cli/bench/context.ts): reads big/file-<n>.txt once per turn, for as many files
 * as the goal says ("read 300 files"), then answers; answers a compaction's summary call with a short summary.
 * Progress comes from the last reply's call id: a summary replaces older turns.
 */
const longReads: Scenario = (_turn, messages) => {
  if (isSummaryRequest(messages)) return text(`Summary: read ${(messages.at(-1)?.content?.match(/file-\d+\.txt/g) ?? []).length} more files in order, 4 KiB each.`);
  const files = Number(/read (\d+) files/.exec(messages.find((m) => m.role === 'user')?.content ?? '')?.[1] ?? 0);
  const last = lastCallId(messages);
  const next = last === undefined ? 0 : Number(last.slice(1)) + 1;
  return next < files ? call(`f${next}`, 'read_file', { path: `big/file-${next}.txt` }) : text(`Read ${files} files.`);
};

function lastCallId(messages: ScriptedMessage[]): string | undefined {
  return messages.findLast((m) => m.role === 'assistant' && m.tool_calls?.length)?.tool_calls?.[0]?.id;
}

export default longReads;
