import { call, text, toolText, type Scenario } from '../../src/scripted-model/scenario.ts';

/** A scan of a minute (3,000 files at 20 ms), then its result: a tool still running when a limit strikes. */
const longScan: Scenario = (turn, messages) => (turn === 0 ? call('s1', 'scan_files', { files: 3000, msPerFile: 20 }) : text(toolText(messages)));
export default longScan;
