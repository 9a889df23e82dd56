/**
 * The typed client API: start a run, read its state, cancel it, await its result. Usable from any Node
 * service that has a Temporal client.
 */
import { randomUUID } from 'node:crypto';
import {
  CancelledFailure,
  InternalConnectionLikeSymbol,
  ServiceError,
  WorkflowFailedError,
  WorkflowUpdateFailedError,
  type Client,
  type ConnectionLike,
  type InternalConnectionLike,
  type WorkflowExecutionDescription,
  type WorkflowExecutionInfo,
  type WorkflowHandle,
} from '@temporalio/client';
import proto from '@temporalio/proto';
import type { SearchAttributePair } from '@temporalio/common';
import type { agentWorkflow } from '../../workflows/agent.ts';
import { requireReadableState } from './encrypted-run.ts';
import {
  AGENT_WORKFLOW_TYPE,
  answerUpdate,
  approveSignal,
  approveUpdate,
  cancelReasonSignal,
  FINAL_STATE_MEMO,
  LIVE_STATE_MEMO,
  rejectSignal,
  rejectUpdate,
  stateQuery,
  transcriptQuery,
} from '../wire/messages.ts';
import { DEFAULT_LIMITS } from '../wire/default-limits.ts';
import { toRunResult } from '../wire/run-result.ts';
import { TERMINAL_STATUSES, type ApprovalDecision, type ChatMessage, type LiveRunState, type PendingApproval, type RunResult, type RunState } from '../wire/types.ts';
import { TASK_QUEUE } from '../paths.ts';
import { parseRunInput } from './run-input.ts';
import { checkPrices, providersForChecks } from './price-check.ts';
import type { ProvidersConfig } from '../providers/providers-file.ts';
import { AGENT_COST_USD, AGENT_MODEL, AGENT_PENDING_TOOL, AGENT_STATUS, AGENT_TURNS } from '../wire/search-attributes.ts';
import { matchesFilter, MEMO_GOAL_CHARS, needsStateQuery, runListQuery, toRunSummary, type RunFilter, type RunMemo, type RunSummary } from './run-list.ts';
import { checkWorkspace, workspaceRoots } from '../tools/workspace-roots.ts';
import type { AgentStore } from '../store/store.ts';
import type { CancelRequestedEvent } from '../wire/stop-announcement.ts';
import { AgentError } from '../wire/agent-error.ts';
import { runStartMetadata } from '../wire/summaries.ts';

/** No run has this id (on this client's namespace). */
export class RunNotFoundError extends AgentError {
  override readonly name = 'RunNotFoundError';
  readonly code = 'RunNotFound';
}

/** The run refused a decision (unknown or decided call, stale argsHash); the run is untouched. */
export class ApprovalRefusedError extends AgentError {
  override readonly name = 'ApprovalRefusedError';
  readonly code = 'ApprovalRefused';
}

/** The run refused an answer (it is not waiting for input, or the call id is not the pending one). */
export class AnswerRefusedError extends AgentError {
  override readonly name = 'AnswerRefusedError';
  readonly code = 'AnswerRefused';
}

/** `wait: false` sends the decision as a signal: no answer, and an invalid one is only recorded in the trace. */
export interface DecisionOptions {
  wait?: boolean;
}

/** How an `AgentClient` reaches runs: their task queue, the workspaces it lets a run name, the workers' store. */
export interface AgentClientOptions {
  taskQueue?: string;
  /** Workspaces a run may name (default: AGENT_WORKSPACE_ROOTS, else the demo workspace). Workers check again. */
  workspaceRoots?: readonly string[];
  /**
   * The workers' store: `cancelRun` announces each cancel on the run's event stream, so the run's running
   * tools and model calls stop at once. Without it they stop on the workflow's own announcement, one
   * workflow task later (a model call made as a local activity holds that task: it asks Temporal every second).
   */
  store?: Pick<AgentStore, 'appendEvent'>;
  /**
   * The workers' providers file (`parseProvidersConfig`, `loadProvidersFile`; default: AGENT_PROVIDERS's,
   * when set, read without its keys): a run whose model has no known price is refused here, before it starts.
   */
  providers?: ProvidersConfig | null;
}

/**
 * Starts runs and steers them: state, approvals, answers, cancel, result and listing, over a Temporal
 * `Client`. Needs no worker in its process, and no worker alive for most calls (a closed run's state
 * and a pending approval are read from its memo).
 */
