/**
 * What a child run spent, read from what the server keeps of it (its final state memo, else its live one):
 * how a parent learns the spend of a child that was cancelled or failed without returning a result.
 */
import type { Client } from '@temporalio/client';
import { FINAL_STATE_MEMO, LIVE_STATE_MEMO } from '../src/wire/messages.ts';
import type { LiveRunState, RunState } from '../src/wire/types.ts';

export interface ChildTotals {
  turns: number;
  costUsd: number;
}

export function createChildTotals(client: Client) {
  return async function childTotals(childRunId: string): Promise<ChildTotals | null> {
    const { memo } = await client.workflow.getHandle(childRunId).describe();
    const final = memo?.[FINAL_STATE_MEMO] as RunState | undefined;
    if (final) return { turns: final.totalTurns, costUsd: final.totalCostUsd };
    const live = memo?.[LIVE_STATE_MEMO] as LiveRunState | undefined;
    return live ? { turns: live.turns, costUsd: live.totalCostUsd } : null;
  };
}
