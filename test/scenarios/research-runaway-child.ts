import { call, text, toolText, type Scenario } from '../../src/scripted-model/scenario.ts';

/** The research child never answers; the parent answers from the error it gets back. */
const scenario: Scenario = (turn, messages) => {
  if (/research assistant/.test(messages[0]?.content ?? '')) return call(`l${turn}`, 'list_files');
  return turn === 0 ? call('q1', 'research', { question: 'Keep looking forever' }) : text(`Parent answer after: ${toolText(messages)}`);
};
export default scenario;
