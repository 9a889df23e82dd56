/**
 * What Temporal's history says about a run, execution by execution: the run input, every model call (its
 * transcript link and the reply), every tool activity (its call key and outcome), the answers given, the
 * children started, and how each execution closed. Payloads are decoded with the client's data converter,
 * so an encrypted history (AGENT_PAYLOAD_KEY) reads the same.
 */
import type { Client } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { decodeArrayFromPayloads } from '@temporalio/common/lib/internal-non-workflow/index.js';
import type { temporal } from '@temporalio/proto';
import type { CallModelInput } from '../../activities/call-model.ts';
import type { RunToolInput } from '../../activities/run-tool.ts';
import type { CompactContextResult } from '../../activities/compact-context.ts';
import type { AnswerRequest, ModelReply, RunResult, ToolOutcome } from '../wire/types.ts';
import type { RunInput } from '../wire/run-input.ts';
import { isOverBudget } from '../wire/context-window.ts';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

export interface ModelCallFacts {
  input: CallModelInput;
  /** The reply; null when the call failed, was cancelled, or is still running. */
  reply: ModelReply | null;
  failure?: string;
  /** The failure's type (an `ApplicationFailure`'s), when it has one. */
  failureType?: string;
  /** The request was over the run's context budget and not sent (`OverBudget`): the run compacted first. */
  overBudget?: boolean;
}

/** A compaction of the conversation (`activities/compact-context.ts`): its result, once it has one. */
export interface CompactionFacts {
  result: CompactContextResult | null;
}

export interface ToolRunFacts {
  input: RunToolInput;
  outcome: ToolOutcome | null;
  failure?: string;
}

export type ExecutionClose = 'completed' | 'continued_as_new' | 'failed' | 'cancelled' | 'terminated' | 'timed_out' | null;

export interface ExecutionFacts {
  /** Temporal's run id of this execution. */
  executionId: string;
  input: RunInput;
  /** Model calls, in the order the workflow scheduled them. */
  modelCalls: ModelCallFacts[];
  /** Tool activities (not local ones: quick read-only tools leave only their result, without the call key). */
  toolRuns: ToolRunFacts[];
  /** Compactions of the conversation, in order. */
  compactions: CompactionFacts[];
  /** Accepted `answer` updates, in order. */
  answers: AnswerRequest[];
  /** Workflow ids of the children this execution started, in order. */
  children: string[];
  /** The workflow's return value when the execution completed. */
  result: RunResult | null;
  close: ExecutionClose;
}

/** Every execution of the run, oldest first (following continue-as-new back from the latest). */
export async function readExecutions(temporal: Client, workflowId: string): Promise<ExecutionFacts[]> {
  const latest = await temporal.workflow.getHandle(workflowId).describe();
  const executions: ExecutionFacts[] = [];
  for (let executionId: string | null = latest.runId; executionId; ) {
    const history = await temporal.workflow.getHandle(workflowId, executionId).fetchHistory();
    const facts = await executionFacts(temporal, executionId, history.events ?? []);
    executions.unshift(facts.execution);
    executionId = facts.previous;
  }
  return executions;
}

