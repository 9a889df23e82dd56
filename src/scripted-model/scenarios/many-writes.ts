import { call, type Scenario } from '../scenario.ts';

/** Writes a new file every turn. */
const manyWrites: Scenario = (turn) => call(`w${turn}`, 'write_file', { path: `draft-${turn}.txt`, content: `draft ${turn}` });
export default manyWrites;
