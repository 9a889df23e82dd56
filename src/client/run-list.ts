/**
 * Finding runs through Temporal's visibility store: the list query a filter becomes, and how a listed
 * execution becomes a run summary.
 *
 * The workflow keeps the custom search attributes (search-attributes.ts) and a live-state memo (status,
 * pending call, turns, cost) current, so a listing needs no worker. A run that has neither (started
 * before they existed, or on a server without the attributes) is still found: the query keeps such runs
 * by their Temporal ExecutionStatus (running vs closed) and the summary reads their status from the
 * final-state memo (closed) or the state query (running); then the filter is applied again here.
 */
import type { WorkflowExecutionInfo, WorkflowExecutionStatusName } from '@temporalio/client';
import { AGENT_COST_USD, AGENT_PENDING_TOOL, AGENT_STATUS, AGENT_TURNS } from '../wire/search-attributes.ts';
import { isEncryptedMarker } from './payload-codec.ts';
import { AGENT_WORKFLOW_TYPE, FINAL_STATE_MEMO, LIVE_STATE_MEMO } from '../wire/messages.ts';
import { TERMINAL_STATUSES, type LiveRunState, type RunState, type RunStatus } from '../wire/types.ts';
import type { RunLimits } from '../wire/run-input.ts';
import type { z } from 'zod';
import type { runSummarySchema } from '../wire/run-state.ts';

/** Which runs `AgentClient.listRuns` returns. */
export interface RunFilter {
  /** Any of these statuses. */
  status?: readonly RunStatus[];
  /** Only runs waiting for a person (an approval or an answer). */
  pending?: boolean;
  /** Only runs waiting for approval of a call to this tool. */
  tool?: string;
  /** At most this many runs (default 50, newest first). */
  limit?: number;
}

/** One run as a listing shows it (from Temporal's visibility, and the run's state when it waits for something). */
export type RunSummary = z.infer<typeof runSummarySchema>;

/** What the client records in the memo at start: shown by the Web UI and read back by lists and the run page. */
export interface RunMemo {
  goal: string;
  model: string;
  limits: RunLimits;
}

export const WAITING_STATUSES: readonly RunStatus[] = ['waiting_approval', 'waiting_input'];
/** Goals longer than this are cut in the memo (the whole goal is in the run's input and state). */
export const MEMO_GOAL_CHARS = 1000;

const SAFE_VALUE = /^[\w.:@/-]+$/;

/** The statuses a filter admits, or null for any. */
export function wantedStatuses(filter: RunFilter): RunStatus[] | null {
  let wanted: RunStatus[] | null = filter.status?.length ? [...filter.status] : null;
  const narrow = (to: readonly RunStatus[]) => (wanted = (wanted ?? [...to]).filter((s) => to.includes(s)));
  if (filter.pending) narrow(WAITING_STATUSES);
  if (filter.tool) narrow(['waiting_approval']);
  return wanted;
}

/**
 * The visibility query for `filter` on `taskQueue`: top-level runs, and when the filter asks for runs that
 * wait for a person, child runs too (an agent called as a tool may wait for an approval; its summary names
 * its parent). With `agentAttributes` the
 * query narrows by AgentStatus/AgentPendingTool but keeps runs that lack them; without, it narrows by
 * ExecutionStatus alone (for a server where those attributes are not registered).
 */
export function runListQuery(taskQueue: string, filter: RunFilter, options: { agentAttributes: boolean }): string {
  const clauses = [`WorkflowType = ${quote(AGENT_WORKFLOW_TYPE)}`, `TaskQueue = ${quote(taskQueue)}`];
  const statuses = wantedStatuses(filter);
  if (!statuses?.every((s) => WAITING_STATUSES.includes(s))) clauses.push('ParentWorkflowId IS NULL');
  if (statuses) {
    const execution = executionClause(statuses);
    if (!options.agentAttributes) {
      if (execution) clauses.push(execution);
    } else {
      const unknown = execution ? `(${AGENT_STATUS.name} IS NULL AND ${execution})` : `${AGENT_STATUS.name} IS NULL`;
      clauses.push(`(${AGENT_STATUS.name} IN (${statuses.map(quote).join(', ')}) OR ${unknown})`);
    }
  }
  if (filter.tool && options.agentAttributes) {
    clauses.push(`(${AGENT_PENDING_TOOL.name} = ${quote(filter.tool)} OR ${AGENT_PENDING_TOOL.name} IS NULL)`);
  }
  return clauses.join(' AND ');
}

