/**
 * `recall_output`: reads again a tool result that compaction elided (`activities/compact-context.ts`). The
 * stub the model sees names the result's reference (`output:<sha256>`); the whole text is in the store.
 * Read-only and bounded like any tool result. A run is offered it once it has elided something
 * (`workflows/compaction.ts`). The contract is sandbox-safe; `createRecallOutput` is the worker's.
 */
import { z } from 'zod';
import type { AgentStore } from '../store/store.ts';
import { defineToolContract, implementTool, type Tool } from './define-tool.ts';

export const recallOutputContract = defineToolContract({
  name: 'recall_output',
  description: 'Read again a tool result the harness elided to save context, by the reference its stub gives (output:<sha256>).',
  input: z.object({
    ref: z.string().regex(/^output:[0-9a-f]{64}$/, 'a reference is "output:" and 64 hex digits, as the stub gives it').describe('The reference, e.g. "output:9f86d0…".'),
  }),
  output: z.string(),
  readOnly: true,
  risk: 'low',
  timeoutMs: 10_000,
});

/** The tool, reading kept outputs from `store`. */
export function createRecallOutput(store: Pick<AgentStore, 'getOutput'>): Tool {
  return implementTool(recallOutputContract, async ({ ref }) => {
    const text = await store.getOutput(ref);
    if (text === undefined) throw new Error(`No output is kept as ${ref}: give the reference exactly as the stub shows it.`);
    return text;
  });
}
