/** How the workflow calls its activities: timeouts, retries, heartbeats and cancellation, in one place. */
import * as wf from '@temporalio/workflow';
import type { AgentActivities } from '../activities/index.ts';
import type { ToolContract } from '../src/tools/define-tool.ts';
import { FailureType } from '../src/wire/failures.ts';

/**
 * How long an activity may go without a heartbeat before Temporal retries it elsewhere: how quickly a run
 * moves on from a dead worker. Activities heartbeat every second, so only a dead (or hung) process misses this.
 */
const HEARTBEAT_TIMEOUT = '5 seconds';

const MODEL_CALL = {
  startToCloseTimeout: '10 minutes',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '30 seconds',
    maximumAttempts: 6,
    nonRetryableErrorTypes: [FailureType.modelRequestRejected, FailureType.runCancelRequested, FailureType.wallTimeUp],
  },
  // The run reports `interrupted` only once the HTTP request has really been aborted.
  cancellationType: wf.ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
} satisfies wf.ActivityOptions & wf.LocalActivityOptions;

export const { callModel } = wf.proxyActivities<AgentActivities>({ ...MODEL_CALL, heartbeatTimeout: HEARTBEAT_TIMEOUT });

/** Compaction (`compaction.ts`): its summary is a model call, with a model call's timeout, retries and cancellation. */
export const { compactContext } = wf.proxyActivities<AgentActivities>({ ...MODEL_CALL, heartbeatTimeout: HEARTBEAT_TIMEOUT });
type CallModelProxy = wf.ActivityInterfaceFor<AgentActivities>['callModel'];
const callModelOnQueue = new Map<string, CallModelProxy>();

/** The model call on a rate-limited provider's task queue (`src/providers/model-queues.ts`); the run's own queue when undefined. */
export function callModelOn(taskQueue: string | undefined): CallModelProxy {
  if (taskQueue === undefined) return callModel;
  let call = callModelOnQueue.get(taskQueue);
  if (!call) {
    call = wf.proxyActivities<AgentActivities>({ ...MODEL_CALL, heartbeatTimeout: HEARTBEAT_TIMEOUT, taskQueue }).callModel;
    callModelOnQueue.set(taskQueue, call);
  }
  return call;
}

/** Which of the run's models are called on a rate-limited provider's queue: asked once per execution, in history. */
export const { modelQueues } = wf.proxyLocalActivities<AgentActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3, initialInterval: '1 second' },
});

/**
 * The model call as a local activity (`modelCall: 'local'`): it holds the workflow task until it ends, so
 * the run's cancel and wall time reach it through its input, the store and its own asking of Temporal, not
 * through the workflow (`model-call.ts`, `activities/local-call-interruptions.ts`).
 */
export const { callModel: localCallModel } = wf.proxyLocalActivities<AgentActivities>(MODEL_CALL);

/** The worker's MCP tool definitions (held in memory by the worker): a local activity, recorded in history. */
export const { mcpTools } = wf.proxyLocalActivities<AgentActivities>({
  startToCloseTimeout: '10 seconds',
  summary: "the worker's tools and agents",
  retry: { maximumAttempts: 3, initialInterval: '1 second' },
});

/** What a child run that returned no result spent (its memo): a local activity, recorded in history. */
export const { childTotals } = wf.proxyLocalActivities<AgentActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3, initialInterval: '1 second' },
});

/** What a schedule's runs spent today (visibility): a local activity, recorded in history. */
export const { scheduleSpend } = wf.proxyLocalActivities<AgentActivities>({
  startToCloseTimeout: '30 seconds',
  summary: "the schedule's spend today",
  retry: { maximumAttempts: 3, initialInterval: '1 second' },
});

/** Quick read-only tools run as local activities: the same durability for their result, one round trip less. */
const LOCAL_ACTIVITY_MAX_MS = 10_000;

/** The `runTool` activity with this tool's timeout and retries: local for quick low-risk reads. */
export function toolActivity(contract: ToolContract): Pick<wf.ActivityInterfaceFor<AgentActivities> | wf.LocalActivityInterfaceFor<AgentActivities>, 'runTool'> {
  const retry = toolRetry(contract);
  // Like the model call: a cancelled tool has really stopped (or its activity has abandoned it) before the run moves on.
  const cancellationType = wf.ActivityCancellationType.WAIT_CANCELLATION_COMPLETED;
  if (contract.readOnly && contract.risk === 'low' && contract.timeoutMs <= LOCAL_ACTIVITY_MAX_MS) {
    return wf.proxyLocalActivities<AgentActivities>({ startToCloseTimeout: contract.timeoutMs, retry, cancellationType });
  }
  return wf.proxyActivities<AgentActivities>({ startToCloseTimeout: contract.timeoutMs, heartbeatTimeout: HEARTBEAT_TIMEOUT, retry, cancellationType });
}

/**
 * A tool's retries: what its contract says, else 3 attempts for a tool that may safely run again (read-only,
 * or idempotent: it honours the idempotency key) and 1 for any other, so a failure whose effect is unknown
 * is reported instead of repeated.
 */
export function toolRetry(contract: Pick<ToolContract, 'readOnly' | 'idempotent' | 'retry'>) {
  return {
    maximumAttempts: contract.retry?.maximumAttempts ?? (contract.readOnly || contract.idempotent ? 3 : 1),
    initialInterval: contract.retry?.initialIntervalMs ?? 1000,
    nonRetryableErrorTypes: [FailureType.toolNotImplemented],
  };
}
