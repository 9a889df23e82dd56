import sendMessage from '../../scenarios/send-message.ts';
import { withModelLatency } from './model-latency.ts';

/** test/scenarios/send-message.ts (one send_message, needing approval), at a provider's pace (model-latency.ts). */
export default withModelLatency(sendMessage);
