import { call, text, toolText, type Scenario } from '../../src/scripted-model/scenario.ts';

/** A user tool called with arguments its schema refuses, then right; then the same lookup again. */
const badOrderCall: Scenario = (turn, messages) => {
  if (turn === 0) return call('b1', 'lookup_order', { orderId: 7 });
  if (turn === 1) return call('b2', 'lookup_order', { orderId: 'B2' });
  if (turn === 2) return call('b3', 'lookup_order', { orderId: 'B2' });
  return text(toolText(messages));
};
export default badOrderCall;
