import { call, text, toolText, type Scenario } from '../../src/scripted-model/scenario.ts';

/** A write whose arguments come in unsorted order, with non-ASCII text and characters JSON escapes. */
const hashArgs: Scenario = (turn, messages) =>
  turn === 0 ? call('h1', 'write_file', { path: 'résumé.txt', content: 'café ✓\n"quoted"' }) : text(toolText(messages));
export default hashArgs;
