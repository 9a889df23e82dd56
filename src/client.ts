/**
 * The typed client API: start a run, read its state, cancel it, await its result. Usable from any Node
 * service that has a Temporal client.
 */
import { randomUUID } from 'node:crypto';
import {
  CancelledFailure,
  InternalConnectionLikeSymbol,
  WorkflowFailedError,
  WorkflowUpdateFailedError,
  type Client,
  type ConnectionLike,
  type InternalConnectionLike,
  type WorkflowHandle,
} from '@temporalio/client';
import type { agentWorkflow } from '../workflows/agent.ts';
import {
  AGENT_WORKFLOW_TYPE,
  answerUpdate,
  approveSignal,
  approveUpdate,
  cancelReasonSignal,
  FINAL_STATE_MEMO,
  rejectSignal,
  rejectUpdate,
  stateQuery,
  transcriptQuery,
} from '../workflows/messages.ts';
import { toRunResult } from '../workflows/run-result.ts';
import { TERMINAL_STATUSES, type ApprovalDecision, type ChatMessage, type PendingApproval, type RunResult, type RunState } from '../workflows/types.ts';
import { TASK_QUEUE } from './paths.ts';
import { parseRunInput } from './run-input.ts';
import { checkWorkspace, workspaceRoots } from './workspace-roots.ts';

export class RunNotFoundError extends Error {
  override readonly name = 'RunNotFoundError';
}

/** The run refused a decision (unknown or decided call, stale argsHash); the run is untouched. */
export class ApprovalRefusedError extends Error {
  override readonly name = 'ApprovalRefusedError';
}

/** The run refused an answer (it is not waiting for input, or the call id is not the pending one). */
export class AnswerRefusedError extends Error {
  override readonly name = 'AnswerRefusedError';
}

/** `wait: false` sends the decision as a signal: no answer, and an invalid one is only recorded in the trace. */
export interface DecisionOptions {
  wait?: boolean;
}

export interface AgentClientOptions {
  taskQueue?: string;
  /** Workspaces a run may name (default: AGENT_WORKSPACE_ROOTS, else the demo workspace). Workers check again. */
  workspaceRoots?: readonly string[];
}

export class AgentClient {
  readonly temporal: Client;
  readonly taskQueue: string;
  readonly workspaceRoots: readonly string[];

  constructor(temporal: Client, options: string | AgentClientOptions = {}) {
    const { taskQueue = TASK_QUEUE, workspaceRoots: roots = workspaceRoots() } = typeof options === 'string' ? { taskQueue: options } : options;
    this.temporal = temporal;
    this.taskQueue = taskQueue;
    this.workspaceRoots = roots;
  }

  /**
   * Starts a run and returns its id at once; the run goes on without the caller. Throws
   * InvalidRunInputError (bad input) or WorkspaceRefusedError (a workspace outside the allowed roots).
   */
  async startRun(input: unknown, options: { runId?: string } = {}): Promise<{ runId: string }> {
    const runInput = parseRunInput(input);
    if (runInput.workspace) checkWorkspace(runInput.workspace, this.workspaceRoots);
    const runId = options.runId ?? `run-${randomUUID().slice(0, 8)}`;
    await this.temporal.workflow.start<typeof agentWorkflow>(AGENT_WORKFLOW_TYPE, {
      workflowId: runId,
      taskQueue: this.taskQueue,
      args: [runInput],
      // The first workflow task goes straight to a worker sharing this client's NativeConnection, when
      // there is one; a plain client Connection cannot do that (the SDK refuses), so it starts normally.
      requestEagerStart: supportsEagerStart(this.temporal.connection),
    });
    return { runId };
  }

  /** The run's state: from the workflow while it runs, from its memo once closed (no worker needed then). */
  async getState(runId: string): Promise<RunState> {
    const handle = this.handle(runId);
    const description = await this.describe(handle);
    if (description.status.name !== 'RUNNING') {
      const memo = description.memo?.[FINAL_STATE_MEMO] as RunState | undefined;
      if (memo) return memo;
    }
    return handle.query(stateQuery);
  }

  async transcript(runId: string): Promise<ChatMessage[]> {
    return this.handle(runId).query(transcriptQuery);
  }

  /** Cancels the run: the loop stops, the model call and tools are aborted; the reason is kept in state. */
  async cancelRun(runId: string, reason = 'cancelled by a client'): Promise<void> {
    const handle = this.handle(runId);
    await this.describe(handle);
    await handle.signal(cancelReasonSignal, { reason });
    await handle.cancel();
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
      if ((error as Error).name === 'WorkflowNotFoundError') throw new RunNotFoundError(`No run with id "${handle.workflowId}".`);
      throw error;
    }
  }
}

export function isTerminal(state: Pick<RunState, 'status'>): boolean {
  return TERMINAL_STATUSES.has(state.status);
}

function supportsEagerStart(connection: ConnectionLike): boolean {
  return (connection as InternalConnectionLike)[InternalConnectionLikeSymbol]?.supportsEagerStart === true;
}

function failureText(error: WorkflowUpdateFailedError): string {
  return error.cause instanceof Error ? error.cause.message : error.message;
}
