import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EffectLedger } from '../store/store.ts';
import { implementTool } from './define-tool.ts';
import { sendMessageContract } from './contracts.ts';

/** "Sends" by delivering one file per message to `<workspace>/outbox/`, once per idempotency key. */
export const createSendMessage = (ledger: EffectLedger) =>
  implementTool(sendMessageContract, async ({ to, text }, ctx) => {
    const { entry } = await ledger.beginEffect(ctx.idempotencyKey, sendMessageContract.name, {});
    if (entry.phase === 'done') return entry.outcome!;
    const outbox = path.join(ctx.workspace, 'outbox');
    await mkdir(outbox, { recursive: true });
    // The file name is the key: a retry rewrites the same message instead of sending a second one.
    const file = path.join(outbox, `${ctx.idempotencyKey.replace(/[^a-zA-Z0-9_.-]/g, '_')}.json`);
    await writeFile(file, JSON.stringify({ to, text, sentAt: new Date().toISOString() }) + '\n');
    return (await ledger.completeEffect(ctx.idempotencyKey, `Message sent (${text.length} characters).`)).outcome!;
  });
