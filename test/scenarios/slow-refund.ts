import { call, text, toolText, type Scenario } from '../../src/scripted-model/scenario.ts';

/** Refunds order B2 through the slow provider (`slow_refund`), then reports what the tool said. */
const slowRefund: Scenario = (turn, messages) => (turn === 0 ? call('r1', 'slow_refund', { orderId: 'B2', amount: 45 }) : text(toolText(messages)));

export default slowRefund;
