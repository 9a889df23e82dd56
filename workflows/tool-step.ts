/**
 * One reply's tool calls. Each, in the model's order, is validated, deduplicated if read-only, checked
 * for repetition, put to the policy and, if needed, to a human; then the approved calls run at the same
 * time (tools as activities, `research` as a child run) and their results go back in the model's order.
 */
import * as wf from '@temporalio/workflow';
import type { ToolContract } from '../src/tools/define-tool.ts';
import { toolActivity } from './activity-options.ts';
import { denialText, rejectionText } from './approval-text.ts';
import { canonicalJson } from '../src/wire/canonical-json.ts';
import type { OldBehaviours } from './changes.ts';
import type { HumanDecisions } from './decisions.ts';
import { FailureType, toolErrorText } from '../src/wire/failures.ts';
import type { LoopState } from './loop-state.ts';
import { fitTurnBudget } from '../src/wire/payload-bounds.ts';
import { decide } from './policy.ts';
import { withWarning } from './progress-guard.ts';
import { redactFields } from '../src/wire/redact.ts';
import { runResearch, runSubAgent } from './research.ts';
import { throughLostWorkers } from './lost-workers.ts';
import { askHandoff, type Handoff } from './handoff.ts';
import { agentOfTool, handoffTargetOf } from '../src/agents/agent-tools.ts';
import { throughStoreOutages } from './store-outage.ts';
import { toolReplayOf } from '../src/wire/replay.ts';
import { failureMessage, failureType, interrupted, isStop, type Stop } from './stop.ts';
import { parseToolCall } from './tool-calls.ts';
import { toolCallSummary } from '../src/wire/summaries.ts';
import type { ToolCall, ToolOutcome } from '../src/wire/types.ts';
import type { ResolvedRunInput, RunLimits } from '../src/wire/run-input.ts';

/** What a tool step works with. */
export interface ToolStep {
  input: ResolvedRunInput;
  limits: RunLimits;
  /** What runs recorded before a change still do (`changes.ts`). */
  old: OldBehaviours;
  offered: Map<string, ToolContract>;
  run: LoopState;
  decisions: HumanDecisions;
  /** A handoff this reply asked for (`handoff.ts`): applied once its calls are done. */
  handoff: Handoff | null;
}

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
  | {
      kind: 'run';
      call: ToolCall;
      callKey: string;
      contract: ToolContract;
      args: Record<string, unknown>;
      shownArgs: string;
      signature: string | null;
      warning: string | null;
      /** A human approved the call (and who, when they said): its summary in Temporal's UI says so. */
      approved?: { by?: string };
    };

type ToRun = Extract<PreparedCall, { kind: 'run' }>;

/** Read-only calls of this reply by signature: a later identical one shares the earlier one's result. */
type ReplySignatures = Map<string, { index: number; callKey: string }>;

/** Runs one reply's tool calls and records their results; a `Stop` when one of them ends the run. */
export async function runToolCalls(step: ToolStep, calls: readonly ToolCall[]): Promise<Stop | null> {
  const { run, limits } = step;
  const prepared: PreparedCall[] = [];
  const inThisReply: ReplySignatures = new Map();
  for (const [index, call] of calls.entries()) {
    const callKey = step.old.providerCallKeys ? call.id : `t${run.state.turns}.${index + 1}`;
    const p = await prepare(step, call, callKey, index, inThisReply);
    if (p.kind === 'stop') return p.stop;
    prepared.push(p);
  }
  const messages = await runAll(step, prepared);
  if (isStop(messages)) return messages;
  // All of a turn's results travel in the next model call's input: together they must stay bounded.
  if (!step.old.unboundedTurnResults) fitTurnBudget(messages.map((m) => m.content)).forEach((content, i) => (messages[i] = { ...messages[i]!, content }));
  const turnVerdict = run.checkTurn(messages.map((m) => m.content), limits.maxStaleTurns);
  if (turnVerdict.action === 'stop') return interrupted({ type: 'no_progress', detail: turnVerdict.detail });
  if (turnVerdict.action === 'warn') messages[messages.length - 1] = { ...messages.at(-1)!, content: withWarning(messages.at(-1)!.content, turnVerdict.message) };
  for (const [index, call] of calls.entries()) {
    const message = messages[index]!;
    if (message.failed && step.input.toolErrorsAreFatal) return { reason: 'tool_error', error: message.content };
    run.record({ role: 'tool', tool_call_id: call.id, name: call.name, content: message.content });
  }
  return null;
}

