import { call, type Scenario } from '../../src/scripted-model/scenario.ts';

/**
 * Never answers, and never repeats itself: each turn reads another file that does not exist, so every
 * result is new. Only the turn cap (or the budget) stops it.
 */
const freshReads: Scenario = (turn) => call(`r${turn}`, 'read_file', { path: `missing-${turn}.txt` });
export default freshReads;
