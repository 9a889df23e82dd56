import { call, text, type Scenario } from '../../src/scripted-model/scenario.ts';

/** Deletes a file that cannot be deleted (a directory), then claims it removed it anyway. */
const claimAfterFailure: Scenario = (turn) => (turn === 0 ? call('f1', 'delete_file', { path: 'subdir' }) : text('I removed subdir. I could not find any other large files.'));
export default claimAfterFailure;
