/**
 * The agent loop as a Temporal workflow. Deterministic: every model call and tool run is an activity;
 * time is workflow time; nothing here does I/O.
 *
 * Per iteration: cancelled? → wall time? → turns? → cost? → call the model → add its cost → final answer
 * or the tool calls: each, in the model's order, is validated, deduplicated if read-only, put to the
 * policy and, if needed, to a human; then the approved calls run concurrently (tools as activities,
 * `research` as a child run of this same workflow) and their results go back in the model's order.
 */
import * as wf from '@temporalio/workflow';
import { z } from 'zod';
import type { ActivityOptions } from '@temporalio/workflow';
import type { AgentActivities } from '../activities/index.ts';
import { contractsByName } from '../src/tools/contracts.ts';
import type { ToolContract } from '../src/tools/define-tool.ts';
import { denialText, formatDuration, rejectionText } from './approval-text.ts';
import { canonicalJson } from './canonical-json.ts';
import { FailureType } from './failures.ts';
import { checkLimits, DEFAULT_LIMITS, type LimitStop } from './limits.ts';
import { checkCall, checkTurn, newProgressGuard, withWarning } from './progress-guard.ts';
import {
  approveSignal,
  answerUpdate,
  approveUpdate,
  cancelReasonSignal,
  modelContextQuery,
  FINAL_STATE_MEMO,
  rejectSignal,
  rejectUpdate,
  stateQuery,
  toolProgressSignal,
  transcriptQuery,
} from './messages.ts';
import { decide } from './policy.ts';
import { costOf, priceOf } from './pricing.ts';
import { redactFields, redactJsonText } from './redact.ts';
import { toRunResult } from './run-result.ts';
import { sha256Hex } from './sha256.ts';
import { fitTurnBudget, MAX_ANSWER_CHARS, MAX_REASON_CHARS } from './payload-bounds.ts';
import { parseToolCall, toolErrorText } from './tool-calls.ts';
import type { TraceEvent, TraceLine } from './trace-events.ts';
import { calledKey } from './types.ts';
import type {
  AnswerRequest,
  ApprovalDecision,
  ApproveRequest,
  CarriedState,
  ChatMessage,
  ChildRunSummary,
  Interruption,
  RejectRequest,
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

export const RESEARCH_SYSTEM_PROMPT =
  'You are a research assistant. Answer the one question you are given using the read-only tools, ' +
  'then reply with a short factual summary. Do not ask questions back.';

/** Research sub-agent limits when the run sets none (SPEC §8). */
const RESEARCH_DEFAULTS = { maxTurns: 6, maxBudgetUsd: 0.05 };

export const DEFAULT_SYSTEM_PROMPT =
  'You are a careful assistant working in a file workspace. Use the tools to find facts before answering. ' +
  'When a tool returns an error, read it and correct course. Never claim an action a tool message says was not done. ' +
  'Answer briefly once you know.';

/** What goes back to the model for one tool call. `failed` marks a tool error (fatal with toolErrorsAreFatal). */
interface ToolMessage {
  content: string;
  failed: boolean;
}

/** A tool call after validation, deduplication, policy and approval: what remains to be done for it. */
type PreparedCall =
  | { kind: 'answered'; message: ToolMessage }
  /** Identical to an earlier read-only call in the same reply: shares its result. */
  | { kind: 'duplicate'; of: number }
  | { kind: 'run'; call: ToolCall; callKey: string; contract: ToolContract; args: Record<string, unknown>; shownArgs: string; signature: string | null; warning: string | null };

/** Thrown from inside a turn to end the run with a limit's verdict (tool-call cap, no progress, policy). */
class RunStopped extends Error {
  readonly stop: LimitStop;
  constructor(stop: LimitStop) {
    super(stop.reason);
    this.stop = stop;
  }
}

/** Read-only results carried into a new execution stay under this many characters in all. */
const CARRIED_RESULTS_MAX_CHARS = 256 * 1024;

export async function agentWorkflow(input: RunInput, carried?: CarriedState): Promise<RunResult> {
  const runId = wf.workflowInfo().workflowId;
  // Runs started before these stops existed keep behaving as they did (their histories must replay).
  const limits: RunLimits = wf.patched('no-progress-and-policy-stops')
    ? { ...DEFAULT_LIMITS, ...input.limits }
    : { ...DEFAULT_LIMITS, maxRepeatedCalls: 0, maxStaleTurns: 0, maxPolicyDenials: Number.POSITIVE_INFINITY, ...input.limits };
  // Calls are keyed by the harness, never by the provider's id (providers reuse ids: an approval must not
  // unlock another call). Runs recorded before keyed calls replay with the provider's ids.
  const keyedCalls = wf.patched('harness-call-keys');
  const offered = offeredTools(input.tools);
  const price = priceOf(input.model);
  const startedAtMs = carried?.startedAtMs ?? Date.now();
  const state: RunState = carried?.state ?? {
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
    totalTurns: 0,
    children: [],
    pending: null,
    progress: null,
    output: null,
    error: null,
    startedAt: new Date(startedAtMs).toISOString(),
    updatedAt: new Date(startedAtMs).toISOString(),
  };
  /** This execution's part of the conversation (earlier executions' part is in the store, before `baseHead`). */
  const transcript: ChatMessage[] = carried
    ? [...carried.unsent]
    : [
        { role: 'system', content: input.system ?? DEFAULT_SYSTEM_PROMPT },
        { role: 'user', content: input.goal },
      ];
  const baseHead = carried?.head ?? null;
  /** Store head of what the model has been sent, and the messages since (sent with the next call). */
  let head = baseHead;
  let unsent: ChatMessage[] = [...transcript];
  const turnsAtStart = state.turns;
  /** Successful read-only results by `tool:canonical-args`, with the call that produced them. */
  const readOnlyResults = new Map<string, { content: string; callId: string }>(carried?.readOnlyResults);
  /** Tools running now, by the key their activity reports progress under. */
  const runningTools = new Map<string, { toolName: string; callKey: string }>();
  const decisions = new Map<string, ApprovalDecision>();
  const usedCallIds = new Set<string>(carried?.usedCallIds);
  let mediumRuns = carried?.mediumRuns ?? 0;
  let cancelReason: string | null = null;
  let seq = carried?.seq ?? 0;
  const guard = carried?.progressGuard ?? newProgressGuard();
  let policyDenials = carried?.policyDenials ?? 0;
  let outputRepairs = carried?.outputRepairs ?? 0;
  const outputSchema = input.outputSchema ? z.fromJSONSchema(input.outputSchema) : null;
  /** The answer the user gives to the pending ask_user question. */
  let userAnswer: { callKey: string; text: string } | null = null;
  let wallTimeUp = false;

  wf.setHandler(stateQuery, () => state);
  wf.setHandler(transcriptQuery, () => transcript.map(redactMessage));
  wf.setHandler(modelContextQuery, () => ({ base: baseHead, messages: transcript }));
  wf.setHandler(toolProgressSignal, (progress) => {
    const running = runningTools.get(calledKey(progress));
    if (!running) return; // a late label from a tool that has finished
    state.progress = progress.label;
    touch();
    emit({ type: 'tool_progress', toolName: running.toolName, callKey: running.callKey, label: progress.label });
  });
  wf.setHandler(cancelReasonSignal, ({ reason }) => {
    cancelReason ??= reason;
  });
  wf.setHandler(approveUpdate, (request) => recordDecision(approval(request)), {
    validator: (request: ApproveRequest) => checkDecision(calledKey(request), request.argsHash, request.by),
  });
  wf.setHandler(rejectUpdate, (request) => recordDecision(rejection(request)), {
    validator: (request: RejectRequest) => checkDecision(calledKey(request), undefined, request.by, request.reason),
  });
  wf.setHandler(
    answerUpdate,
    (request) => {
      const callKey = request.callKey ?? state.pending!.callKey;
      userAnswer = { callKey, text: request.text };
      return { callKey };
    },
    {
      validator: (request: AnswerRequest) => {
        const pending = state.pending;
        if (pending?.kind !== 'input' || userAnswer) throw new Error(`Run ${runId} is not waiting for an answer (status ${state.status}).`);
        if (request.callKey && request.callKey !== pending.callKey) throw new Error(`The pending question is call "${pending.callKey}", not "${request.callKey}".`);
        if (!request.text.trim()) throw new Error('The answer is empty.');
        if (request.text.length > MAX_ANSWER_CHARS) throw new Error(`The answer has ${request.text.length} characters; at most ${MAX_ANSWER_CHARS} are accepted.`);
      },
    },
  );
  wf.setHandler(approveSignal, (request) => decideBySignal(calledKey(request), () => approval(request), request.argsHash, request.by));
  wf.setHandler(rejectSignal, (request) => decideBySignal(calledKey(request), () => rejection(request), undefined, request.by, request.reason));

  // The wall-time limit is a durable timer that cancels whatever is in flight (model call, tool, a wait).
  const loopScope = new wf.CancellationScope();
  if (limits.maxWallMs !== undefined) {
    const left = Math.max(0, limits.maxWallMs - (Date.now() - startedAtMs));
    void wf.CancellationScope.nonCancellable(() => wf.sleep(left)).then(() => {
      wallTimeUp = true;
      loopScope.cancel();
    });
  }
  try {
    return await loopScope.run(runLoop);
  } catch (error) {
    if (error instanceof wf.ContinueAsNew) throw error;
    if (error instanceof RunStopped) return finish(error.stop.status, error.stop.reason, { interruption: error.stop.interruption });
    if (wf.isCancellation(error) && wallTimeUp && !wf.CancellationScope.current().consideredCancelled) {
      return finish('budget_exceeded', 'max_time', { interruption: { type: 'max_time' } });
    }
    if (wf.isCancellation(error)) {
      const reason = cancelReason ?? 'cancelled through Temporal (no reason given)';
      // The cleanup (state, final trace line, memo) is synchronous, so cancellation cannot cut it short;
      // then the cancellation is rethrown so Temporal records the run as cancelled.
      finish('interrupted', 'cancelled', { interruption: { type: 'cancelled', reason } });
      throw error;
    }
    if (failureType(error) === FailureType.workspaceRefused) return finish('failed', 'workspace_refused', { error: failureMessage(error) });
    if (error instanceof wf.ActivityFailure) {
      return finish('failed', 'model_error', { error: failureMessage(error) });
    }
    return finish('failed', 'workflow_error', { error: error instanceof Error ? error.message : String(error) });
  }

  async function runLoop(): Promise<RunResult> {
    for (;;) {
      if (wf.CancellationScope.current().consideredCancelled) throw new wf.CancelledFailure('run cancelled');
      // Children's spend counts against this run's budget.
      const stop = checkLimits({ turns: state.turns, costUsd: state.totalCostUsd, elapsedMs: Date.now() - startedAtMs }, limits);
      if (stop) return finish(stop.status, stop.reason, { interruption: stop.interruption });
      if (shouldContinueAsNew()) return await continueAsNew();

      const append = unsent;
      const next = sha256Hex(canonicalJson({ prev: head, messages: append }));
      const reply = await callModel({ runId, model: input.model, transcript: { prev: head, append, head: next }, toolNames: [...offered.keys()], stream: input.stream ?? true });
      head = next;
      unsent = [];
      // The reply's cost is counted before anything else happens with it.
      state.turns++;
      state.usage.promptTokens += reply.usage.promptTokens;
      state.usage.completionTokens += reply.usage.completionTokens;
      state.perTurnPromptTokens.push(reply.usage.promptTokens);
      // From the running totals, so the figure is exactly Σ usage × price with no accumulated rounding.
      state.costUsd = costOf(state.usage, price);
      refreshTotals();
      touch();
      emit({
        type: 'turn',
        turn: state.turns,
        prompt_tokens: reply.usage.promptTokens,
        completion_tokens: reply.usage.completionTokens,
        total_tokens: reply.usage.promptTokens + reply.usage.completionTokens,
        costUsd: state.costUsd,
        finish: reply.finishReason,
      });
      record(reply.message);

      const calls = reply.message.tool_calls ?? [];
      if (calls.length === 0) {
        const answer = reply.message.content ?? '';
        const broken = outputSchema ? contractError(answer) : null;
        if (!broken) return finish('completed', 'final_answer', { output: answer });
        if (outputRepairs++ >= 1) return finish('failed', 'output_contract', { output: answer, error: `The answer broke the output contract twice: ${broken}` });
        record({ role: 'user', content: `Your answer does not meet the required output contract: ${broken}. Reply again with only an answer that does.` });
        continue;
      }

      const prepared: PreparedCall[] = [];
      const inThisReply = new Map<string, { index: number; callKey: string }>();
      for (const [index, call] of calls.entries()) {
        const callKey = keyedCalls ? `t${state.turns}.${index + 1}` : call.id;
        prepared.push(await prepareToolCall(call, callKey, index, inThisReply));
      }
      const results: Promise<ToolMessage>[] = [];
      for (const p of prepared) {
        results.push(p.kind === 'answered' ? Promise.resolve(p.message) : p.kind === 'duplicate' ? results[p.of]! : execute(p));
      }
      // Siblings finish (and are traced) even when one call stops the run, so nothing is left in flight.
      const settled = await Promise.allSettled(results);
      const failure = settled.find((r) => r.status === 'rejected');
      if (failure) throw failure.reason;
      const messages = settled.map((r) => (r as PromiseFulfilledResult<ToolMessage>).value);
      // All of a turn's results travel in the next model call's input: together they must stay bounded.
      if (keyedCalls) fitTurnBudget(messages.map((m) => m.content)).forEach((content, i) => (messages[i] = { ...messages[i]!, content }));
      const turnVerdict = checkTurn(guard, messages.map((m) => m.content), limits.maxStaleTurns);
      if (turnVerdict.action === 'stop') throw new RunStopped({ status: 'interrupted', reason: 'no_progress', interruption: { type: 'no_progress', detail: turnVerdict.detail } });
      if (turnVerdict.action === 'warn') messages[messages.length - 1] = { ...messages.at(-1)!, content: withWarning(messages.at(-1)!.content, turnVerdict.message) };
      for (const [index, call] of calls.entries()) {
        const message = messages[index]!;
        if (message.failed && input.toolErrorsAreFatal) return finish('failed', 'tool_error', { error: message.content });
        record({ role: 'tool', tool_call_id: call.id, name: call.name, content: message.content });
      }
    }
  }

  // ---- one tool call: validate → deduplicate → policy → approval, then run ----

  async function prepareToolCall(call: ToolCall, callKey: string, index: number, inThisReply: Map<string, { index: number; callKey: string }>): Promise<PreparedCall> {
    state.toolCalls++;
    const parsed = parseToolCall(call, offered);
    if (!parsed.ok) return { kind: 'answered', message: { content: toolErrorText(parsed.error), failed: true } };
    const { contract, args } = parsed;
    const shownArgs = JSON.stringify(redactFields(args, contract.redact));
    const callVerdict = checkCall(guard, `${contract.name}:${canonicalJson(args)}`, limits.maxRepeatedCalls);
    if (callVerdict.action === 'stop') throw new RunStopped({ status: 'interrupted', reason: 'no_progress', interruption: { type: 'no_progress', detail: callVerdict.detail } });
    const warn = (message: ToolMessage): ToolMessage => (callVerdict.action === 'warn' ? { ...message, content: withWarning(message.content, callVerdict.message) } : message);

    if (contract.execution === 'user-input') return { kind: 'answered', message: warn({ content: await askUser(callKey, call.id, String(args.question)), failed: false }) };

    const signature = contract.readOnly ? `${contract.name}:${canonicalJson(args)}` : null;
    if (signature) {
      const earlier = readOnlyResults.get(signature);
      const sameReply = inThisReply.get(signature);
      if (earlier || sameReply !== undefined) {
        emit({ type: 'tool_deduplicated', toolName: contract.name, callKey, sameAs: earlier?.callId ?? sameReply!.callKey });
        return earlier ? { kind: 'answered', message: warn({ content: earlier.content, failed: false }) } : { kind: 'duplicate', of: sameReply!.index };
      }
      inThisReply.set(signature, { index, callKey });
    }

    const verdict = decide(contract, mediumRuns, input.policy);
    if (verdict.action === 'deny') {
      emit({ type: 'tool_denied', toolName: contract.name, callKey, why: verdict.why });
      if (++policyDenials >= limits.maxPolicyDenials) {
        throw new RunStopped({ status: 'interrupted', reason: 'policy', interruption: { type: 'policy', denials: policyDenials } });
      }
      return { kind: 'answered', message: { content: denialText(contract.name, verdict.why), failed: false } };
    }
    if (verdict.action === 'ask') {
      const decision = await askApproval(callKey, call.id, contract, args, verdict.why);
      if (decision.decision === 'rejected') return { kind: 'answered', message: { content: rejectionText(contract.name, shownArgs, decision), failed: false } };
    }
    if (contract.risk === 'medium') mediumRuns++;
    return { kind: 'run', call, callKey, contract, args, shownArgs, signature, warning: callVerdict.action === 'warn' ? callVerdict.message : null };
  }

  async function execute(p: Extract<PreparedCall, { kind: 'run' }>): Promise<ToolMessage> {
    const { call, contract, args } = p;
    const runKey = keyedCalls ? p.callKey : legacyRunKey(call.id);

    if (limits.maxToolCalls !== undefined && state.toolRuns >= limits.maxToolCalls) {
      throw new RunStopped({ status: 'budget_exceeded', reason: 'max_tool_calls', interruption: { type: 'max_tool_calls' } });
    }
    emit({ type: 'tool_start', toolName: contract.name, callKey: p.callKey, toolCallId: call.id, args: p.shownArgs });
    state.toolRuns++;
    runningTools.set(runKey, { toolName: contract.name, callKey: p.callKey });
    const startedMs = Date.now();
    let outcome: ToolOutcome;
    try {
      outcome =
        contract.execution === 'child-run'
          ? await runResearch(runKey, p.callKey, String(args.question))
          : await toolActivity(contract).runTool({ runId, callKey: runKey, toolCallId: call.id, toolName: contract.name, args, workspace: input.workspace });
    } catch (error) {
      if (wf.isCancellation(error) || failureType(error) === FailureType.workspaceRefused) throw error;
      outcome = { ok: false, content: toolErrorText(failureMessage(error)), ms: Date.now() - startedMs };
    } finally {
      runningTools.delete(runKey);
    }
    const { ok, content, ms, kept } = outcome;
    emit({ type: 'tool_result', toolName: contract.name, callKey: p.callKey, ms, ok, ...(ok ? {} : { error: content }), ...(kept ? { outputRef: kept.ref, outputChars: kept.chars } : {}) });
    if (ok && p.signature) readOnlyResults.set(p.signature, { content, callId: p.callKey });
    return { content: p.warning ? withWarning(content, p.warning) : content, failed: !ok };
  }

  /** The research tool: the same agent loop as a child workflow, read-only tools, its own transcript and limits. */
  async function runResearch(runKey: string, callKey: string, question: string): Promise<ToolOutcome> {
    const startedMs = Date.now();
    const budgetLeft = limits.maxBudgetUsd - state.totalCostUsd;
    const maxBudgetUsd = Math.min(input.research?.maxBudgetUsd ?? RESEARCH_DEFAULTS.maxBudgetUsd, budgetLeft);
    if (maxBudgetUsd <= 0) return { ok: false, content: toolErrorText('no budget is left for research in this run'), ms: 0 };
    const child: ChildRunSummary = { runId: `${runId}:research:${runKey}`, callKey, question, status: 'running', turns: 0, costUsd: 0 };
    state.children.push(child);
    touch();
    const result = await wf.executeChild(agentWorkflow, {
      // Derived from this run and the call: a retried start finds the same child instead of making a second.
      workflowId: child.runId,
      args: [
        {
          goal: question,
          model: input.research?.model ?? input.model,
          system: RESEARCH_SYSTEM_PROMPT,
          tools: researchToolNames(),
          limits: { maxTurns: input.research?.maxTurns ?? RESEARCH_DEFAULTS.maxTurns, maxBudgetUsd },
          ...(input.workspace ? { workspace: input.workspace } : {}),
          ...(input.stream !== undefined ? { stream: input.stream } : {}),
        },
      ],
    }).catch((error: unknown) => {
      child.status = wf.isCancellation(error) ? 'interrupted' : 'failed';
      throw error;
    });
    child.status = result.status;
    child.turns = result.totalTurns;
    child.costUsd = result.totalCostUsd;
    refreshTotals();
    touch();
    const ms = Date.now() - startedMs;
    if (result.status === 'completed') return { ok: true, content: result.output ?? '', ms };
    const why = result.error ?? result.reason ?? result.status;
    return { ms, ok: false, content: toolErrorText(`the research run stopped with status ${result.status} (${why}) before answering; ${result.turns} turns, $${result.totalCostUsd.toFixed(6)}`) };
  }

  /** This run's totals with its children's: derived, never counted separately. */
  function refreshTotals(): void {
    state.totalCostUsd = state.children.reduce((sum, c) => sum + c.costUsd, state.costUsd);
    state.totalTurns = state.children.reduce((sum, c) => sum + c.turns, state.turns);
  }


  async function askUser(callKey: string, toolCallId: string, question: string): Promise<string> {
    userAnswer = null;
    state.pending = { kind: 'input', callKey, toolCallId, question, requestedAt: new Date().toISOString() };
    state.status = 'waiting_input';
    touch();
    emit({ type: 'input_required', callKey, question });
    await wf.condition(() => userAnswer?.callKey === callKey);
    const text = userAnswer!.text;
    userAnswer = null;
    state.pending = null;
    state.status = 'running';
    touch();
    emit({ type: 'input_received', callKey });
    return text;
  }

  /** Why `answer` breaks the output contract, or null when it meets it. */
  function contractError(answer: string): string | null {
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.trim());
    } catch (error) {
      return `the answer is not JSON (${(error as Error).message})`;
    }
    const result = outputSchema!.safeParse(parsed);
    return result.success ? null : z.prettifyError(result.error).replace(/\n/g, '; ');
  }

  async function askApproval(callKey: string, toolCallId: string, contract: ToolContract, args: Record<string, unknown>, why: string): Promise<ApprovalDecision> {
    const argsHash = sha256Hex(canonicalJson(args));
    const shown = redactFields(args, contract.redact);
    state.pending = { kind: 'approval', callKey, toolCallId, toolName: contract.name, args: shown, argsHash, risk: contract.risk, why, requestedAt: new Date().toISOString() };
    state.status = 'waiting_approval';
    touch();
    emit({ type: 'approval_required', toolName: contract.name, callKey, toolCallId, args: JSON.stringify(shown), argsHash, risk: contract.risk, why });
    // Durable: no worker needs to be alive while this waits.
    const timeoutMs = input.policy?.approvalTimeoutMs;
    const isDecided = () => decisions.has(callKey);
    const decided = timeoutMs ? await wf.condition(isDecided, timeoutMs) : (await wf.condition(isDecided), true);
    if (!decided) decisions.set(callKey, { decision: 'rejected', callKey, reason: `no decision in ${formatDuration(timeoutMs!)}` });
    const decision = decisions.get(callKey)!;
    state.pending = null;
    state.status = 'running';
    touch();
    emit({
      type: 'approval_decided',
      toolName: contract.name,
      callKey,
      decision: decision.decision,
      ...(decision.decision === 'rejected' && decision.reason ? { reason: decision.reason } : {}),
      ...(decision.by ? { by: decision.by } : {}),
    });
    return decision;
  }

  // ---- approval messages ----

  /** Throws (refusing the update, leaving the run untouched) unless `callKey` is the pending call and the hash matches. */
  function checkDecision(callKey: string, argsHash?: string, ...texts: (string | undefined)[]): void {
    const earlier = decisions.get(callKey);
    if (earlier) throw new Error(`Call "${callKey}" was already ${earlier.decision}; a decision cannot be changed.`);
    const pending = state.pending;
    if (pending?.kind !== 'approval') throw new Error(`No approval is pending in run ${runId}, so there is nothing to decide for call "${callKey}".`);
    if (pending.callKey !== callKey) throw new Error(`No approval is pending for call "${callKey}"; the pending call is "${pending.callKey}" (${pending.toolName}).`);
    if (argsHash !== undefined && argsHash !== pending.argsHash) {
      throw new Error(`argsHash does not match the arguments of call "${callKey}" (${pending.toolName}); read the run's state and approve the arguments it shows.`);
    }
    if (texts.some((t) => t !== undefined && t.length > MAX_REASON_CHARS)) throw new Error(`A reason or name has more than ${MAX_REASON_CHARS} characters.`);
  }

  function recordDecision(decision: ApprovalDecision): ApprovalDecision {
    decisions.set(decision.callKey, decision);
    return decision;
  }

  function decideBySignal(callKey: string, decision: () => ApprovalDecision, argsHash?: string, ...texts: (string | undefined)[]): void {
    try {
      checkDecision(callKey, argsHash, ...texts);
    } catch (error) {
      emit({ type: 'approval_refused', callKey, error: (error as Error).message });
      return;
    }
    recordDecision(decision());
  }

  /** Runs recorded before keyed calls: a provider id reused within the run gets `~2`, `~3`… for its tool run. */
  function legacyRunKey(toolCallId: string): string {
    let key = toolCallId;
    for (let n = 2; usedCallIds.has(key); n++) key = `${toolCallId}~${n}`;
    usedCallIds.add(key);
    return key;
  }

  // ---- keeping history small ----

  function shouldContinueAsNew(): boolean {
    const every = input.continueAsNewEveryTurns;
    return wf.workflowInfo().continueAsNewSuggested || (every !== undefined && state.turns - turnsAtStart >= every);
  }

  async function continueAsNew(): Promise<never> {
    // Updates and signals in flight finish here, not in a lost execution.
    await wf.condition(wf.allHandlersFinished);
    const info = wf.workflowInfo();
    emit({ type: 'continued_as_new', turns: state.turns, historyEvents: info.historyLength, historyBytes: info.historySize });
    let budget = CARRIED_RESULTS_MAX_CHARS;
    const results = [...readOnlyResults].reverse().filter(([, r]) => (budget -= r.content.length) >= 0);
    return wf.continueAsNew<typeof agentWorkflow>(input, {
      version: 1,
      state,
      head,
      unsent,
      seq,
      startedAtMs,
      mediumRuns,
      ...(usedCallIds.size ? { usedCallIds: [...usedCallIds] } : {}),
      readOnlyResults: results.reverse(),
      progressGuard: guard,
      policyDenials,
      outputRepairs,
    });
  }

  // ---- bookkeeping ----

  function record(message: ChatMessage): void {
    transcript.push(message);
    unsent.push(message);
  }

  function emit(event: TraceEvent): void {
    trace.emit({ runId, seq: ++seq, at: new Date().toISOString(), ...event });
  }

  function touch(): void {
    state.updatedAt = new Date().toISOString();
  }

  function finish(status: RunStatus, reason: StopReason, extra: { interruption?: Interruption; output?: string; error?: string } = {}): RunResult {
    state.status = status;
    state.reason = reason;
    state.interruption = extra.interruption ?? null;
    state.output = extra.output ?? null;
    state.error = extra.error ?? null;
    state.pending = null;
    touch();
    emit({ type: 'run_stopped', status, reason, turns: state.turns, toolRuns: state.toolRuns, costUsd: state.costUsd });
    // Lets clients read the outcome of a closed run without a worker (queries need one).
    wf.upsertMemo({ [FINAL_STATE_MEMO]: state });
    return toRunResult(state);
  }

  function redactMessage(message: ChatMessage): ChatMessage {
    if (message.role !== 'assistant' || !message.tool_calls) return message;
    return {
      ...message,
      tool_calls: message.tool_calls.map((c) => ({ ...c, arguments: redactJsonText(c.arguments, offered.get(c.name)?.redact ?? []) })),
    };
  }
}

