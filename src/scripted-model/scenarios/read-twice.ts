import { call, text, type Scenario } from '../scenario.ts';

/** Reads the same file twice: the second identical read-only call is answered without running. */
const readTwice: Scenario = (turn) => {
  if (turn === 0) return call('r1', 'read_file', { path: 'errors.log' });
  if (turn === 1) return call('r2', 'read_file', { path: 'errors.log' });
  return text('errors.log mentions a timeout (read twice).');
};

export default readTwice;
