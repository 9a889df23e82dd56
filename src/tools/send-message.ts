import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { implementTool } from './define-tool.ts';
import { sendMessageContract } from './contracts.ts';
import type { EffectLedger } from './ledger.ts';

/** "Sends" by delivering one file per message to `<workspace>/outbox/`, once per idempotency key. */
export const createSendMessage = (ledger: EffectLedger) =>
  implementTool(sendMessageContract, async ({ to, text }, ctx) => {
    const earlier = ledger.lookup(ctx.idempotencyKey);
    if (earlier?.phase === 'done') return earlier.outcome!;
    const outbox = path.join(ctx.workspace, 'outbox');
    await mkdir(outbox, { recursive: true });
    ledger.started(ctx.idempotencyKey, {});
    // The file name is the key: a retry rewrites the same message instead of sending a second one.
    const file = path.join(outbox, `${ctx.idempotencyKey.replace(/[^a-zA-Z0-9_.-]/g, '_')}.json`);
    await writeFile(file, JSON.stringify({ to, text, sentAt: new Date().toISOString() }) + '\n');
    const outcome = `Message sent (${text.length} characters).`;
    ledger.done(ctx.idempotencyKey, {}, outcome);
    return outcome;
  });
