import { call, text, type Scenario } from '../../src/scripted-model/scenario.ts';

/** Tries to read outside the workspace three ways: "..", an absolute path, a symbolic link. */
const escape: Scenario = (turn) =>
  turn === 0
    ? call('e1', 'read_file', { path: '../outside/secret.txt' })
    : turn === 1
      ? call('e2', 'read_file', { path: '/etc/hostname' })
      : turn === 2
        ? call('e3', 'read_file', { path: 'link/secret.txt' })
        : text('done trying');
export default escape;
