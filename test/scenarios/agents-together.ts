import { call, text, toolText, type Scenario, type ScriptedMessage } from '../../src/scripted-model/scenario.ts';

/**
 * Agents working together, told apart by the instructions in charge (the last system message: a handoff
 * adds one). `triage` gives the refund to `support` as a task (`ask_support`); `support` refunds (its
 * approval waits in the child run) and answers. `front` hands over to `billing`, which looks the order up
 * and hands back; `front` answers from what billing found.
 */
const inCharge = (messages: ScriptedMessage[]) => messages.filter((m) => m.role === 'system').at(-1)?.content ?? '';
const since = (messages: ScriptedMessage[]) => messages.slice(messages.findLastIndex((m) => m.role === 'system') + 1);

const agentsTogether: Scenario = (turn, messages) => {
  const who = inCharge(messages);
  const mine = since(messages).filter((m) => m.role === 'assistant').length;
  if (who.startsWith('You triage')) return turn === 0 ? call('a1', 'ask_support', { task: 'Refund order A1 in full (30).' }) : text(`Support says: ${toolText(messages)}`);
  if (who.startsWith('You help customers')) return mine === 0 ? call('s1', 'refund_order', { orderId: 'A1', amount: 30 }) : text('Refunded 30 on order A1.');
  if (who.startsWith('You answer customers')) return mine === 0 && !/takes over/.test(toolText(messages)) ? call('f1', 'transfer_to_billing') : text(`Billing found: ${toolText(messages).split('\n').find((l) => l.includes('kettle')) ?? 'nothing'}`);
  if (who.startsWith('You handle billing')) return mine === 0 ? call('b1', 'lookup_order', { orderId: 'A1' }) : call('b2', 'transfer_to_front');
  return text(`no script for instructions: ${who.slice(0, 40)}`);
};

export default agentsTogether;
