import { call, type Scenario } from '../../src/scripted-model/scenario.ts';

/** Varies its arguments but never learns anything new: the results repeat. */
const staleLists: Scenario = (turn) => call(`s${turn}`, 'list_files', turn % 2 ? { dir: '.' } : {});
export default staleLists;
