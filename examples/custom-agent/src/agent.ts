/**
 * The shop's support agent: its instructions, its model, the two tools it may use, and its limits. The
 * worker offers it; a run names it (`startRun({ agent: 'support', goal })`) and may set only what `allow`
 * lets it (here: up to 10 turns).
 */
import path from 'node:path';
import { defineAgent } from 'durable-agent-harness';
import { lookupOrder, refundOrder } from './tools.ts';

export const support = defineAgent({
  name: 'support',
  instructions: "You help the shop's customers with their orders. Look an order up before you act on it, refund at most what was paid, and say what you did.",
  // A provider's model when MODEL names one (with OPENAI_API_KEY), else the scripted model playing scenarios/refund.ts.
  model: process.env.MODEL ?? `scripted:${path.resolve(import.meta.dirname, '..', 'scenarios', 'refund.ts')}`,
  tools: [lookupOrder, refundOrder],
  limits: { maxTurns: 6, maxBudgetUsd: 0.05 },
  allow: { limits: { maxTurns: 10 } },
});
