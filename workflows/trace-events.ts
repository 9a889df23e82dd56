import type { RunStatus, StopReason } from './types.ts';

/** One line of a run's trace (JSONL), in the order things happened. */
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
  | { type: 'tool_result'; toolName: string; callId: string; ms: number; ok: boolean }
  | { type: 'run_stopped'; status: RunStatus; reason: StopReason | null; turns: number; toolRuns: number; costUsd: number };

export type TraceLine = TraceEvent & {
  runId: string;
  /** Position in the run's stream, assigned by the workflow: the writer drops a seq it already wrote. */
  seq: number;
  /** ISO time (workflow time for workflow events). */
  at: string;
};
