import { existsSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { implementTool } from './define-tool.ts';
import { deleteFileContract } from './contracts.ts';
import type { EffectLedger } from './ledger.ts';
import { resolveInWorkspace } from './workspace.ts';

/** Deletes at most once per idempotency key, however often the activity is retried. */
export const createDeleteFile = (ledger: EffectLedger) =>
  implementTool(deleteFileContract, async ({ path: requested }, ctx) => {
    const key = ctx.idempotencyKey;
    const earlier = ledger.lookup(key);
    if (earlier?.phase === 'done') return earlier.outcome!;
    const target = await resolveInWorkspace(ctx.workspace, requested);
    const deleted = `Deleted ${requested}.`;
    // A first attempt that died between deleting and recording it: the file it saw is gone, so it was deleted.
    if (earlier?.phase === 'started' && earlier.detail.existed === true && !existsSync(target)) {
      ledger.done(key, { path: requested }, deleted);
      return deleted;
    }
    const existed = existsSync(target);
    ledger.started(key, { path: requested, existed });
    let outcome = deleted;
    try {
      await unlink(target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') throw new Error(`${requested} could not be deleted: ${code ?? (error as Error).message}.`);
      outcome = `${requested} did not exist; nothing was deleted.`;
    }
    ledger.done(key, { path: requested }, outcome);
    return outcome;
  });
