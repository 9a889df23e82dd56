import { call, type Scenario } from '../../src/scripted-model/scenario.ts';

/**
 * Long replies (200,000 characters: about 50,000 completion tokens, $0.60 at the scripted price) with a
 * fresh read each turn: only the budget stops it, within two turns of the $1 default.
 */
export const REPLY_CHARS = 200_000;
const bigSpender: Scenario = (turn) => ({ ...call(`b${turn}`, 'read_file', { path: `missing-${turn}.txt` }), content: 'x'.repeat(REPLY_CHARS) });
export default bigSpender;
