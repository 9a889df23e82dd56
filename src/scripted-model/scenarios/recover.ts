import { call, text, toolText, type Scenario } from '../scenario.ts';

/** Guesses a file name, then corrects itself only if the error it got told it how. */
const recover: Scenario = (turn, messages) => {
  if (turn === 0) return call('c1', 'read_file', { path: 'timeout.log' });
  if (!/Call list_files/.test(toolText(messages))) return text('I could not read the file, so I do not know.');
  if (turn === 1) return call('c2', 'list_files');
  if (turn === 2) return call('c3', 'read_file', { path: 'errors.log' });
  return text('errors.log mentions a timeout.');
};

export default recover;