export class AgentClient {
  readonly temporal: Client;
  readonly taskQueue: string;
  readonly workspaceRoots: readonly string[];
  private readonly store: Pick<AgentStore, 'appendEvent'> | undefined;
  private readonly providers: ProvidersConfig | null;
  /** Whether the server knows the agent search attributes (learned at the first start). */
  private searchAttributesRegistered: boolean | undefined;

  constructor(temporal: Client, options: string | AgentClientOptions = {}) {
    const { taskQueue = TASK_QUEUE, workspaceRoots: roots = workspaceRoots(), store, providers } = typeof options === 'string' ? { taskQueue: options } : options;
    this.providers = providers !== undefined ? providers : providersForChecks();
    this.temporal = temporal;
    this.taskQueue = taskQueue;
    this.workspaceRoots = roots;
    this.store = store;
  }

  /**
   * Starts a run and returns its id at once; the run goes on without the caller. Throws
   * InvalidRunInputError (bad input), WorkspaceRefusedError (a workspace outside the allowed roots) or
   * WorkflowExecutionAlreadyStartedError (`runId` names a run that exists or existed: an id is never reused).
   */
  async startRun(input: unknown, options: { runId?: string } = {}): Promise<{ runId: string }> {
    const runInput = parseRunInput(input);
    if (runInput.workspace) checkWorkspace(runInput.workspace, this.workspaceRoots);
    if (this.providers) checkPrices(runInput, this.providers);
    const runId = options.runId ?? `run-${randomUUID().slice(0, 8)}`;
    // An agent's run that names no model runs on the agent's: the memo says which agent until the run's state does.
    const model = runInput.model ?? `agent:${runInput.agent}`;
    const memo: RunMemo = { goal: runInput.goal.slice(0, MEMO_GOAL_CHARS), model, limits: { ...DEFAULT_LIMITS, ...runInput.limits } };
    const start = (searchable: boolean) =>
      this.temporal.workflow.start<typeof agentWorkflow>(AGENT_WORKFLOW_TYPE, {
        workflowId: runId,
        // A run id names one run for good: its trace, receipts and effect records are keyed by it.
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        taskQueue: this.taskQueue,
        args: [runInput],
        // Goal, model and limits, readable from a listing (and the Web UI) without asking the workflow.
        memo: { ...memo },
        // What the Web UI and `temporal workflow describe` show of the run: goal, agent and model; limits and policy.
        ...runStartMetadata(runInput, DEFAULT_LIMITS),
        // Started with the search attributes, the workflow keeps them current (workflows/live-state.ts).
        ...(searchable ? { typedSearchAttributes: initialSearchAttributes(model) } : {}),
        // The first workflow task goes straight to a worker sharing this client's NativeConnection, when
        // there is one; a plain client Connection cannot do that (the SDK refuses), so it starts normally.
        requestEagerStart: supportsEagerStart(this.temporal.connection),
      });
    if (this.searchAttributesRegistered === false) {
      await start(false);
      return { runId };
    }
    try {
      await start(true);
      this.searchAttributesRegistered = true;
    } catch (error) {
      // A server where the agent search attributes are not registered: runs start (and list) without them.
      if (!isInvalidArgument(error)) throw error;
      this.searchAttributesRegistered = false;
      await start(false);
    }
    return { runId };
  }

  /**
   * The run's state: from the workflow while it runs, from its memo once closed (no worker needed then); a
   * running child that waits for a person carries what it waits for.
   */
  async getState(runId: string): Promise<RunState> {
    return this.withWaitingChildren(await this.ownState(runId));
  }

  private async ownState(runId: string): Promise<RunState> {
    const handle = this.handle(runId);
    const description = await this.describe(handle);
    requireReadableState(runId, description);
    const memo = description.memo ?? {};
    if (description.status.name !== 'RUNNING') {
      const final = memo[FINAL_STATE_MEMO] as RunState | undefined;
      if (final) return final;
    }
    // What the run last recorded in its memo, which the server keeps (a run whose first task has not
    // completed has recorded nothing yet: it reads as just started).
    const live = (memo[LIVE_STATE_MEMO] as LiveRunState | undefined) ?? justStarted(description.startTime);
    // A task a worker has held this long is a model call made as a local activity (`modelCall: 'local'`):
    // a query would wait for it to end, so the run's memo answers now.
    const heldMs = heldWorkflowTaskMs(description);
    if (description.status.name === 'RUNNING' && heldMs > HELD_TASK_MS) {
      const why = `its workflow task has been held for ${(heldMs / 1000).toFixed(1)} s (a model call made as a local activity, or a worker that died holding it)`;
      return stateFromMemo(runId, live, memo, description.startTime, why);
    }
    let state: RunState;
    try {
      // A deadline: with no worker alive the server holds a query until its own timeout (tens of seconds).
      state = await this.temporal.withDeadline(Date.now() + STATE_QUERY_TIMEOUT_MS, () => handle.query(stateQuery));
    } catch (error) {
      // No worker to answer (queries need one): the memo is enough to see what waits and approve it with its hash.
      if (description.status.name !== 'RUNNING') throw error;
      return stateFromMemo(runId, live, memo, description.startTime, `no worker answered (${(error as Error).message.split('\n')[0]})`);
    }
    // An activity that keeps failing (the model endpoint, the store) is retried by Temporal; say so.
    const retrying = description.raw.pendingActivities?.find((a) => (a.attempt ?? 0) > 1 && a.lastFailure?.message);
    if (retrying && !state.progress) state.progress = `retrying ${retrying.activityType?.name ?? 'an activity'} (attempt ${retrying.attempt}): ${retrying.lastFailure!.message}`;
    return state;
  }

