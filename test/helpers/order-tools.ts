/**
 * A team's own tools, written as a user writes them (`defineTool` with zod): a read-only order lookup and a
 * high-risk refund that honours its idempotency key (one refund per key, recorded in `refunds.jsonl`).
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { defineTool } from '../../src/tools/define-tool.ts';

const ORDERS: Record<string, { item: string; amount: number }> = { A1: { item: 'kettle', amount: 30 }, B2: { item: 'lamp', amount: 45 } };

export const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Look an order up by its id: the item and the amount paid.',
  input: z.object({ orderId: z.string().min(1) }),
  output: z.object({ orderId: z.string(), item: z.string(), amount: z.number() }),
  readOnly: true,
  risk: 'low',
  // Quick: runs as a local activity, as a built-in read does.
  timeoutMs: 5_000,
  run: async ({ orderId }) => {
    const order = ORDERS[orderId];
    if (!order) throw new Error(`no order ${orderId}`);
    return Promise.resolve({ orderId, ...order });
  },
});

/** Refunds recorded by `refund_order` in `workspace`, one line each. */
export function refundsIn(workspace: string): { key: string; orderId: string; amount: number }[] {
  const file = path.join(workspace, 'refunds.jsonl');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { key: string; orderId: string; amount: number }) : [];
}

export const refundOrder = defineTool({
  name: 'refund_order',
  description: 'Refund an order (money leaves the company: needs a human approval).',
  input: z.object({ orderId: z.string().min(1), amount: z.number().positive() }),
  idempotent: true,
  run: async ({ orderId, amount }, ctx) => {
    if (refundsIn(ctx.workspace).some((r) => r.key === ctx.idempotencyKey)) return `Order ${orderId} was already refunded.`;
    appendFileSync(path.join(ctx.workspace, 'refunds.jsonl'), JSON.stringify({ key: ctx.idempotencyKey, orderId, amount }) + '\n');
    return Promise.resolve(`Refunded ${amount} on order ${orderId}.`);
  },
});
