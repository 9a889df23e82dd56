import plan from '../../../src/scripted-model/scenarios/plan.ts';
import { withModelLatency } from './model-latency.ts';

/** The built-in `scripted:plan`, at a provider's pace (model-latency.ts). */
export default withModelLatency(plan);
