/**
 * What the Temporal server itself shows of a run, so that a waiting run can be read — and found — with
 * no worker alive (queries need one): a compact memo (status, pending call with its redacted arguments
 * and hash, turns, cost) and the custom search attributes (status, pending tool, turns, cost, model).
 * Upserted only when one of them changes, and (from `live-state-once-per-activation`) at most once per
 * activation, at its end, with everything that changed in it: each upsert is an event and a visibility
 * write on the server, and a turn changes the state several times. Runs recorded before this existed
 * replay without it.
 */
import * as wf from '@temporalio/workflow';
import { AGENT_COST_USD, AGENT_PENDING_TOOL, AGENT_STATUS, AGENT_TURNS } from '../src/wire/search-attributes.ts';
import { LIVE_STATE_MEMO } from '../src/wire/messages.ts';
import type { LiveRunState, RunState } from '../src/wire/types.ts';
import type { Changes } from './changes.ts';

export class LiveState {
  /** Whether this run publishes at all (histories from before it must replay unchanged). */
  private readonly enabled: boolean;
  /** Search attributes only when the run was started with them (they must be registered on the server). */
  private readonly searchable = wf.workflowInfo().typedSearchAttributes.get(AGENT_STATUS) !== undefined;
  private readonly oncePerActivation: boolean;
  private lastMemo = '';
  private lastAttributes = '';
  /** The state to publish at the end of this activation (a microtask after the code that changed it). */
  private due: RunState | null = null;

  constructor(changes: Changes) {
    this.enabled = changes.has('live-state-memo');
    this.oncePerActivation = this.enabled && changes.has('live-state-once-per-activation');
  }

  /** The state changed: published now (runs recorded before once-per-activation), or at the end of this activation. */
  publish(state: RunState): void {
    if (!this.enabled) return;
    if (!this.oncePerActivation) return this.upsert(state, {});
    if (this.due) return;
    this.due = state;
    void Promise.resolve().then(() => this.flush());
  }

  /**
   * Publishes what is due now, with `memo` (more memo fields) in the same upsert: the execution is about to
   * close or continue as new, and must not leave it to a microtask.
   */
  flush(memo: Record<string, unknown> = {}): void {
    const state = this.due;
    this.due = null;
    if (state) this.upsert(state, memo);
    else if (Object.keys(memo).length) wf.upsertMemo(memo);
  }

  private upsert(state: RunState, memo: Record<string, unknown>): void {
    const live: LiveRunState = {
      status: state.status,
      pending: state.pending,
      turns: state.turns,
      toolCalls: state.toolCalls,
      toolRuns: state.toolRuns,
      costUsd: state.costUsd,
      totalCostUsd: state.totalCostUsd,
      progress: state.progress,
      updatedAt: state.updatedAt,
    };
    // The status and what waits decide when the memo changes; turns and cost ride along.
    const memoKey = JSON.stringify([live.status, live.pending?.callKey ?? null]);
    if (memoKey !== this.lastMemo) {
      this.lastMemo = memoKey;
      wf.upsertMemo({ [LIVE_STATE_MEMO]: live, ...memo });
    } else if (Object.keys(memo).length) wf.upsertMemo(memo);
    if (!this.searchable) return;
    const attributes = JSON.stringify([state.status, state.pending?.kind === 'approval' ? state.pending.toolName : '', state.turns, state.totalCostUsd]);
    if (attributes === this.lastAttributes) return;
    this.lastAttributes = attributes;
    wf.upsertSearchAttributes([
      { key: AGENT_STATUS, value: state.status },
      { key: AGENT_PENDING_TOOL, value: state.pending?.kind === 'approval' ? state.pending.toolName : '' },
      { key: AGENT_TURNS, value: state.turns },
      { key: AGENT_COST_USD, value: state.totalCostUsd },
    ]);
  }
}
