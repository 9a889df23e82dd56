import deleteApproval from '../../../src/scripted-model/scenarios/delete-approval.ts';
import { withModelLatency } from './model-latency.ts';

/** The built-in `scripted:delete-approval`, at a provider's pace (model-latency.ts). */
export default withModelLatency(deleteApproval);
