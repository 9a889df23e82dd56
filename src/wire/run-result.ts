import type { RunResult, RunState } from './types.ts';

/** The outcome of a run, as returned by the workflow and by the client for closed runs. */
export function toRunResult(state: RunState): RunResult {
  const { runId, status, reason, interruption, output, error, turns, toolCalls, toolRuns, costUsd, totalCostUsd, totalTurns, startedAt } = state;
  return {
    runId, status, reason, interruption, output, error,
    // Runs whose state predates receipts carry none.
    receipt: state.receipt ?? [],
    warnings: state.warnings ?? [],
    turns, toolCalls, toolRuns,
    usage: { ...state.usage },
    costUsd, totalCostUsd, totalTurns, startedAt,
    finishedAt: state.updatedAt,
  };
}
