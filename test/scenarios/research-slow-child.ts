import { call, text, type Scenario } from '../../src/scripted-model/scenario.ts';

/** The parent asks for research; the research child's model takes 30 s (long enough to cancel the parent). */
const scenario: Scenario = (turn, messages) => {
  if (/research assistant/.test(messages[0]?.content ?? '')) return text('too late', 30_000);
  return turn === 0 ? call('q1', 'research', { question: 'What is in notes.txt?' }) : text('done');
};
export default scenario;
