import { call, text, type Scenario } from '../scenario.ts';

/**
 * For history-size benchmarks: reads big/file-<n>.txt once per turn, for as many files as the goal says
 * ("read 500 files"), then answers.
 */
const readMany: Scenario = (turn, messages) => {
  const files = Number(/read (\d+) files/.exec(messages.find((m) => m.role === 'user')?.content ?? '')?.[1] ?? 0);
  return turn < files ? call(`f${turn}`, 'read_file', { path: `big/file-${turn}.txt` }) : text(`Read ${files} files.`);
};

export default readMany;
