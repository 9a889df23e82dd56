import { call, text, toolText, type Scenario } from '../../src/scripted-model/scenario.ts';

/** Tries to read a host file through a workspace of "/". */
const readHostFile: Scenario = (turn, messages) => (turn === 0 ? call('h1', 'read_file', { path: 'etc/hostname' }) : text(toolText(messages)));
export default readHostFile;
