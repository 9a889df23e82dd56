import { call, type Scenario } from '../../src/scripted-model/scenario.ts';

/** Reads the same file every turn, whatever it is told. */
const repeatRead: Scenario = (turn) => call(`r${turn}`, 'read_file', { path: 'notes.txt' });
export default repeatRead;
