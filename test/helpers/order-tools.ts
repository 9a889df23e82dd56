/**
 * A team's own tools, written as a user writes them (`defineTool` with zod): a read-only order lookup and a
 * high-risk refund that honours its idempotency key (one refund per key, recorded in `refunds.jsonl`).
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
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

/** What `slow_refund` did, one line each (`refunded <key>`, `aborted <key>`), in `workspace`. */
export function slowRefundLog(workspace: string): string[] {
  const file = path.join(workspace, 'slow-refund.log');
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}

/**
 * A refund through a slow payment provider: the refund is made at once (once per idempotency key, as a
 * provider that honours the key does), then the tool waits 5 s for the provider's confirmation, reporting
 * progress and stopping when the run is cancelled.
 */
export const slowRefund = defineTool({
  name: 'slow_refund',
  description: 'Refund an order through the slow payment provider (takes a few seconds).',
  input: z.object({ orderId: z.string().min(1), amount: z.number().positive() }),
  risk: 'medium',
  idempotent: true,
  timeoutMs: 60_000,
  run: async ({ orderId, amount }, ctx) => {
    const log = (line: string) => appendFileSync(path.join(ctx.workspace, 'slow-refund.log'), `${line}\n`);
    const already = refundsIn(ctx.workspace).some((r) => r.key === ctx.idempotencyKey);
    if (!already) {
      appendFileSync(path.join(ctx.workspace, 'refunds.jsonl'), JSON.stringify({ key: ctx.idempotencyKey, orderId, amount }) + '\n');
      log(`refunded ${ctx.idempotencyKey}`);
    }
    for (let i = 1; i <= 20; i++) {
      ctx.progress(`waiting for the provider (${i}/20)`);
      try {
        await sleep(250, undefined, { signal: ctx.signal });
      } catch (error) {
        log(`aborted ${ctx.idempotencyKey}`);
        throw error;
      }
    }
    return already ? `Order ${orderId} was already refunded; the provider confirmed it.` : `Refunded ${amount} on order ${orderId}; the provider confirmed it.`;
  },
});
