import { call, text, type Scenario } from '../scenario.ts';

/** A well-behaved task: list the files, read errors.log, answer. */
const plan: Scenario = (turn) =>
  turn === 0
    ? call('c1', 'list_files')
    : turn === 1
      ? call('c2', 'read_file', { path: 'errors.log' })
      : text('errors.log mentions a timeout: worker 7 timed out after 30000 ms.');

export default plan;
