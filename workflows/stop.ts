/**
 * How a run ends: every path that ends it produces one `Stop` value, and its status comes from one
 * table. Continue-as-new is not a stop (it is thrown, as Temporal wants), and a cancel is rethrown after
 * its stop is recorded so that Temporal records the run as cancelled.
 */
import * as wf from '@temporalio/workflow';
import { FailureType } from '../src/wire/failures.ts';
import type { TraceEvent } from '../src/wire/trace-events.ts';
import type { Interruption, RunStatus, StopReason } from '../src/wire/types.ts';

/** A stop before a final answer: its reason is the interruption's type. */
type Interrupted = { [T in Interruption['type']]: { reason: T; interruption: Extract<Interruption, { type: T }> } }[Interruption['type']];

export type Stop =
  | { reason: 'final_answer'; output: string }
  | { reason: 'output_contract'; output: string; error: string }
  | { reason: 'model_error'; error: string; errorType?: string }
  | { reason: 'tool_error' | 'workspace_refused' | 'store_integrity' | 'store_unavailable' | 'workflow_error'; error: string }
  | Interrupted;

/** The status every stop reason ends a run in: a new reason does not compile until it is here. */
export const STOP_STATUS: Record<StopReason, RunStatus> = {
  final_answer: 'completed',
  output_contract: 'failed',
  tool_error: 'failed',
  model_error: 'failed',
  workspace_refused: 'failed',
  store_integrity: 'failed',
  store_unavailable: 'failed',
  workflow_error: 'failed',
  max_turns: 'max_turns_exceeded',
  max_budget: 'budget_exceeded',
  max_time: 'budget_exceeded',
  max_tool_calls: 'budget_exceeded',
  no_progress: 'interrupted',
  policy: 'interrupted',
  schedule_budget: 'interrupted',
  cancelled: 'interrupted',
};

export function interrupted(interruption: Interruption): Stop {
  // The mapped type pairs each reason with its interruption; TypeScript cannot follow `type` into it.
  return { reason: interruption.type, interruption } as Interrupted;
}

/** Stops are told apart from the other results of a step by their `reason`. */
export function isStop(value: object): value is Stop {
  return 'reason' in value;
}

/** What cancelled the loop's work: the wall-time timer, or the run's cancel (with the reason its client gave, if any). */
interface CancelledBy {
  wallTimeUp: boolean;
  cancelReason: string | null;
}

/**
 * The stop for an error that ended the loop (rethrow ContinueAsNew before asking). Call it from the
 * workflow's own scope: a cancellation there is the run's cancellation, not the wall-time timer's.
 */
export function stopForError(error: unknown, why: CancelledBy): Stop {
  if (wf.isCancellation(error)) {
    const stopping = stoppingLine(why);
    return stopping.reason === 'max_time' ? interrupted({ type: 'max_time' }) : interrupted({ type: 'cancelled', reason: stopping.why });
  }
  if (failureType(error) === FailureType.workspaceRefused) return { reason: 'workspace_refused', error: failureMessage(error) };
  if (failureType(error) === FailureType.storeIntegrity) return { reason: 'store_integrity', error: failureMessage(error) };
  if (error instanceof wf.ActivityFailure) {
    const type = failureType(error);
    return { reason: 'model_error', error: failureMessage(error), ...(type ? { errorType: type } : {}) };
  }
  return { reason: 'workflow_error', error: error instanceof Error ? error.message : String(error) };
}

/**
 * The trace line that says the loop's work in flight is being cancelled, for the reason the stop will
 * have. Call it from the workflow's own scope, like `stopForError`.
 */
export function stoppingLine(why: CancelledBy): Extract<TraceEvent, { type: 'stopping' }> {
  if (why.wallTimeUp && !wf.CancellationScope.current().consideredCancelled) return { type: 'stopping', reason: 'max_time' };
  return { type: 'stopping', reason: 'cancelled', why: why.cancelReason ?? 'cancelled through Temporal (no reason given)' };
}

/** The type of the innermost ApplicationFailure in a failure chain, if any. */
export function failureType(error: unknown): string | undefined {
  let type: string | undefined;
  for (let current: unknown = error; current instanceof wf.TemporalFailure; current = current.cause) {
    if (current instanceof wf.ApplicationFailure && current.type) type = current.type;
  }
  return type;
}

/** The innermost message of a Temporal failure chain: the provider's or the tool's own words. */
export function failureMessage(error: unknown): string {
  let current: unknown = error;
  while (current instanceof wf.TemporalFailure && current.cause) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}
