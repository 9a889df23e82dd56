/**
 * The shop's tools. `lookup_order` only reads (low risk: it runs at once, and an identical call in the same
 * run is answered from the first); `refund_order` moves money (high risk: every call waits for a person's
 * approval, and it runs at most once per approved call, whatever crashes and retries happen meanwhile).
 * Both read the shop's files in the worker's workspace.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { defineTool } from 'durable-agent-harness';
import { z } from 'zod';

const orderSchema = z.object({ id: z.string(), customer: z.string(), item: z.string(), amountUsd: z.number(), status: z.string() });

async function findOrder(workspace: string, orderId: string) {
  const orders = z.array(orderSchema).parse(JSON.parse(await readFile(path.join(workspace, 'orders.json'), 'utf8')));
  const order = orders.find((o) => o.id === orderId);
  // The model reads a tool's error and may try again: say what would work.
  if (!order) throw new Error(`No order "${orderId}". Orders look like ${orders[0]?.id ?? 'A-1001'}.`);
  return order;
}

export const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Look an order up by its id: the customer, the item, the amount paid and its status.',
  input: z.object({ orderId: z.string().describe('The order id, e.g. "A-1001".') }),
  readOnly: true,
  risk: 'low',
  timeoutMs: 5_000,
  run: async ({ orderId }, ctx) => JSON.stringify(await findOrder(ctx.workspace, orderId)),
});

/** refunds.json: the refunds made, by the idempotency key of the call that made each. */
type Refunds = Record<string, { orderId: string; amountUsd: number; reason: string; refundedAt: string }>;

export const refundOrder = defineTool({
  name: 'refund_order',
  description: "Refund an order: the amount goes back to the customer's card. A person approves every refund.",
  input: z.object({
    orderId: z.string(),
    amountUsd: z.number().positive().describe('At most what the customer paid.'),
    reason: z.string().min(1),
  }),
  risk: 'high',
  // Retried after a crash or a timeout, it does not refund twice: it honours ctx.idempotencyKey.
  idempotent: true,
  timeoutMs: 10_000,
  run: async ({ orderId, amountUsd, reason }, ctx) => {
    const file = path.join(ctx.workspace, 'refunds.json');
    const refunds = JSON.parse(await readFile(file, 'utf8').catch(() => '{}')) as Refunds;
    // A payment provider takes the key itself (an Idempotency-Key header); this file stands in for one.
    const done = refunds[ctx.idempotencyKey];
    if (done) return `Refunded $${done.amountUsd} on order ${done.orderId}.`;
    const order = await findOrder(ctx.workspace, orderId);
    if (amountUsd > order.amountUsd) throw new Error(`Order ${orderId} was paid $${order.amountUsd}: refund at most that.`);
    refunds[ctx.idempotencyKey] = { orderId, amountUsd, reason, refundedAt: new Date().toISOString() };
    await writeFile(`${file}.tmp`, `${JSON.stringify(refunds, null, 2)}\n`);
    await rename(`${file}.tmp`, file);
    return `Refunded $${amountUsd} on order ${orderId}.`;
  },
});
