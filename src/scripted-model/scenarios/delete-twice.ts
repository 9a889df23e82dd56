import { call, text, toolText, type Scenario } from '../scenario.ts';

/** Asks for the same deletion twice: side-effect calls are never deduplicated. */
const deleteTwice: Scenario = (turn, messages) => {
  if (turn === 0) return call('d1', 'delete_file', { path: 'access.log' });
  if (turn === 1) return call('d2', 'delete_file', { path: 'access.log' });
  return text(`Done. The tools said: ${toolText(messages).replace(/\n/g, ' | ')}`);
};

export default deleteTwice;
