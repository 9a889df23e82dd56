/**
 * The agent loop as a Temporal workflow. Deterministic: every model call and tool run is an activity;
 * time is workflow time; nothing here does I/O.
 *
 * Per iteration: cancelled? → wall time? → turns? → cost? → call the model → add its cost → final answer
 * or run the tool calls in the model's order → repeat.
 */
import * as wf from '@temporalio/workflow';
import type { ActivityOptions } from '@temporalio/workflow';
import type { AgentActivities } from '../activities/index.ts';
import { contractsByName } from '../src/tools/contracts.ts';
import type { ToolContract } from '../src/tools/define-tool.ts';
import { FailureType } from './failures.ts';
import { checkLimits, DEFAULT_LIMITS } from './limits.ts';
import { cancelReasonSignal, FINAL_STATE_MEMO, stateQuery, transcriptQuery } from './messages.ts';
import { costOf, priceOf } from './pricing.ts';
import { toRunResult } from './run-result.ts';
import { parseToolCall, toolErrorText } from './tool-calls.ts';
import type { TraceEvent, TraceLine } from './trace-events.ts';
import type {
  ChatMessage,
  Interruption,
  RunInput,
  RunLimits,
  RunResult,
  RunState,
  RunStatus,
  StopReason,
  ToolCall,
  ToolOutcome,
} from './types.ts';

export interface TraceSinks extends wf.Sinks {
  trace: { emit(line: TraceLine): void };
}

const { trace } = wf.proxySinks<TraceSinks>();

const { callModel } = wf.proxyActivities<AgentActivities>({
  startToCloseTimeout: '10 minutes',
  // Short enough that a dead worker's model call moves on quickly; the activity heartbeats every second.
  heartbeatTimeout: '10 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '30 seconds',
    maximumAttempts: 6,
    nonRetryableErrorTypes: [FailureType.modelRequestRejected],
  },
  // The run reports `interrupted` only once the HTTP request has really been aborted.
  cancellationType: wf.ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
});

export const DEFAULT_SYSTEM_PROMPT =
  'You are a careful assistant working in a file workspace. Use the tools to find facts before answering. ' +
  'When a tool returns an error, read it and correct course. Answer briefly once you know.';