/** A research run gets the read-only tools that run as activities (no research of its own). */
function researchToolNames(): string[] {
  return [...contractsByName.values()].filter((c) => c.readOnly && c.execution === 'activity').map((c) => c.name);
}

function approval(request: ApproveRequest): ApprovalDecision {
  return { decision: 'approved', callKey: calledKey(request), ...(request.by ? { by: request.by } : {}) };
}

function rejection(request: RejectRequest): ApprovalDecision {
  return { decision: 'rejected', callKey: calledKey(request), ...(request.reason ? { reason: request.reason } : {}), ...(request.by ? { by: request.by } : {}) };
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

/** Quick read-only tools run as local activities: the same durability for their result, one round trip less. */
const LOCAL_ACTIVITY_MAX_MS = 10_000;

function toolActivity(contract: ToolContract): Pick<AgentActivities, 'runTool'> {
  if (contract.readOnly && contract.risk === 'low' && contract.timeoutMs <= LOCAL_ACTIVITY_MAX_MS) {
    return wf.proxyLocalActivities<AgentActivities>({
      startToCloseTimeout: contract.timeoutMs,
      retry: { maximumAttempts: contract.retry?.maximumAttempts ?? 3, initialInterval: contract.retry?.initialIntervalMs ?? 1000, nonRetryableErrorTypes: [FailureType.toolNotImplemented] },
      cancellationType: wf.ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    });
  }
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

/** The type of the innermost ApplicationFailure in a failure chain, if any. */
function failureType(error: unknown): string | undefined {
  let type: string | undefined;
  for (let current: unknown = error; current instanceof wf.TemporalFailure; current = current.cause) {
    if (current instanceof wf.ApplicationFailure && current.type) type = current.type;
  }
  return type;
}

/** The innermost message of a Temporal failure chain: the provider's or the tool's own words. */
function failureMessage(error: unknown): string {
  let current: unknown = error;
  while (current instanceof wf.TemporalFailure && current.cause) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}
