import slowScan from '../../../src/scripted-model/scenarios/slow-scan.ts';
import { withModelLatency } from './model-latency.ts';

/** The built-in `scripted:slow-scan`, at a provider's pace (model-latency.ts). */
export default withModelLatency(slowScan);