/** Validate → repetition check → deduplicate → policy → approval, for one call; a stop ends the run before any call of the reply runs. */
async function prepare(step: ToolStep, call: ToolCall, callKey: string, index: number, inThisReply: ReplySignatures): Promise<PreparedCall | { kind: 'stop'; stop: Stop }> {
  const { run, limits, decisions } = step;
  run.toolCalled();
  const parsed = parseToolCall(call, step.offered);
  if (!parsed.ok) return { kind: 'answered', message: { content: toolErrorText(parsed.error), failed: true } };
  const { contract, args } = parsed;
  const shownArgs = JSON.stringify(redactFields(args, contract.redact));
  const callVerdict = run.checkCall(`${contract.name}:${canonicalJson(args)}`, limits.maxRepeatedCalls);
  if (callVerdict.action === 'stop') return { kind: 'stop', stop: interrupted({ type: 'no_progress', detail: callVerdict.detail }) };
  const warning = callVerdict.action === 'warn' ? callVerdict.message : null;
  const warn = (message: ToolMessage): ToolMessage => (warning ? { ...message, content: withWarning(message.content, warning) } : message);

  if (contract.execution === 'user-input') return { kind: 'answered', message: warn({ content: await decisions.askUser(callKey, call.id, String(args.question)), failed: false }) };

  const signature = contract.readOnly ? `${contract.name}:${canonicalJson(args)}` : null;
  if (signature) {
    const earlier = run.readOnlyResult(signature);
    const sameReply = inThisReply.get(signature);
    if (earlier || sameReply !== undefined) {
      run.deduplicated(contract.name, callKey, earlier?.callKey ?? sameReply!.callKey);
      return earlier ? { kind: 'answered', message: warn({ content: earlier.content, failed: false }) } : { kind: 'duplicate', of: sameReply!.index };
    }
    inThisReply.set(signature, { index, callKey });
  }

  const verdict = decide(contract, run.mediumRunsSoFar, step.input.policy);
  if (verdict.action === 'deny') {
    const denials = run.denied(contract.name, callKey, verdict.why);
    if (denials >= limits.maxPolicyDenials) return { kind: 'stop', stop: interrupted({ type: 'policy', denials }) };
    return { kind: 'answered', message: { content: denialText(contract.name, verdict.why), failed: false } };
  }
  let approved: { by?: string } | undefined;
  if (verdict.action === 'ask') {
    const decision = await decisions.askApproval(callKey, call.id, contract, args, verdict.why);
    if (decision.decision === 'rejected') return { kind: 'answered', message: { content: rejectionText(contract.name, shownArgs, decision), failed: false } };
    approved = decision.by ? { by: decision.by } : {};
  }
  run.cleared(contract.risk);
  return { kind: 'run', call, callKey, contract, args, shownArgs, signature, warning, ...(approved ? { approved } : {}) };
}

/**
 * Runs the prepared calls at the same time. Siblings finish (and are traced) even when one call stops
 * the run, so nothing is left in flight; the first stop or error in the model's order wins.
 */
