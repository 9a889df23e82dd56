import { call, isSummaryRequest, text, withContextWindow, type Scenario, type ScriptedMessage } from '../../src/scripted-model/scenario.ts';

/**
 * A long run for compaction (test/compaction.test.ts), behind an 8k-token window. The goal says what to do:
 * "Read N files" reads notes/n0.txt … notes/n{N-1}.txt, one per turn, then answers "read N files"; with
 * "then recall", it then calls recall_output on the first stub it sees and answers with the recalled text's
 * first line. A summary prompt (the run's `summaryPrompt`) that says "slowly" makes the summary call take 30 s
 * ("slowly once": only the first summary call with that prompt). Progress is read from the last reply's call
 * id (`c<k>`), not from the turn: compaction summarises older turns away.
 */
/** Summary prompts already answered slowly (this module lives as long as the scripted model server). */
const slowPrompts = new Set<string>();

const longReads: Scenario = (_turn, messages) => {
  const goal = messages.find((m) => m.role === 'user')?.content ?? '';
  if (isSummaryRequest(messages)) {
    const reads = (messages.at(-1)?.content?.match(/n\d+\.txt/g) ?? []).length;
    const prompt = messages[0]?.content ?? '';
    const slowly = prompt.includes('slowly') && !(prompt.includes('slowly once') && slowPrompts.has(prompt));
    slowPrompts.add(prompt);
    return { content: `Summary: read ${reads} more files in order; each held 4 KB of notes.`, ...(slowly ? { delayMs: 30_000 } : {}) };
  }
  const files = Number(/Read (\d+) files/.exec(goal)?.[1] ?? 0);
  const last = lastCallId(messages);
  if (last?.startsWith('recall')) {
    const recalled = messages.at(-1)?.content ?? '';
    return text(`recalled: ${recalled.split('\n')[0]}`);
  }
  const next = last === undefined ? 0 : Number(last.slice(1)) + 1;
  if (next < files) return call(`c${next}`, 'read_file', { path: `notes/n${next}.txt` });
  if (goal.includes('then recall')) {
    const stub = messages.find((m) => m.role === 'tool' && m.content?.includes('recall_output'));
    const ref = /output:[0-9a-f]{64}/.exec(stub?.content ?? '')?.[0];
    if (ref) return call('recall-1', 'recall_output', { ref });
    return text('no stub to recall');
  }
  return text(`read ${files} files`);
};

function lastCallId(messages: ScriptedMessage[]): string | undefined {
  return messages.findLast((m) => m.role === 'assistant' && m.tool_calls?.length)?.tool_calls?.[0]?.id;
}

export default withContextWindow(longReads, 8000);
