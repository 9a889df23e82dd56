import { call, text, type Scenario } from '../../src/scripted-model/scenario.ts';

/** A slow scan, then (if it ever got there) another tool: nothing after a cancel may run. */
const scenario: Scenario = (turn) =>
  turn === 0 ? call('s1', 'scan_files', { files: 1200, msPerFile: 2.5 }) : turn === 1 ? call('s2', 'list_files') : text('done');
export default scenario;
