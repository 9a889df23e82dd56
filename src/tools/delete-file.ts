import { existsSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import type { EffectLedger } from '../store/store.ts';
import { implementTool } from './define-tool.ts';
import { deleteFileContract } from './contracts.ts';
import { resolveInWorkspace } from './workspace.ts';

/** Deletes at most once per idempotency key, however often (and on whichever host) the activity is retried. */
export const createDeleteFile = (ledger: EffectLedger) =>
  implementTool(deleteFileContract, async ({ path: requested }, ctx) => {
    const key = ctx.idempotencyKey;
    const target = await resolveInWorkspace(ctx.workspace, requested);
    const deleted = `Deleted ${requested}.`;
    const { created, entry } = await ledger.beginEffect(key, deleteFileContract.name, { path: requested, existed: existsSync(target) });
    if (entry.phase === 'done') return entry.outcome!;
    // A first attempt that died between deleting and recording it: the file it saw is gone, so it was deleted.
    if (!created && entry.detail.existed === true && !existsSync(target)) return (await ledger.completeEffect(key, deleted)).outcome!;
    let outcome = deleted;
    try {
      await unlink(target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') throw new Error(`${requested} could not be deleted: ${code ?? (error as Error).message}.`);
      outcome = `${requested} did not exist; nothing was deleted.`;
    }
    // Another attempt may have finished first: the first outcome recorded is the one reported.
    return (await ledger.completeEffect(key, outcome)).outcome!;
  });
