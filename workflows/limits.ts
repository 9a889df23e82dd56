import type { Interruption, RunLimits, RunStatus, StopReason } from './types.ts';

export const DEFAULT_LIMITS: RunLimits = { maxTurns: 20, maxBudgetUsd: 1.0, maxRepeatedCalls: 3, maxStaleTurns: 8, maxPolicyDenials: 3 };

export interface LimitStop {
  status: RunStatus;
  reason: StopReason;
  interruption: Interruption;
}

/**
 * The checks made at the top of every iteration, before asking the model anything, in the SPEC's
 * order: wall time, turns, cost. (Cancellation comes first and arrives through Temporal.)
 */
export function checkLimits(
  progress: { turns: number; costUsd: number; elapsedMs: number },
  limits: RunLimits,
): LimitStop | null {
  if (limits.maxWallMs !== undefined && progress.elapsedMs >= limits.maxWallMs) {
    return { status: 'budget_exceeded', reason: 'max_time', interruption: { type: 'max_time' } };
  }
  if (progress.turns >= limits.maxTurns) {
    return { status: 'max_turns_exceeded', reason: 'max_turns', interruption: { type: 'max_turns' } };
  }
  if (progress.costUsd >= limits.maxBudgetUsd) {
    return { status: 'budget_exceeded', reason: 'max_budget', interruption: { type: 'max_budget' } };
  }
  return null;
}