/** Which Temporal executions can have these statuses: running ones, closed ones, or either (null). */
function executionClause(statuses: readonly RunStatus[]): string | null {
  const closed = statuses.filter((s) => TERMINAL_STATUSES.has(s)).length;
  if (closed === 0) return `ExecutionStatus = 'Running'`;
  if (closed === statuses.length) return `ExecutionStatus != 'Running'`;
  return null;
}

function quote(value: string): string {
  if (!SAFE_VALUE.test(value)) throw new RangeError(`Cannot put ${JSON.stringify(value)} in a list query: use letters, digits and . _ : @ / - only.`);
  return `'${value}'`;
}

/** How a field encrypted with AGENT_PAYLOAD_KEY shows in a listing read without the key. */
export const ENCRYPTED_FIELD = '(encrypted: AGENT_PAYLOAD_KEY)';

/** Whether the listed execution needs its state query to say what it is (running, with no live-state memo). */
export function needsStateQuery(info: WorkflowExecutionInfo): boolean {
  if (info.status.name !== 'RUNNING' || info.memo?.[LIVE_STATE_MEMO] !== undefined) return false;
  const status = info.typedSearchAttributes.get(AGENT_STATUS) as RunStatus | undefined;
  // A waiting run's summary shows what it waits for, which only its state has.
  return status === undefined || WAITING_STATUSES.includes(status);
}

/**
 * A summary from the listing: the memo (goal and model from the start, the live state while it runs, the
 * final state once closed) and, for a running run without a live-state memo, its state query's answer.
 */
export function toRunSummary(info: WorkflowExecutionInfo, queried: RunState | null): RunSummary {
  const memo = (info.memo ?? {}) as Partial<RunMemo> & Record<string, unknown>;
  // Read without AGENT_PAYLOAD_KEY, an encrypted run's memo holds markers: what it says comes from the
  // search attributes (clear text), and its goal and model show as encrypted.
  const clear = <T>(value: unknown): T | null => (value === undefined || isEncryptedMarker(value) ? null : (value as T));
  const running = info.status.name === 'RUNNING';
  const final = running ? null : clear<RunState>(memo[FINAL_STATE_MEMO]);
  const live = running ? clear<LiveRunState>(memo[LIVE_STATE_MEMO]) : null;
  const state = final ?? queried;
  const attributeStatus = info.typedSearchAttributes.get(AGENT_STATUS) as RunStatus | undefined;
  const shown = (value: unknown) => (isEncryptedMarker(value) ? ENCRYPTED_FIELD : clear<string>(value));
  return {
    runId: info.workflowId,
    status: state?.status ?? live?.status ?? attributeStatus ?? statusFromTemporal(info.status.name),
    goal: shown(memo.goal) ?? state?.goal ?? null,
    model: shown(memo.model) ?? state?.model ?? null,
    startedAt: info.startTime.toISOString(),
    closedAt: info.closeTime?.toISOString() ?? null,
    turns: state?.totalTurns ?? live?.turns ?? info.typedSearchAttributes.get(AGENT_TURNS) ?? null,
    costUsd: state?.totalCostUsd ?? live?.totalCostUsd ?? info.typedSearchAttributes.get(AGENT_COST_USD) ?? null,
    pending: state?.pending ?? live?.pending ?? null,
    ...(info.parentExecution?.workflowId ? { parentRunId: info.parentExecution.workflowId } : {}),
  };
}

/** The filter again, on what the summaries say (the query could only narrow). */
export function matchesFilter(run: RunSummary, filter: RunFilter): boolean {
  const statuses = wantedStatuses(filter);
  if (statuses && !statuses.includes(run.status)) return false;
  if (filter.tool && !(run.pending?.kind === 'approval' && run.pending.toolName === filter.tool)) return false;
  return true;
}

/** A run whose workflow closed without recording its final state (terminated, timed out) or still running. */
function statusFromTemporal(name: WorkflowExecutionStatusName): RunStatus {
  switch (name) {
    case 'RUNNING':
    case 'CONTINUED_AS_NEW':
      return 'running';
    case 'COMPLETED':
      return 'completed';
    case 'CANCELLED':
      return 'interrupted';
    default:
      return 'failed';
  }
}