  /**
   * A running child that waits for a person (an agent called as a tool, waiting for its own approval)
   * says so in its parent's state: read from the child's memo, no worker needed. The parent only knows
   * the child runs; this is where a reader of the parent learns what holds its call, and on which run to decide.
   */
  private async withWaitingChildren(state: RunState): Promise<RunState> {
    const running = state.children.filter((child) => child.status === 'running');
    if (!running.length) return state;
    const waiting = await Promise.all(
      running.map(async (child) => {
        try {
          const memo = (await this.describe(this.handle(child.runId))).memo ?? {};
          return [child.runId, (memo[LIVE_STATE_MEMO] as LiveRunState | undefined)?.pending ?? null] as const;
        } catch {
          return [child.runId, null] as const; // not started yet, or gone: nothing to show
        }
      }),
    );
    const pendingOf = new Map(waiting);
    return {
      ...state,
      children: state.children.map((child) => {
        const pending = pendingOf.get(child.runId);
        return pending ? { ...child, pending } : child;
      }),
    };
  }

  /** The run's memo as its starter recorded it (goal, model, limits), or null for runs started without one. */
  async runMemo(runId: string): Promise<RunMemo | null> {
    const memo = (await this.describe(this.handle(runId))).memo as Partial<RunMemo> | undefined;
    return memo?.goal !== undefined && memo.limits ? (memo as RunMemo) : null;
  }

  /** Throws RunNotFoundError unless a run with this id exists; says whether its workflow is still open. */
  async requireRun(runId: string): Promise<{ open: boolean }> {
    const description = await this.describe(this.handle(runId));
    return { open: description.status.name === 'RUNNING' };
  }

  /**
   * Runs on this client's task queue, newest first, found through Temporal's visibility store (custom
   * search attributes, see run-list.ts). A running run that has to say what it waits for is asked for its
   * state (at most LIST_STATE_TIMEOUT_MS each; without a worker it shows as `running`).
   */
  async listRuns(filter: RunFilter = {}): Promise<RunSummary[]> {
    const limit = filter.limit ?? 50;
    let infos: WorkflowExecutionInfo[];
    try {
      infos = await this.listExecutions(runListQuery(this.taskQueue, filter, { agentAttributes: true }));
    } catch (error) {
      // A server without the agent search attributes registered refuses the query: narrow by ExecutionStatus only.
      if (!isInvalidArgument(error)) throw error;
      infos = await this.listExecutions(runListQuery(this.taskQueue, filter, { agentAttributes: false }));
    }
    const summaries: RunSummary[] = [];
    for (let i = 0; i < infos.length && summaries.length < limit; i += LIST_CONCURRENCY) {
      const batch = await Promise.all(
        infos.slice(i, i + LIST_CONCURRENCY).map(async (info) => toRunSummary(info, needsStateQuery(info) ? await this.stateOrNull(info.workflowId) : null)),
      );
      summaries.push(...batch.filter((run) => matchesFilter(run, filter)));
    }
    return summaries.slice(0, limit);
  }

  private async listExecutions(query: string): Promise<WorkflowExecutionInfo[]> {
    const infos: WorkflowExecutionInfo[] = [];
    for await (const info of this.temporal.workflow.list({ query, pageSize: 200 })) {
      infos.push(info);
      if (infos.length >= LIST_SCAN_LIMIT) break;
    }
    return infos;
  }

