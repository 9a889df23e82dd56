import { call, type Scenario } from '../../src/scripted-model/scenario.ts';

/** Keeps trying a denied command with new arguments each time. */
const keepsAsking: Scenario = (turn) => call(`x${turn}`, 'run_command', { command: `echo attempt ${turn}` });
export default keepsAsking;
