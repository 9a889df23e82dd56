/**
 * A small team of agents on the `agents-together.ts` scenario, as a user defines them: `triage` gives
 * refunds to `support` (an agent called as a tool, whose refund waits for its own approval); `front` hands
 * billing questions to `billing` (whose policy makes every lookup wait for a person), which hands back.
 */
import { defineAgent } from '../../src/agents/define-agent.ts';
import { scenario } from './harness.ts';
import { lookupOrder, refundOrder } from './order-tools.ts';

const model = scenario('agents-together.ts');

export const support = defineAgent({ name: 'support', description: 'refunds orders', instructions: 'You help customers with refunds.', model, tools: [lookupOrder, refundOrder], limits: { maxTurns: 5 } });
export const triage = defineAgent({ name: 'triage', instructions: 'You triage requests and give each to the right agent.', model, tools: [], subAgents: [support] });
export const billing = defineAgent({
  name: 'billing',
  instructions: 'You handle billing questions.',
  model,
  tools: [lookupOrder],
  // Billing's own policy: every lookup waits for a person (front's does not).
  policy: { requireApproval: ['lookup_order'] },
  handoffs: ['front'],
});
export const front = defineAgent({ name: 'front', instructions: 'You answer customers and hand billing questions over.', model, tools: [lookupOrder], handoffs: [billing] });

export const TEAM = [support, triage, billing, front];
