import { call, text, type Scenario } from '../../src/scripted-model/scenario.ts';

/** Reads big.log (a few MiB), then reports how much of it it saw. */
const readBig: Scenario = (turn, messages) => {
  if (turn === 0) return call('r1', 'read_file', { path: 'big.log' });
  const seen = messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '';
  return text(`I saw ${seen.length} characters.`);
};
export default readBig;
