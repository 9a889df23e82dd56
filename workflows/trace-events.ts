import type { RunStatus, StopReason } from './types.ts';

/** One line of a run's trace (JSONL), in the order things happened. Arguments are redacted. */
export type TraceEvent =
  | {
      type: 'turn';
      turn: number;
      prompt_tokens: number;
      completion_tokens: number;
      total_tokens: number;
      costUsd: number;
      finish: string;
    }
  | { type: 'tool_start'; toolName: string; callId: string; args: string }
  | { type: 'tool_progress'; toolName: string; callId: string; label: string }
  | { type: 'tool_result'; toolName: string; callId: string; ms: number; ok: boolean; error?: string }
  /** A read-only call identical to an earlier one: answered from its result, not run. */
  | { type: 'tool_deduplicated'; toolName: string; callId: string; sameAs: string }
  | { type: 'tool_denied'; toolName: string; callId: string; why: string }
  | { type: 'approval_required'; toolName: string; callId: string; args: string; argsHash: string; risk: string; why: string }
  | { type: 'approval_decided'; toolName: string; callId: string; decision: 'approved' | 'rejected'; reason?: string; by?: string }
  /** A decision sent as a signal that could not apply (unknown call, stale hash, already decided). */
  | { type: 'approval_refused'; callId: string; error: string }
  | { type: 'input_required'; callId: string; question: string }
  | { type: 'input_received'; callId: string }
  /** The run goes on in a fresh execution (same run id) to keep its history small. */
  | { type: 'continued_as_new'; turns: number; historyEvents: number; historyBytes: number }
  | { type: 'run_stopped'; status: RunStatus; reason: StopReason | null; turns: number; toolRuns: number; costUsd: number };

export type TraceLine = TraceEvent & {
  runId: string;
  /** Position in the run's stream, assigned by the workflow: the writer drops a seq it already wrote. */
  seq: number;
  /** ISO time (workflow time for workflow events). */
  at: string;
};
