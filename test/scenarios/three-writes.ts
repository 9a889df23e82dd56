import { call, text, type Scenario } from '../../src/scripted-model/scenario.ts';

/** Writes three drafts, one a turn, then says so: medium-risk runs for a policy what-if. */
const threeWrites: Scenario = (turn) =>
  turn < 3 ? call(`w${turn + 1}`, 'write_file', { path: `draft-${turn + 1}.txt`, content: `draft ${turn + 1}` }) : text('Wrote draft-1.txt, draft-2.txt and draft-3.txt.');
export default threeWrites;