async function runAll(step: ToolStep, prepared: readonly PreparedCall[]): Promise<ToolMessage[] | Stop> {
  const results: Promise<ToolMessage | Stop>[] = [];
  for (const p of prepared) {
    results.push(p.kind === 'answered' ? Promise.resolve(p.message) : p.kind === 'duplicate' ? results[p.of]! : execute(step, p));
  }
  if (step.old.firstStopEndsStep) return firstStopOrAll(results);
  const messages: ToolMessage[] = [];
  for (const settled of await Promise.allSettled(results)) {
    if (settled.status === 'rejected') throw settled.reason;
    if (isStop(settled.value)) return settled.value;
    messages.push(settled.value);
  }
  return messages;
}

/** The step as runs recorded before 9a5df69 took it: the first stop or error, in time, ends it. */
async function firstStopOrAll(results: readonly Promise<ToolMessage | Stop>[]): Promise<ToolMessage[] | Stop> {
  try {
    return await Promise.all(
      results.map(async (result) => {
        const value = await result;
        if (isStop(value)) throw new StepStopped(value);
        return value;
      }),
    );
  } catch (error) {
    if (error instanceof StepStopped) return error.stop;
    throw error;
  }
}

/** Ends firstStopOrAll's Promise.all at the first stop (never leaves it). */
class StepStopped extends Error {
  readonly stop: Stop;
  constructor(stop: Stop) {
    super(stop.reason);
    this.stop = stop;
  }
}

/** One approved call: the tool-call cap, then the call (`callTool`), traced. */
async function execute(step: ToolStep, p: ToRun): Promise<ToolMessage | Stop> {
  const { run, limits } = step;
  const { call, contract } = p;
  const runKey = step.old.providerCallKeys ? run.legacyRunKey(call.id) : p.callKey;
  if (limits.maxToolCalls !== undefined && run.state.toolRuns >= limits.maxToolCalls) return interrupted({ type: 'max_tool_calls' });
  run.toolStarted(runKey, { toolName: contract.name, callKey: p.callKey, toolCallId: call.id, args: p.shownArgs });
  const startedMs = Date.now();
  let outcome: ToolOutcome | null = null;
  try {
    // Under the call's span (when tracing): its activity or child run is traced as the call's child.
    const called = await run.spans.within(p.callKey, () => callTool(step, p, runKey));
    if (isStop(called)) return called;
    outcome = called;
  } catch (error) {
    // Cancellation and a refused workspace end the run; any other failure is the model's to read.
    if (wf.isCancellation(error) || failureType(error) === FailureType.workspaceRefused) throw error;
    outcome = { ok: false, content: toolErrorText(failureMessage(error)), ms: Date.now() - startedMs };
  } finally {
    run.toolFinished(runKey, outcome, p.signature);
  }
  const { ok, content } = outcome;
  return { content: p.warning ? withWarning(content, p.warning) : content, failed: !ok };
}

/** Where a call runs: its tool activity, a child run (research, another agent), or the workflow itself (a handoff). */
async function callTool(step: ToolStep, { call, contract, args, callKey, approved }: ToRun, runKey: string): Promise<ToolOutcome | Stop> {
  const { run, limits, input } = step;
  switch (contract.execution) {
    case 'handoff':
      return { ...(await askHandoff(step, handoffTargetOf(contract)!, callKey)), ms: 0 };
    case 'child-run': {
      const agent = agentOfTool(contract);
      return agent ? runSubAgent(step, runKey, callKey, agent, String(args.task)) : runResearch(step, runKey, callKey, String(args.question));
    }
    default:
      return throughStoreOutages(run, callKey, limits.maxStoreOutageMs, () =>
        throughLostWorkers(run, contract, () =>
          // `callKey` too: the name workers before v0.7 read the run key under (a rolling deploy runs both).
          toolActivity(contract).runTool.executeWithOptions({ summary: toolCallSummary(contract.name, args, contract.redact, approved) }, [
            { runId: run.runId, runKey, callKey: runKey, toolCallId: call.id, toolName: contract.name, args, workspace: input.workspace, ...toolReplayOf(input) },
          ]),
        ),
      );
  }
}
