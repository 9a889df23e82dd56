import { call, text, toolText, type Scenario } from '../../src/scripted-model/scenario.ts';

/** Two medium-risk writes: with a quota of 1, the second needs approval. */
const writeTwice: Scenario = (turn, messages) =>
  turn === 0
    ? call('w1', 'write_file', { path: 'draft1.txt', content: 'first draft' })
    : turn === 1
      ? call('w2', 'write_file', { path: 'draft2.txt', content: 'second draft' })
      : text(toolText(messages));
export default writeTwice;
