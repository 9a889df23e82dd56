import { call, text, toolText, type Scenario } from '../../src/scripted-model/scenario.ts';

/** Asks for an arbitrary command (extreme risk). */
const runCommand: Scenario = (turn, messages) =>
  turn === 0 ? call('k1', 'run_command', { command: 'echo pwned > pwned.txt && echo wrote it' }) : text(toolText(messages));
export default runCommand;
