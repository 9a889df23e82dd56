/** What a run carries across continue-as-new: read and written only by the workflow (`LoopState`). */
import type { ChatMessage, RunState } from '../src/wire/types.ts';

/**
 * What a run carries into its next execution when it continues-as-new: references and totals, never the
 * transcript itself (it is in the store, under `head`). Versioned (`LoopState.fromCarried`): a newer workflow
 * reads the older versions and refuses, loudly, a version it does not know.
 */
export interface CarriedState {
  version: 1;
  state: RunState;
  /** Store head of everything the model has been sent; `unsent` follows it. */
  head: string | null;
  unsent: ChatMessage[];
  seq: number;
  startedAtMs: number;
  mediumRuns: number;
  /** Execution keys used by runs whose calls are keyed by provider id (started before harness call keys). */
  usedCallIds?: string[];
  /**
   * Read-only results kept for deduplication (bounded in size), with the key of the call that produced each
   * (named `callId` because that is what carried states of this version call it).
   */
  readOnlyResults: [signature: string, result: { content: string; callId: string }][];
  /** Repetition tracking (absent in states carried by workers that predate these fields: starts afresh). */
  progressGuard?: ProgressGuardState;
  policyDenials?: number;
  outputRepairs?: number;
  /** What the run knows of its context (absent in states carried before compaction: starts afresh). */
  context?: ContextState;
}

/** The run's context between model calls (`compaction.ts`). */
export interface ContextState {
  /** The last request's size in tokens: the provider's prompt tokens, or the count after a compaction (0: unknown). */
  tokens: number;
  compactions: number;
  /** The run has elided tool results, so it offers `recall_output`. */
  recallOffered: boolean;
}

export interface ProgressGuardState {
  lastCall: string | null;
  repeats: number;
  staleTurns: number;
  seenResults: string[];
  warned: boolean;
}
