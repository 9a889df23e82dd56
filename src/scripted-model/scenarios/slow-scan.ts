import { call, text, toolText, type Scenario } from '../scenario.ts';

/** Asks for a slow scan of 1200 files (about 3 s, with progress), then reports it. */
const slowScan: Scenario = (turn, messages) =>
  turn === 0 ? call('s1', 'scan_files', { files: 1200, msPerFile: 2.5 }) : text(toolText(messages));

export default slowScan;
