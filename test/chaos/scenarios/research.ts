import research from '../../../src/scripted-model/scenarios/research.ts';
import { withModelLatency } from './model-latency.ts';

/** The built-in `scripted:research`, at a provider's pace (model-latency.ts). */
export default withModelLatency(research);
