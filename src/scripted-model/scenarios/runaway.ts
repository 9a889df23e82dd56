import { call, type Scenario } from '../scenario.ts';

/** Never declares itself done: only a turn cap stops it. */
const runaway: Scenario = (turn) => call(`c${turn + 1}`, 'list_files');

export default runaway;
