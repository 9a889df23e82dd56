import { interrupted, STOP_STATUS, type Stop } from './stop.ts';
import type { Interruption, RunStatus } from '../src/wire/types.ts';
import type { RunLimits } from '../src/wire/run-input.ts';

/** A limit's stop, with the status it ends the run in (read from the one table, for display). */
export type LimitStop = Stop & { status: RunStatus };

/**
 * The checks made at the top of every iteration, before asking the model anything, in this
 * order: wall time, turns, cost. (Cancellation comes first and arrives through Temporal.)
 */
export function checkLimits(
  progress: { turns: number; costUsd: number; elapsedMs: number },
  limits: RunLimits,
): LimitStop | null {
  if (limits.maxWallMs !== undefined && progress.elapsedMs >= limits.maxWallMs) return limitStop({ type: 'max_time' });
  if (progress.turns >= limits.maxTurns) return limitStop({ type: 'max_turns' });
  if (progress.costUsd >= limits.maxBudgetUsd) return limitStop({ type: 'max_budget' });
  return null;
}

function limitStop(interruption: Interruption): LimitStop {
  const stop = interrupted(interruption);
  return { ...stop, status: STOP_STATUS[stop.reason] };
}