async function executionFacts(temporal: Client, executionId: string, events: HistoryEvent[]): Promise<{ execution: ExecutionFacts; previous: string | null }> {
  const converter = temporal.options.loadedDataConverter;
  const decode = async <T>(payloads: { payloads?: Payload[] | null } | null | undefined): Promise<T[]> =>
    (await decodeArrayFromPayloads(converter, payloads?.payloads ?? undefined)) as T[];
  const execution: ExecutionFacts = { executionId, input: undefined as unknown as RunInput, modelCalls: [], toolRuns: [], compactions: [], answers: [], children: [], result: null, close: null };
  let previous: string | null = null;
  /** Scheduled activities by event id: the completion names its scheduling event. */
  const scheduled = new Map<string, ModelCallFacts | ToolRunFacts | CompactionFacts>();
  for (const event of events) {
    const id = String(event.eventId);
    if (event.workflowExecutionStartedEventAttributes) {
      const started = event.workflowExecutionStartedEventAttributes;
      execution.input = (await decode<RunInput>(started.input))[0]!;
      previous = started.continuedExecutionRunId || null;
    } else if (event.activityTaskScheduledEventAttributes) {
      const attrs = event.activityTaskScheduledEventAttributes;
      const [input] = await decode<unknown>(attrs.input);
      if (attrs.activityType?.name === 'callModel') {
        const call: ModelCallFacts = { input: input as CallModelInput, reply: null };
        execution.modelCalls.push(call);
        scheduled.set(id, call);
      } else if (attrs.activityType?.name === 'runTool') {
        const run: ToolRunFacts = { input: input as RunToolInput, outcome: null };
        execution.toolRuns.push(run);
        scheduled.set(id, run);
      } else if (attrs.activityType?.name === 'compactContext') {
        const compaction: CompactionFacts = { result: null };
        execution.compactions.push(compaction);
        scheduled.set(id, compaction);
      }
    } else if (event.activityTaskCompletedEventAttributes) {
      const attrs = event.activityTaskCompletedEventAttributes;
      const entry = scheduled.get(String(attrs.scheduledEventId));
      if (!entry) continue;
      const [value] = await decode<unknown>(attrs.result);
      if ('reply' in entry && isOverBudget(value as object)) entry.overBudget = true;
      else if ('reply' in entry) entry.reply = value as ModelReply;
      else if ('outcome' in entry) entry.outcome = value as ToolOutcome;
      else entry.result = value as CompactContextResult;
    } else if (event.activityTaskFailedEventAttributes || event.activityTaskTimedOutEventAttributes || event.activityTaskCanceledEventAttributes) {
      const attrs = event.activityTaskFailedEventAttributes ?? event.activityTaskTimedOutEventAttributes ?? event.activityTaskCanceledEventAttributes!;
      const entry = scheduled.get(String(attrs.scheduledEventId));
      if (!entry) continue;
      if ('result' in entry) continue;
      const failure = 'failure' in attrs ? attrs.failure?.message : undefined;
      entry.failure = failure ?? (event.activityTaskCanceledEventAttributes ? 'cancelled' : 'timed out');
      const type = 'failure' in attrs ? (attrs.failure?.cause?.applicationFailureInfo?.type ?? attrs.failure?.applicationFailureInfo?.type) : undefined;
      if ('reply' in entry && type) entry.failureType = type;
    } else if (event.workflowExecutionUpdateAcceptedEventAttributes) {
      const request = event.workflowExecutionUpdateAcceptedEventAttributes.acceptedRequest;
      if (request?.input?.name === 'answer') execution.answers.push((await decode<AnswerRequest>(request.input.args))[0]!);
    } else if (event.startChildWorkflowExecutionInitiatedEventAttributes) {
      const childId = event.startChildWorkflowExecutionInitiatedEventAttributes.workflowId;
      if (childId) execution.children.push(childId);
    } else if (event.workflowExecutionCompletedEventAttributes) {
      execution.result = (await decode<RunResult>(event.workflowExecutionCompletedEventAttributes.result))[0] ?? null;
      execution.close = 'completed';
    } else if (event.workflowExecutionContinuedAsNewEventAttributes) {
      execution.close = 'continued_as_new';
    } else if (event.workflowExecutionFailedEventAttributes) {
      execution.close = 'failed';
    } else if (event.workflowExecutionCanceledEventAttributes) {
      execution.close = 'cancelled';
    } else if (event.workflowExecutionTerminatedEventAttributes) {
      execution.close = 'terminated';
    } else if (event.workflowExecutionTimedOutEventAttributes) {
      execution.close = 'timed_out';
    }
  }
  if (!execution.input) throw new Error(`The history of ${executionId} has no start event.`);
  return { execution, previous };
}
