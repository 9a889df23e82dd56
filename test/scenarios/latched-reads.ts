import { call, text, toolText, type Scenario } from '../../src/scripted-model/scenario.ts';
import { goalOf, untilExists } from '../helpers/latch.ts';

/**
 * Reads notes.txt, then — in its second model call — waits until the file the goal names with
 * `release:<absolute path>` exists (a latch the test opens), reads errors.log and answers with both
 * results. The model call in flight is where a test stops a server or kills a worker.
 */
export const releaseGoal = (what: string, releaseFile: string) => `${what} release:${releaseFile}`;

const latchedReads: Scenario = async (turn, messages) => {
  if (turn === 0) return call('n1', 'read_file', { path: 'notes.txt' });
  if (turn === 1) {
    const file = /release:(\S+)/.exec(goalOf(messages))?.[1];
    if (file) await untilExists(file);
    return call('e1', 'read_file', { path: 'errors.log' });
  }
  return text(`read: ${toolText(messages)}`);
};
export default latchedReads;