  private async stateOrNull(runId: string): Promise<RunState | null> {
    try {
      // A deadline, not a race: the query must not outlive the listing (no worker → it would keep retrying).
      return await this.temporal.withDeadline(Date.now() + LIST_STATE_TIMEOUT_MS, () => this.handle(runId).query(stateQuery));
    } catch {
      return null;
    }
  }

  async transcript(runId: string): Promise<ChatMessage[]> {
    return this.handle(runId).query(transcriptQuery);
  }

  /** Cancels the run: the loop stops, the model call and tools are aborted; the reason is kept in state. */
  async cancelRun(runId: string, reason = 'cancelled by a client'): Promise<void> {
    const handle = this.handle(runId);
    // The reason first, so the run has it when the cancellation reaches it (two round trips, one after
    // the other: sent at once, the server could take the cancel first). A run that is not found is only
    // then told apart from one that has ended (RunNotFoundError for the first, the signal's error for the other).
    try {
      await handle.signal(cancelReasonSignal, { reason });
    } catch (error) {
      if ((error as Error).name === 'WorkflowNotFoundError') await this.describe(handle);
      throw error;
    }
    await handle.cancel();
    // After Temporal has it: an activity that stops on this finds the cancel on its way (activities/heartbeats.ts).
    // Best effort: the cancel stands without it, and the workflow announces it too, a task later.
    const announced: CancelRequestedEvent = { type: 'cancel_requested', reason };
    await this.store?.appendEvent(runId, announced).catch(() => {});
  }

  /** The approval the run waits for, or null. */
  async pendingApproval(runId: string): Promise<PendingApproval | null> {
    const { pending } = await this.getState(runId);
    return pending?.kind === 'approval' ? pending : null;
  }

  /**
   * Approves a pending tool call, named by the harness's `callKey` (from `state.pending`, never the
   * provider's tool-call id). Quote the `argsHash` you were shown: the approval binds to exactly those
   * arguments. Without callKey/argsHash, the currently pending call is approved as it stands.
   */
  async approve(runId: string, request: { callKey?: string; argsHash?: string; by?: string } = {}, options: DecisionOptions = {}): Promise<ApprovalDecision | null> {
    const pending = request.callKey && request.argsHash ? null : await this.requirePending(runId);
    const payload = {
      callKey: request.callKey ?? pending!.callKey,
      argsHash: request.argsHash ?? pending!.argsHash,
      ...(request.by ? { by: request.by } : {}),
    };
    const handle = this.handle(runId);
    if (options.wait === false) return handle.signal(approveSignal, payload).then(() => null);
    return this.decide(() => handle.executeUpdate(approveUpdate, { args: [payload] }));
  }

  /** Rejects a pending tool call; the model is told it was not done, with the reason when given. */
  async reject(runId: string, request: { callKey?: string; reason?: string; by?: string } = {}, options: DecisionOptions = {}): Promise<ApprovalDecision | null> {
    const callKey = request.callKey ?? (await this.requirePending(runId)).callKey;
    const payload = { callKey, ...(request.reason ? { reason: request.reason } : {}), ...(request.by ? { by: request.by } : {}) };
    const handle = this.handle(runId);
    if (options.wait === false) return handle.signal(rejectSignal, payload).then(() => null);
    return this.decide(() => handle.executeUpdate(rejectUpdate, { args: [payload] }));
  }

  private async requirePending(runId: string): Promise<PendingApproval> {
    const pending = await this.pendingApproval(runId);
    if (!pending) throw new ApprovalRefusedError(`Run ${runId} is not waiting for an approval.`);
    return pending;
  }

  private async decide(send: () => Promise<ApprovalDecision>): Promise<ApprovalDecision> {
    try {
      return await send();
    } catch (error) {
      if (error instanceof WorkflowUpdateFailedError) throw new ApprovalRefusedError(failureText(error));
      throw error;
    }
  }

  /** Answers the question the run asked (ask_user); refused unless it is waiting for input. */
  async answer(runId: string, text: string, request: { callKey?: string; by?: string } = {}): Promise<{ callKey: string }> {
    const handle = this.handle(runId);
    try {
      return await handle.executeUpdate(answerUpdate, { args: [{ text, ...request }] });
    } catch (error) {
      if (error instanceof WorkflowUpdateFailedError) throw new AnswerRefusedError(failureText(error));
      // An update to a run that has ended finds no running workflow: say that, as the HTTP API's 409 does.
      if ((error as Error).name === 'WorkflowNotFoundError' && !(await this.requireRun(runId)).open) {
        throw new AnswerRefusedError(`Run ${runId} has ended: it asks nothing any more (its outcome: \`npm run agent -- result ${runId}\`).`);
      }
      throw error;
    }
  }

