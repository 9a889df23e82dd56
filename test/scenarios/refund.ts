import { call, text, toolText, type Scenario } from '../../src/scripted-model/scenario.ts';

/** Looks order A1 up, refunds what was paid, then answers from the refund's result. */
const refund: Scenario = (turn, messages) => {
  if (turn === 0) return call('o1', 'lookup_order', { orderId: 'A1' });
  if (turn === 1) {
    const order = JSON.parse(toolText(messages)) as { amount: number };
    return call('o2', 'refund_order', { orderId: 'A1', amount: order.amount });
  }
  return text(toolText(messages));
};
export default refund;