export async function agentWorkflow(input: RunInput): Promise<RunResult> {
  const runId = wf.workflowInfo().workflowId;
  const limits: RunLimits = { ...DEFAULT_LIMITS, ...input.limits };
  const offered = offeredTools(input.tools);
  const price = priceOf(input.model);
  const startedAtMs = Date.now();
  const state: RunState = {
    runId,
    goal: input.goal,
    model: input.model,
    status: 'running',
    reason: null,
    interruption: null,
    turns: 0,
    toolCalls: 0,
    toolRuns: 0,
    usage: { promptTokens: 0, completionTokens: 0 },
    perTurnPromptTokens: [],
    costUsd: 0,
    totalCostUsd: 0,
    pending: null,
    progress: null,
    output: null,
    error: null,
    startedAt: new Date(startedAtMs).toISOString(),
    updatedAt: new Date(startedAtMs).toISOString(),
  };
  const transcript: ChatMessage[] = [
    { role: 'system', content: input.system ?? DEFAULT_SYSTEM_PROMPT },
    { role: 'user', content: input.goal },
  ];
  let cancelReason: string | null = null;
  let seq = 0;

  wf.setHandler(stateQuery, () => state);
  wf.setHandler(transcriptQuery, () => transcript);
  wf.setHandler(cancelReasonSignal, ({ reason }) => {
    cancelReason ??= reason;
  });

  function emit(event: TraceEvent): void {
    trace.emit({ runId, seq: ++seq, at: new Date().toISOString(), ...event });
  }

  function finish(status: RunStatus, reason: StopReason, extra: { interruption?: Interruption; output?: string; error?: string } = {}): RunResult {
    state.status = status;
    state.reason = reason;
    state.interruption = extra.interruption ?? null;
    state.output = extra.output ?? null;
    state.error = extra.error ?? null;
    state.updatedAt = new Date().toISOString();
    emit({ type: 'run_stopped', status, reason, turns: state.turns, toolRuns: state.toolRuns, costUsd: state.costUsd });
    // Lets clients read the outcome of a closed run without a worker (queries need one).
    wf.upsertMemo({ [FINAL_STATE_MEMO]: state });
    return toRunResult(state);
  }

  async function runToolCall(call: ToolCall): Promise<ToolOutcome> {
    state.toolCalls++;
    const parsed = parseToolCall(call, offered);
    if (!parsed.ok) return { ok: false, content: toolErrorText(parsed.error), ms: 0 };
    const { contract, args } = parsed;
    emit({ type: 'tool_start', toolName: contract.name, callId: call.id, args: JSON.stringify(args) });
    state.toolRuns++;
    const startedMs = Date.now();
    let outcome: ToolOutcome;
    try {
      outcome = await toolActivity(contract).runTool({ runId, callId: call.id, toolName: contract.name, args, workspace: input.workspace });
    } catch (error) {
      if (wf.isCancellation(error)) throw error;
      outcome = { ok: false, content: toolErrorText(failureMessage(error)), ms: Date.now() - startedMs };
    }
    emit({ type: 'tool_result', toolName: contract.name, callId: call.id, ms: outcome.ms, ok: outcome.ok });
    return outcome;
  }

  try {
    for (;;) {
      if (wf.CancellationScope.current().consideredCancelled) throw new wf.CancelledFailure('run cancelled');
      const stop = checkLimits({ turns: state.turns, costUsd: state.costUsd, elapsedMs: Date.now() - startedAtMs }, limits);
      if (stop) return finish(stop.status, stop.reason, { interruption: stop.interruption });

      const reply = await callModel({ runId, model: input.model, messages: transcript, toolNames: [...offered.keys()], stream: input.stream ?? true });
      // The reply's cost is counted before anything else happens with it.
      state.turns++;
      state.usage.promptTokens += reply.usage.promptTokens;
      state.usage.completionTokens += reply.usage.completionTokens;
      state.perTurnPromptTokens.push(reply.usage.promptTokens);
      // From the running totals, so the figure is exactly Σ usage × price with no accumulated rounding.
      state.costUsd = costOf(state.usage, price);
      state.totalCostUsd = state.costUsd;
      state.updatedAt = new Date().toISOString();
      emit({
        type: 'turn',
        turn: state.turns,
        prompt_tokens: reply.usage.promptTokens,
        completion_tokens: reply.usage.completionTokens,
        total_tokens: reply.usage.promptTokens + reply.usage.completionTokens,
        costUsd: state.costUsd,
        finish: reply.finishReason,
      });
      transcript.push(reply.message);

      const calls = reply.message.tool_calls ?? [];
      if (calls.length === 0) return finish('completed', 'final_answer', { output: reply.message.content ?? '' });

      for (const call of calls) {
        const outcome = await runToolCall(call);
        if (!outcome.ok && input.toolErrorsAreFatal) return finish('failed', 'tool_error', { error: outcome.content });
        transcript.push({ role: 'tool', tool_call_id: call.id, name: call.name, content: outcome.content });
      }
    }
  } catch (error) {
    if (wf.isCancellation(error)) {
      const reason = cancelReason ?? 'cancelled through Temporal (no reason given)';
      // The cleanup (state, final trace line, memo) is synchronous, so cancellation cannot cut it short;
      // then the cancellation is rethrown so Temporal records the run as cancelled.
      finish('interrupted', 'cancelled', { interruption: { type: 'cancelled', reason } });
      throw error;
    }
    if (error instanceof wf.ActivityFailure) {
      return finish('failed', 'model_error', { error: failureMessage(error) });
    }
    return finish('failed', 'workflow_error', { error: error instanceof Error ? error.message : String(error) });
  }
}

/** The tools this run offers the model, by name; an unknown name in the input is a caller bug. */
function offeredTools(names: readonly string[] | undefined): Map<string, ToolContract> {
  if (!names) return new Map(contractsByName);
  const offered = new Map<string, ToolContract>();
  for (const name of names) {
    const contract = contractsByName.get(name);
    if (!contract) {
      throw wf.ApplicationFailure.nonRetryable(
        `Unknown tool "${name}" in the run input. Known tools: ${[...contractsByName.keys()].join(', ')}.`,
        'InvalidRunInput',
      );
    }
    offered.set(name, contract);
  }
  return offered;
}

function toolActivity(contract: ToolContract): Pick<AgentActivities, 'runTool'> {
  const options: ActivityOptions = {
    startToCloseTimeout: contract.timeoutMs,
    heartbeatTimeout: '10 seconds',
    retry: {
      maximumAttempts: contract.retry?.maximumAttempts ?? 3,
      initialInterval: contract.retry?.initialIntervalMs ?? 1000,
      nonRetryableErrorTypes: [FailureType.toolNotImplemented],
    },
    cancellationType: wf.ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  };
  return wf.proxyActivities<AgentActivities>(options);
}

/** The innermost message of a Temporal failure chain: the provider's or the tool's own words. */
function failureMessage(error: unknown): string {
  let current: unknown = error;
  while (current instanceof wf.TemporalFailure && current.cause) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}
