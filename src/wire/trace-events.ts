import type { Sinks } from '@temporalio/workflow';
import type { RunStatus, StopReason } from './types.ts';

/** One line of a run's trace (JSONL), in the order things happened. Arguments are redacted. */
export type TraceEvent =
  | {
      type: 'turn';
      turn: number;
      prompt_tokens: number;
      completion_tokens: number;
      total_tokens: number;
      /** Of prompt_tokens, those served from the provider's prompt cache (absent: none reported). */
      cached_tokens?: number;
      /** Of completion_tokens, those spent reasoning (absent: none reported). */
      reasoning_tokens?: number;
      /** The model that served the turn, in a run that names fallback models. */
      model?: string;
      costUsd: number;
      finish: string;
      /** How long the model call took, as the activity measured it (traces written before v0.5 lack it). */
      ms?: number;
      /** The agent in charge of the turn (runs that name an agent). */
      agent?: string;
    }
  /** `to` takes over the run from the next turn (`transfer_to_<to>`, called by `from` as `callKey`). */
  | { type: 'handoff'; from: string; to: string; callKey: string; turn: number }
  /** `callKey` is the harness's key for the call (unique in the run); `toolCallId` is the provider's id. */
  | { type: 'tool_start'; toolName: string; callKey: string; toolCallId: string; args: string }
  | { type: 'tool_progress'; toolName: string; callKey: string; label: string }
  /** `outputRef`/`outputChars`: the whole output, when the model saw only its first maxOutputChars. */
  | { type: 'tool_result'; toolName: string; callKey: string; ms: number; ok: boolean; error?: string; outputRef?: string; outputChars?: number }
  /** A read-only call identical to an earlier one: answered from its result, not run. */
  | { type: 'tool_deduplicated'; toolName: string; callKey: string; sameAs: string }
  | { type: 'tool_denied'; toolName: string; callKey: string; why: string }
  | { type: 'approval_required'; toolName: string; callKey: string; toolCallId: string; args: string; argsHash: string; risk: string; why: string }
  | { type: 'approval_decided'; toolName: string; callKey: string; decision: 'approved' | 'rejected'; reason?: string; by?: string }
  /** A decision sent as a signal that could not apply (unknown call, stale hash, already decided). */
  | { type: 'approval_refused'; callKey: string; error: string }
  | { type: 'input_required'; callKey: string; question: string }
  | { type: 'input_received'; callKey: string }
  /** A claim in the final answer that the receipt contradicts (`message` says which, and what the receipt has). */
  | { type: 'claim_warning'; tool: string; object?: string; clause: string; message: string }
  /**
   * The store could not be reached during `what` (a tool call's key, or `model`): the run waits for it and
   * calls again, the tool with the same idempotency key. `store_available` follows when the call got through.
   */
  | { type: 'store_unavailable'; what: string; error: string }
  | { type: 'store_available'; what: string; waitedMs: number }
  /**
   * The conversation the model is sent was compacted (`workflows/compaction.ts`): `elided` old tool results
   * became stubs naming their `output:<sha256>` reference, and `summarised` older messages became one summary
   * (whose model call cost `costUsd`). `head` is the compaction's transcript link; the whole transcript stays
   * in the store. `why`: the run's budget (`budget`) or the provider's refusal (`provider`).
   */
  | {
      type: 'compacted';
      why: 'budget' | 'provider';
      tokensBefore: number;
      tokensAfter: number;
      windowTokens: number | null;
      elided: number;
      elidedChars: number;
      summarised: number;
      costUsd: number;
      head: string;
    }
  /**
   * A scheduled run skipped for its schedule's daily spend cap: today's runs of `scheduleId` (`day`, in the
   * schedule's time zone) had spent `spentUsd` of `dailyBudgetUsd`. The model was not called; `run_stopped` follows.
   */
  | { type: 'schedule_skipped'; scheduleId: string; day: string; spentUsd: number; dailyBudgetUsd: number; runs: number }
  /** The run goes on in a fresh execution (same run id) to keep its history small. */
  | { type: 'continued_as_new'; turns: number; historyEvents: number; historyBytes: number }
  /**
   * The run's model call, tools and waits in flight are being cancelled (the run's cancel, or its wall time):
   * written before Temporal's cancel reaches them, so its activities stop on this line at once
   * (`stop-announcement.ts`). `run_stopped` follows once they have stopped.
   */
  | { type: 'stopping'; reason: 'max_time' }
  | { type: 'stopping'; reason: 'cancelled'; why: string }
  /** `errorType`: the failure type of the error that ended the run, when it had one (e.g. `ContextTooLong`). */
  | { type: 'run_stopped'; status: RunStatus; reason: StopReason | null; turns: number; toolRuns: number; costUsd: number; errorType?: string }
  /**
   * The model's retries were used up with `ModelUnavailable`: the same turn goes to the next of the run's
   * `fallbackModels` (the decision is in the run's history: a replay takes the same path).
   */
  | { type: 'model_fallback'; turn: number; from: string; to: string; error: string }
  /**
   * A Chat Completions model was sent the conversation without its `items` reasoning items (from turns a
   * Responses model served: after a `model_fallback`, or a handoff), as that wire has no place for them.
   * Written once per execution, at the first turn that drops them (again only if more are dropped later).
   * `model`: the model that served the turn, when the run names fallback models.
   */
  | { type: 'reasoning_dropped'; turn: number; items: number; model?: string };

export type TraceLine = TraceEvent & {
  runId: string;
  /** Position in the run's stream, assigned by the workflow: the writer drops a seq it already wrote. */
  seq: number;
  /** ISO time (workflow time for workflow events). */
  at: string;
};

/** The workflow's one sink: trace lines go to the worker, which writes them to the store (never during replay). */
export interface TraceSinks extends Sinks {
  trace: { emit(line: TraceLine): void };
}
