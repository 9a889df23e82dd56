/**
 * The workflow's changes that histories recorded before them replay without (Temporal patches).
 *
 * Each `wf.patched(id)` of a fresh run records a marker in history and makes Temporal upsert the run's
 * TemporalChangeVersion search attribute: two events and a visibility write per change, in every run. So a
 * fresh execution records one marker (`ALL_OF_V09`) that stands for every change up to v0.9; an execution
 * recorded before it replays through the markers it has (v0.8's `ALL_OF_V08`, v0.6's `ALL_OF_V06` and one
 * per change after it), as it always did.
 *
 * A later change gets a marker of its own: add its id to `Change` (not to `UP_TO_V09`, which a v0.9
 * execution's one marker stands for, and which it lacks).
 */
import * as wf from '@temporalio/workflow';

/** What the one marker `ALL_OF_V06` stands for. */
const UP_TO_V06 = ['no-progress-and-policy-stops', 'harness-call-keys', 'live-state-memo', 'mcp-tools-with-model-call', 'mcp-tools'] as const;
const ALL_OF_V06 = 'changes-to-v0.6';
/** What the one marker `ALL_OF_V08` stands for: those up to v0.6, and each change after it up to v0.8. */
const UP_TO_V08 = [
  ...UP_TO_V06,
  'store-outage-waits',
  'worker-tools',
  'child-spend-kept',
  'claims-in-activity',
  'claims-judge',
  'context-compaction',
  'model-fallback',
  'model-queues',
  'worker-loss-retries',
  'live-state-once-per-activation',
] as const satisfies readonly Change[];
const ALL_OF_V08 = 'changes-to-v0.8';
/** What the one marker `ALL_OF_V09` stands for: those up to v0.8, and each change after it up to v0.9. */
const UP_TO_V09 = [...UP_TO_V08, 'claims-with-model-call'] as const satisfies readonly Change[];
const ALL_OF_V09 = 'changes-to-v0.9';

/**
 * Every change a history may lack: those up to v0.6, then (`| 'id'`) each later one. A later change is asked
 * only where its code path begins, so runs that never take that path record no marker.
 */
export type Change =
  | (typeof UP_TO_V06)[number]
  /** A store outage is waited out (`store-outage.ts`); before, it failed the call. */
  | 'store-outage-waits'
  /** A run may name the worker's own tools (`worker-tools.ts`); before, an unknown name failed the run at once. */
  | 'worker-tools'
  /** A child run that returns no result (cancelled, failed) still counts its spend (`research.ts`); before, it was lost. */
  | 'child-spend-kept'
  /** The final answer's claims are checked by a local activity (`claim-check.ts`); before, inside the workflow. */
  | 'claims-in-activity'
  /** The optional claim judge after a final answer (`policy.claimJudge`, `claim-check.ts`). */
  | 'claims-judge'
  /** A model call over the context budget or refused as too long compacts the conversation and calls again (`compaction.ts`); before, it failed the run. */
  | 'context-compaction'
  /** A model unavailable past its retries hands the turn to the run's next fallback model (`model-chain.ts`). */
  | 'model-fallback'
  /** A run naming `provider/model` asks which models go to a rate-limited provider's task queue (`model-chain.ts`). */
  | 'model-queues'
  /** A tool that may run again, whose every attempt lost its worker, is scheduled again (`lost-workers.ts`); before, the model was told of a heartbeat timeout. */
  | 'worker-loss-retries'
  /** The memo and search attributes are upserted once per activation, with what changed in it; before, once per change. */
  | 'live-state-once-per-activation'
  /** A final answer's claims are checked by the model call that gave it (`claim-check.ts`); before, by a local activity after it. */
  | 'claims-with-model-call';

/** Create it first thing in the workflow, before anything asks `has`, so every execution asks in the same order. */
export class Changes {
  private readonly allOfV09 = wf.patched(ALL_OF_V09);
  // Asked only of an execution recorded before v0.9, then before v0.8 (a fresh one records no second marker).
  private readonly allOfV08 = this.allOfV09 || wf.patched(ALL_OF_V08);
  private readonly allOfV06 = this.allOfV08 || wf.patched(ALL_OF_V06);

  has(change: Change): boolean {
    if (this.allOfV09 && (UP_TO_V09 as readonly string[]).includes(change)) return true;
    if (this.allOfV08 && (UP_TO_V08 as readonly string[]).includes(change)) return true;
    return (this.allOfV06 && (UP_TO_V06 as readonly string[]).includes(change)) || wf.patched(change);
  }
}

/**
 * What a run recorded before a change still does: one named flag per old behaviour, each derived from the
 * change that ended it (one change may have ended several). Ask once, at the start of an execution.
 */
export interface OldBehaviours {
  /** No repetition or policy-denial stops (before `no-progress-and-policy-stops`). */
  noRepetitionStops: boolean;
  /**
   * Calls keyed by the provider's tool_call_id, a reused id getting `~2`, `~3`… for its tool run (before
   * `harness-call-keys`, from when calls are keyed `t<turn>.<n>` by the harness: providers reuse ids, and an
   * approval must not unlock another call).
   */
  providerCallKeys: boolean;
  /** A turn's tool results not fitted under one shared budget (before `harness-call-keys`). */
  unboundedTurnResults: boolean;
  /**
   * The first stop or error in time ends a tool step, its siblings left running (before 9a5df69). Every such
   * history predates `harness-call-keys` and every history with that marker postdates 9a5df69, so the
   * marker tells them apart (a new patch id could not: the release of 9a5df69 recorded none).
   */
  firstStopEndsStep: boolean;
}

export function oldBehaviours(changes: Changes): OldBehaviours {
  const noRepetitionStops = !changes.has('no-progress-and-policy-stops');
  const beforeCallKeys = !changes.has('harness-call-keys');
  return { noRepetitionStops, providerCallKeys: beforeCallKeys, unboundedTurnResults: beforeCallKeys, firstStopEndsStep: beforeCallKeys };
}
