/**
 * The scripted model's side of the example, so it runs with no provider: look the order up, ask to refund
 * what was paid, then answer from what the refund tool said (a rejected refund included).
 */
import { call, text, type Scenario } from 'durable-agent-harness/testing';

const refund: Scenario = (turn, messages) => {
  const told = messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '';
  if (turn === 0) return call('c1', 'lookup_order', { orderId: 'A-1001' });
  if (turn === 1) {
    if (told.startsWith('Error')) return text(`I could not find the order: ${told}`);
    const order = JSON.parse(told) as { amountUsd: number };
    return call('c2', 'refund_order', { orderId: 'A-1001', amountUsd: order.amountUsd, reason: 'arrived broken' });
  }
  return text(told.startsWith('Refunded') ? `${told} The customer gets the money back in a few days.` : `I did not refund order A-1001: ${told}`);
};

export default refund;
