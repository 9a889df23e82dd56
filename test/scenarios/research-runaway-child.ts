import { call, text, toolText, type Scenario } from '../../src/scripted-model/scenario.ts';

/** The research child never answers; the parent answers from the error it gets back. */
const scenario: Scenario = (turn, messages) => {
  // Alternating arguments: never the same call three times in a row, so only the caps stop it.
  if (/research assistant/.test(messages[0]?.content ?? '')) return call(`l${turn}`, 'list_files', turn % 2 ? { dir: '.' } : {});
  return turn === 0 ? call('q1', 'research', { question: 'Keep looking forever' }) : text(`Parent answer after: ${toolText(messages)}`);
};
export default scenario;