  /** Waits for the run to end and returns its outcome (an interrupted run included). */
  async result(runId: string): Promise<RunResult> {
    const handle = this.handle(runId);
    try {
      return await handle.result();
    } catch (error) {
      if (error instanceof WorkflowFailedError && error.cause instanceof CancelledFailure) {
        return toRunResult(await this.getState(runId));
      }
      if ((error as Error).name === 'WorkflowNotFoundError') throw runNotFound(runId);
      throw error;
    }
  }

  private handle(runId: string): WorkflowHandle<typeof agentWorkflow> {
    return this.temporal.workflow.getHandle<typeof agentWorkflow>(runId);
  }

  private async describe(handle: WorkflowHandle) {
    try {
      return await handle.describe();
    } catch (error) {
      if ((error as Error).name === 'WorkflowNotFoundError') throw runNotFound(handle.workflowId);
      throw error;
    }
  }
}

function runNotFound(runId: string): RunNotFoundError {
  return new RunNotFoundError(`No run with id "${runId}". List the runs with GET /runs or \`npm run agent -- list\`.`);
}

/** What a run's live memo would say before its first workflow task completed. */
function justStarted(startTime: Date): LiveRunState {
  return { status: 'running', pending: null, turns: 0, toolCalls: 0, toolRuns: 0, costUsd: 0, totalCostUsd: 0, progress: null, updatedAt: startTime.toISOString() };
}

/** How long the run's current workflow task has been held by a worker (0: none is). */
function heldWorkflowTaskMs(description: WorkflowExecutionDescription): number {
  const task = description.raw.pendingWorkflowTask;
  if (task?.state !== proto.temporal.api.enums.v1.PendingWorkflowTaskState.PENDING_WORKFLOW_TASK_STATE_STARTED || !task.startedTime) return 0;
  return Date.now() - Number(task.startedTime.seconds ?? 0) * 1000 - Math.floor((task.startedTime.nanos ?? 0) / 1e6);
}

/** A running run's state as its live memo has it, when the run cannot answer now (`why`). */
function stateFromMemo(runId: string, live: LiveRunState, started: Partial<RunMemo>, startTime: Date, why: string): RunState {
  return {
    ...live,
    runId,
    goal: started.goal ?? '',
    model: started.model ?? '',
    reason: null,
    interruption: null,
    usage: { promptTokens: 0, completionTokens: 0 },
    perTurnPromptTokens: [],
    totalTurns: live.turns,
    children: [],
    output: null,
    error: null,
    receipt: [],
    warnings: [],
    startedAt: startTime.toISOString(),
    progress: `${why}; as the run recorded it at ${live.updatedAt}`,
  };
}

/** The agent search attributes a run starts with (`workflows/live-state.ts` keeps them current). */
export function initialSearchAttributes(model: string): SearchAttributePair[] {
  return [
    { key: AGENT_STATUS, value: 'running' },
    { key: AGENT_PENDING_TOOL, value: '' },
    { key: AGENT_TURNS, value: 0 },
    { key: AGENT_COST_USD, value: 0 },
    { key: AGENT_MODEL, value: model.slice(0, 200) },
  ];
}

/** Listing: executions read from visibility at most, state queries in flight at once, and how long one may take. */
const LIST_SCAN_LIMIT = 1000;
const LIST_CONCURRENCY = 8;
const LIST_STATE_TIMEOUT_MS = 3000;
/** How long `getState` waits for a worker to answer before it reads the run's memo instead. */
const STATE_QUERY_TIMEOUT_MS = 2000;
/** A workflow task held longer than this is not about to complete (a normal one takes milliseconds). */
const HELD_TASK_MS = 1000;

/** Whether the run has ended (completed, failed, a limit reached, interrupted): its state will not change again. */
export function isTerminal(state: Pick<RunState, 'status'>): boolean {
  return TERMINAL_STATUSES.has(state.status);
}

function supportsEagerStart(connection: ConnectionLike): boolean {
  return (connection as InternalConnectionLike)[InternalConnectionLikeSymbol]?.supportsEagerStart === true;
}

/** gRPC INVALID_ARGUMENT, as the server answers a query naming an unregistered search attribute. */
function isInvalidArgument(error: unknown): boolean {
  return error instanceof ServiceError && (error.cause as { code?: number } | undefined)?.code === GRPC_INVALID_ARGUMENT;
}
const GRPC_INVALID_ARGUMENT = 3;

function failureText(error: WorkflowUpdateFailedError): string {
  return error.cause instanceof Error ? error.cause.message : error.message;
}
