/**
 * Everything the loop changes as it goes, owned in one place: the run state the `state` query shows, the
 * conversation and its store head, what deduplication, the policy and the progress guard remember, and
 * the trace's sequence. The loop's files say what happened through its methods (`toolStarted`,
 * `awaiting`, `childFinished`, …); each updates the state, refreshes what the server shows of it
 * (`touch`) and writes the trace line, in one place. It crosses continue-as-new as a versioned `CarriedState`.
 */
import * as wf from '@temporalio/workflow';
import type { ToolContract } from '../src/tools/define-tool.ts';
import { contractsByName, toolContracts } from '../src/tools/contracts.ts';
import { LiveState } from './live-state.ts';
import type { Changes } from './changes.ts';
import { FINAL_STATE_MEMO, modelContextQuery, stateQuery, toolProgressSignal, cancelReasonSignal, transcriptQuery } from '../src/wire/messages.ts';
import { checkCall, checkTurn, newProgressGuard, type GuardVerdict } from './progress-guard.ts';
import { addUsage, type Price } from '../src/wire/pricing.ts';
import { RunCost } from './run-cost.ts';
import { DEFAULT_SYSTEM_PROMPT } from './prompts.ts';
import { redactJsonText } from '../src/wire/redact.ts';
import { toRunResult } from '../src/wire/run-result.ts';
import { linkHash, type TranscriptUpdate } from '../src/wire/transcript-link.ts';
import { applyToReceipt, receiptToolsOf, type ReceiptTools } from '../src/claims/receipt.ts';
import { STOP_STATUS, type Stop } from './stop.ts';
import { RunSpans } from './telemetry.ts';
import type { TraceEvent, TraceSinks } from '../src/wire/trace-events.ts';
import type { ClaimWarning } from '../src/wire/receipt.ts';
import { calledKey, type ApprovalDecision, type ChatMessage, type ChildRunSummary, type ModelReply, type Pending, type RunResult, type RunState, type RunStatus, type ToolOutcome, type Usage } from '../src/wire/types.ts';
import type { agentWorkflow } from './agent.ts';
import type { CarriedState, ContextState, ProgressGuardState } from './carried-state.ts';
import type { ResolvedRunInput, RunLimits } from '../src/wire/run-input.ts';
import { runCurrentDetails } from '../src/wire/summaries.ts';
import { FailureType } from '../src/wire/failures.ts';

const { trace } = wf.proxySinks<TraceSinks>();

/** The `CarriedState` version this code writes; it reads every version in `READABLE_VERSIONS`. */
const CARRIED_VERSION = 1;
const READABLE_VERSIONS: readonly number[] = [1];

/** Which tools a receipt lists, and the argument naming each one's object. */
// Every built-in tool states its claims, so no spec is derived here (that code and its word lists stay out of the bundle).
const BUILTIN_RECEIPT_TOOLS = receiptToolsOf(toolContracts, Object.fromEntries(toolContracts.flatMap((c) => (c.claims ? [[c.name, c.claims] as const] : []))));

/** Read-only results carried into a new execution stay under this many characters in all. */
const CARRIED_RESULTS_MAX_CHARS = 256 * 1024;

export class LoopState {
  readonly runId: string = wf.workflowInfo().workflowId;
  private readonly runState: RunState;
  readonly startedAtMs: number;
  /** This execution's part of the conversation (earlier executions' part is in the store, before `baseHead`). */
  private readonly transcript: ChatMessage[];
  private readonly baseHead: string | null;
  /** Store head of what the model has been sent, and the messages since (sent with the next call). */
  private head: string | null;
  private unsent: ChatMessage[];
  private readonly turnsAtStart: number;
  /** Successful read-only results by `tool:canonical-args`, with the key of the call that produced them. */
  private readonly readOnlyResults: Map<string, { content: string; callKey: string }>;
  /** Execution keys used so far by runs whose calls are keyed by provider id. */
  private readonly usedCallIds: Set<string>;
  private mediumRuns: number;
  /** The run's spend by the price of each turn (set at the first turn of the execution). */
  private cost: RunCost | null = null;
  private seq: number;
  private readonly guard: ProgressGuardState;
  private policyDenials: number;
  private outputRepairs: number;
  /** What the run knows of its context between model calls (`compaction.ts`). */
  readonly context: ContextState;
  /** Where the model's context starts after the last compaction: its link, and this execution's messages since. */
  private contextBase: { head: string; from: number } | null = null;
  /** Tools running now, by their run key, which their activity reports progress under (not carried: none run across). */
  private readonly runningTools = new Map<string, { toolName: string; callKey: string }>();
  /** The running tool whose label `state.progress` shows: the label goes when that tool finishes. */
  private progressOf: string | null = null;
  /** Reasoning items a chat model was last noted to be sent without (`reasoning_dropped`; not carried: noted once per execution). */
  private reasoningDropNoted = 0;
  /** Why the run is being cancelled, when the canceller said (sent right before the cancel request). */
  private cancelledBecause: string | null = null;
  /** Whether this execution has learned the serving worker's offer digest (`servedBy`). */
  private digestKnown = false;
  /** What the server shows of the run without a worker (memo, search attributes). */
  private readonly live: LiveState;
  /** OpenTelemetry spans made from the trace events (nothing when the worker does not trace). */
  readonly spans = new RunSpans();
  /** The workflow's changes this execution's history has (`changes.ts`). */
  readonly changes: Changes;
  /** The tools the run offers (set by `listen`; the worker's tools join it later). */
  private offered: ReadonlyMap<string, ToolContract> = new Map();
  /** The limits the run's current details measure it against (set by `showDetailsAgainst`). */
  private detailsLimits: Pick<RunLimits, 'maxTurns' | 'maxBudgetUsd'> | null = null;
  /** What the current details last showed (`showDetails`). */
  private detailsShown = '';
  private receiptToolsFor = -1;
  private receiptToolsCache: ReceiptTools = BUILTIN_RECEIPT_TOOLS;

  private constructor(carried: CarriedState, changes: Changes) {
    this.runState = carried.state;
    this.startedAtMs = carried.startedAtMs;
    this.transcript = [...carried.unsent];
    this.baseHead = carried.head;
    this.head = carried.head;
    this.unsent = [...this.transcript];
    this.turnsAtStart = carried.state.turns;
    // Carried states of version 1 name the call's key `callId`.
    this.readOnlyResults = new Map(carried.readOnlyResults.map(([signature, { content, callId }]) => [signature, { content, callKey: callId }]));
    this.mediumRuns = carried.mediumRuns;
    this.seq = carried.seq;
    // Optional: earlier writers of version 1 carried no guard, denials or repairs; empty call ids are left out.
    this.usedCallIds = new Set(carried.usedCallIds);
    this.guard = carried.progressGuard ?? newProgressGuard();
    this.policyDenials = carried.policyDenials ?? 0;
    this.outputRepairs = carried.outputRepairs ?? 0;
    this.context = carried.context ?? { tokens: 0, compactions: 0, recallOffered: false };
    // States carried by workers that predate receipts start with an empty one.
    this.runState.receipt ??= [];
    this.runState.warnings ??= [];
    this.changes = changes;
    this.live = new LiveState(changes);
  }

  /** A new run: its state, and the conversation's first two messages. */
  static fresh(input: ResolvedRunInput, changes: Changes): LoopState {
    const startedAtMs = Date.now();
    const startedAt = new Date(startedAtMs).toISOString();
    const state: RunState = {
      runId: wf.workflowInfo().workflowId,
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
      receipt: [],
      warnings: [],
      startedAt,
      updatedAt: startedAt,
      ...(input.agentName ? { agent: input.agentName, agentTurns: [{ agent: input.agentName, fromTurn: 1 }] } : {}),
    };
    const unsent: ChatMessage[] = [
      { role: 'system', content: input.system ?? DEFAULT_SYSTEM_PROMPT },
      { role: 'user', content: input.goal },
    ];
    return new LoopState({ version: CARRIED_VERSION, state, head: null, unsent, seq: 0, startedAtMs, mediumRuns: 0, readOnlyResults: [] }, changes);
  }

  /** The state an earlier execution carried over; a version this code does not know ends the run loudly. */
  static fromCarried(carried: CarriedState, changes: Changes): LoopState {
    const version: unknown = carried.version;
    if (typeof version !== 'number' || !READABLE_VERSIONS.includes(version)) {
      throw wf.ApplicationFailure.nonRetryable(
        `The run carried state of version ${String(version)} into this execution; this worker reads versions ${READABLE_VERSIONS.join(', ')}. ` +
          'Run a worker built from the code that wrote it (or a newer one).',
        FailureType.unknownCarriedStateVersion,
      );
    }
    return new LoopState(carried, changes);
  }

  /** What the next execution starts from: references and totals, never the transcript itself. */
  toCarried(): CarriedState {
    let budget = CARRIED_RESULTS_MAX_CHARS;
    const results = [...this.readOnlyResults].reverse().filter(([, r]) => (budget -= r.content.length) >= 0);
    return {
      version: CARRIED_VERSION,
      state: this.runState,
      head: this.head,
      unsent: this.unsent,
      seq: this.seq,
      startedAtMs: this.startedAtMs,
      mediumRuns: this.mediumRuns,
      ...(this.usedCallIds.size ? { usedCallIds: [...this.usedCallIds] } : {}),
      readOnlyResults: results.reverse().map(([signature, { content, callKey }]) => [signature, { content, callId: callKey }]),
      progressGuard: this.guard,
      policyDenials: this.policyDenials,
      outputRepairs: this.outputRepairs,
      ...(this.context.compactions || this.context.tokens ? { context: this.context } : {}),
    };
  }

  /** The queries and the signals about the run itself. Call before the first await. */
  listen(offered: ReadonlyMap<string, ToolContract>): void {
    this.offered = offered;
    this.spans.tools = offered;
    const redactMessage = (message: ChatMessage): ChatMessage => {
      if (message.role !== 'assistant' || !message.tool_calls) return message;
      return { ...message, tool_calls: message.tool_calls.map((c) => ({ ...c, arguments: redactJsonText(c.arguments, offered.get(c.name)?.redact ?? []) })) };
    };
    wf.setHandler(stateQuery, () => this.runState);
    wf.setHandler(transcriptQuery, () => this.transcript.map(redactMessage));
    wf.setHandler(modelContextQuery, () =>
      this.contextBase ? { base: this.contextBase.head, messages: this.transcript.slice(this.contextBase.from) } : { base: this.baseHead, messages: this.transcript },
    );
    wf.setHandler(toolProgressSignal, (progress) => {
      const running = this.runningTools.get(calledKey(progress));
      if (!running) return; // a late label from a tool that has finished
      this.runState.progress = progress.label;
      this.progressOf = calledKey(progress);
      this.touch();
      this.emit({ type: 'tool_progress', toolName: running.toolName, callKey: running.callKey, label: progress.label });
    });
    wf.setHandler(cancelReasonSignal, ({ reason }) => {
      this.cancelledBecause ??= reason;
    });
  }

  /** The run's state, as the `state` query shows it: changed only through the methods below. */
  get state(): Readonly<RunState> {
    return this.runState;
  }

  /** Why the run is being cancelled, when the canceller said. */
  get cancelReason(): string | null {
    return this.cancelledBecause;
  }

  // ---- tool calls (`tool-step.ts`) ----

  /** The model asked for a tool call (whatever becomes of it). */
  toolCalled(): void {
    this.runState.toolCalls++;
    this.touch();
  }

  /** The progress guard's verdict on one call (tool and canonical arguments), before it runs. */
  checkCall(signature: string, max: number): GuardVerdict {
    return checkCall(this.guard, signature, max);
  }

  /** The progress guard's verdict on one turn's tool results. */
  checkTurn(results: readonly string[], max: number): GuardVerdict {
    return checkTurn(this.guard, results, max);
  }

  /** An earlier successful read-only call with this signature, if the run remembers one. */
  readOnlyResult(signature: string): { content: string; callKey: string } | undefined {
    return this.readOnlyResults.get(signature);
  }

  /** A read-only call answered from an identical earlier one, not run. */
  deduplicated(toolName: string, callKey: string, sameAs: string): void {
    this.emit({ type: 'tool_deduplicated', toolName, callKey, sameAs });
  }

  /** The policy denied a call; returns how many calls it has denied in this run. */
  denied(toolName: string, callKey: string, why: string): number {
    this.emit({ type: 'tool_denied', toolName, callKey, why });
    return ++this.policyDenials;
  }

  /** Medium-risk tool runs so far (the policy's quota counts them). */
  get mediumRunsSoFar(): number {
    return this.mediumRuns;
  }

  /** A call passed the policy (and a human, if asked) and will run. */
  cleared(risk: ToolContract['risk']): void {
    if (risk === 'medium') this.mediumRuns++;
  }

  /** A tool starts running under `runKey` (the key its activity reports progress under). */
  toolStarted(runKey: string, call: { toolName: string; callKey: string; toolCallId: string; args: string }): void {
    this.emit({ type: 'tool_start', ...call });
    this.runState.toolRuns++;
    this.runningTools.set(runKey, { toolName: call.toolName, callKey: call.callKey });
    this.touch();
  }

  /**
   * The tool running under `runKey` has ended: a progress label it reported is no longer the run's. With its
   * `outcome` (none when the run is stopping instead), the result is traced and a read-only one remembered
   * under `signature`.
   */
  toolFinished(runKey: string, outcome: ToolOutcome | null, signature: string | null): void {
    const running = this.runningTools.get(runKey);
    this.runningTools.delete(runKey);
    if (this.progressOf === runKey) {
      this.progressOf = null;
      this.runState.progress = null;
      this.touch();
    }
    if (!running || !outcome) return;
    const { ok, content, ms, kept } = outcome;
    const { toolName, callKey } = running;
    this.emit({ type: 'tool_result', toolName, callKey, ms, ok, ...(ok ? {} : { error: content }), ...(kept ? { outputRef: kept.ref, outputChars: kept.chars } : {}) });
    if (ok && signature) this.readOnlyResults.set(signature, { content, callKey });
  }

  // ---- people (`decisions.ts`) ----

  /** The run waits for a human: an approval or an answer. */
  awaiting(pending: Pending): void {
    this.runState.pending = pending;
    this.runState.status = pending.kind === 'approval' ? 'waiting_approval' : 'waiting_input';
    this.touch();
    if (pending.kind === 'approval') {
      const { toolName, callKey, toolCallId, args, argsHash, risk, why } = pending;
      this.emit({ type: 'approval_required', toolName, callKey, toolCallId, args: JSON.stringify(args), argsHash, risk, why });
    } else {
      this.emit({ type: 'input_required', callKey: pending.callKey, question: pending.question });
    }
  }

  /** The human's decision on the pending approval arrived (or its timeout did). */
  approvalDecided(toolName: string, decision: ApprovalDecision): void {
    this.resume();
    this.emit({
      type: 'approval_decided',
      toolName,
      callKey: decision.callKey,
      decision: decision.decision,
      ...(decision.decision === 'rejected' && decision.reason ? { reason: decision.reason } : {}),
      ...(decision.by ? { by: decision.by } : {}),
    });
  }

  /** The answer to the pending question arrived. */
  answered(callKey: string): void {
    this.resume();
    this.emit({ type: 'input_received', callKey });
  }

  private resume(): void {
    this.runState.pending = null;
    this.runState.status = 'running';
    this.touch();
  }

  // ---- child runs (`research.ts`) ----

  /** A child run starts for a call. */
  childStarted(child: ChildRunSummary): void {
    this.runState.children.push(child);
    this.touch();
  }

  /** A child run ended: its status, and (when it returned) its turns and spend, which roll into this run's totals. */
  childFinished(childRunId: string, status: RunStatus, totals?: { turns: number; costUsd: number }): void {
    const child = this.runState.children.find((c) => c.runId === childRunId);
    if (!child) return;
    child.status = status;
    if (!totals) return;
    child.turns = totals.turns;
    child.costUsd = totals.costUsd;
    this.refreshTotals();
    this.touch();
  }

  // ---- the final answer ----

  /** The answer broke the output contract: whether one more reply may repair it (once per run). */
  repairAllowed(): boolean {
    return this.outputRepairs++ < 1;
  }

  // ---- store outages (`store-outage.ts`) ----

  /** A call could not reach the store: the run waits for it, and says so. */
  waitingForStore(what: string, error: string, sinceMs: number): void {
    this.progressOf = null;
    this.runState.progress = `waiting for the store since ${new Date(sinceMs).toISOString()} (${what}): ${error}`;
    this.touch();
    this.emit({ type: 'store_unavailable', what, error });
  }

  /** The wait for the store is over: the call got through (`available`), or the run gives up on it. */
  storeWaitOver(what: string, waitedMs: number, available: boolean): void {
    this.runState.progress = null;
    this.touch();
    if (available) this.emit({ type: 'store_available', what, waitedMs });
  }

  // ---- the conversation ----

  /** The link the next model call sends: the messages since the last call, after the store head. */
  nextLink(): TranscriptUpdate {
    const append = this.unsent;
    return { prev: this.head, append, head: linkHash({ prev: this.head, messages: append }) };
  }

  /** The model has been sent `link`: what is recorded from now on goes with the next call. */
  sent(link: TranscriptUpdate): void {
    this.head = link.head;
    this.unsent = [];
  }

  record(message: ChatMessage): void {
    this.transcript.push(message);
    this.unsent.push(message);
  }

  /**
   * The conversation the model is sent was compacted into the link `head` (`compaction.ts`): the next call
   * sends what follows it. The summary call's tokens and cost count like a turn's (it is not a turn).
   */
  compacted(c: { head: string; tokensBefore: number; tokensAfter: number; elided: number; elidedChars: number; summarised: number; usage: Usage | null }, why: 'budget' | 'provider', windowTokens: number | null, price: Price): void {
    const state = this.runState;
    const costBefore = state.costUsd;
    if (c.usage) this.spend(c.usage, price);
    this.head = c.head;
    this.contextBase = { head: c.head, from: this.transcript.length };
    this.context.tokens = c.tokensAfter;
    this.context.compactions++;
    if (c.elided) this.context.recallOffered = true;
    this.touch();
    const { head, tokensBefore, tokensAfter, elided, elidedChars, summarised } = c;
    this.emit({ type: 'compacted', why, tokensBefore, tokensAfter, windowTokens, elided, elidedChars, summarised, costUsd: state.costUsd - costBefore, head });
  }


  /** The run's model was unavailable past its retries: the turn goes to the next model (`model-chain.ts`). */
  fellBack(from: string, to: string, error: string): void {
    this.emit({ type: 'model_fallback', turn: this.runState.turns + 1, from, to, error });
  }

  /**
   * Counts a reply's tokens and cost, at the price the reply carries (else `recordedPrice`, the price of
   * replies recorded before they carried one), from the running totals (`run-cost.ts`). `model`: the model
   * that served the turn, when the run names fallback models.
   */
  countTurn(reply: ModelReply, recordedPrice: Price, model?: string): void {
    const state = this.runState;
    state.turns++;
    state.perTurnPromptTokens.push(reply.usage.promptTokens);
    this.context.tokens = reply.usage.promptTokens;
    if (model !== undefined) (state.perTurnModels ??= []).push(model);
    this.spend(reply.usage, reply.price ?? recordedPrice, recordedPrice);
    this.touch();
    this.emit({
      type: 'turn',
      turn: state.turns,
      prompt_tokens: reply.usage.promptTokens,
      completion_tokens: reply.usage.completionTokens,
      total_tokens: reply.usage.promptTokens + reply.usage.completionTokens,
      ...(reply.usage.cachedPromptTokens ? { cached_tokens: reply.usage.cachedPromptTokens } : {}),
      ...(reply.usage.reasoningTokens ? { reasoning_tokens: reply.usage.reasoningTokens } : {}),
      ...(model !== undefined ? { model } : {}),
      costUsd: state.costUsd,
      finish: reply.finishReason,
      ms: reply.modelMs,
      ...(state.agent ? { agent: state.agent } : {}),
    });
    this.noteDroppedReasoning(reply.droppedReasoningItems ?? 0, model);
  }

  /** The trace says when a chat model goes without reasoning items a Responses model produced (once, then only if more). */
  private noteDroppedReasoning(items: number, model: string | undefined): void {
    if (items <= this.reasoningDropNoted) return;
    this.reasoningDropNoted = items;
    this.emit({ type: 'reasoning_dropped', turn: this.runState.turns, items, ...(model !== undefined ? { model } : {}) });
  }

  /** The digest of what the worker serving this execution offers, once known (asked for with the first model call). */
  get offerDigest(): string | undefined {
    return this.digestKnown ? this.runState.offerDigest : undefined;
  }

  servedBy(digest: string): void {
    this.digestKnown = true;
    if (this.runState.offerDigest === digest) return;
    this.runState.offerDigest = digest;
    this.touch();
  }

  /** `to` takes over from the next turn: the conversation goes on under its instructions (a system message says so). */
  handedOff(to: string, instructions: string, callKey: string): void {
    const state = this.runState;
    const from = state.agent ?? '(run)';
    state.agent = to;
    // The tools offered changed: the receipt's tool list is worked out again.
    this.receiptToolsFor = -1;
    (state.agentTurns ??= []).push({ agent: to, fromTurn: state.turns + 1, callKey });
    this.record({ role: 'system', content: instructions });
    this.touch();
    this.emit({ type: 'handoff', from, to, callKey, turn: state.turns });
  }

  /** Counts the claim judge's tokens and cost (`claim-check.ts`) with the run's own: the budget covers them. */
  countJudge(usage: Usage, price: Price): void {
    this.spend(usage, price);
    this.touch();
  }

  /**
   * Adds tokens (a turn's, a summary's, the judge's) and their cost at `price` to the run's totals, from the
   * running totals (`run-cost.ts`); `recordedPrice`: what the run's earlier spend was priced at.
   */
  private spend(usage: Usage, price: Price, recordedPrice: Price = price): void {
    const state = this.runState;
    const cost = (this.cost ??= new RunCost({ costUsd: state.costUsd, usage: { ...state.usage } }, recordedPrice));
    state.usage = addUsage(state.usage, usage);
    state.costUsd = cost.add(usage, price);
    this.refreshTotals();
  }

  /** This run's totals with its children's: derived, never counted separately. */
  private refreshTotals(): void {
    const state = this.runState;
    state.totalCostUsd = state.children.reduce((sum, c) => sum + c.costUsd, state.costUsd);
    state.totalTurns = state.children.reduce((sum, c) => sum + c.turns, state.turns);
  }

  /** Runs recorded before keyed calls: a provider id reused within the run gets `~2`, `~3`… for its tool run. */
  legacyRunKey(toolCallId: string): string {
    let key = toolCallId;
    for (let n = 2; this.usedCallIds.has(key); n++) key = `${toolCallId}~${n}`;
    this.usedCallIds.add(key);
    return key;
  }

  // ---- keeping history small ----

  shouldContinueAsNew(everyTurns: number | undefined): boolean {
    return wf.workflowInfo().continueAsNewSuggested || (everyTurns !== undefined && this.runState.turns - this.turnsAtStart >= everyTurns);
  }

  async continueAsNew(input: ResolvedRunInput): Promise<never> {
    // Updates and signals in flight finish here, not in a lost execution.
    await wf.condition(wf.allHandlersFinished);
    const info = wf.workflowInfo();
    this.emit({ type: 'continued_as_new', turns: this.runState.turns, historyEvents: info.historyLength, historyBytes: info.historySize });
    this.live.flush();
    return wf.continueAsNew<typeof agentWorkflow>(input, this.toCarried());
  }

  // ---- bookkeeping ----

  emit(event: TraceEvent): void {
    this.runState.receipt = applyToReceipt(this.runState.receipt, event, this.receiptTools());
    // Who made each call, in a run where agents hand over to each other.
    if (this.runState.agent && 'callKey' in event) {
      const entry = this.runState.receipt.find((e) => e.callKey === event.callKey);
      if (entry && !entry.agent) entry.agent = this.runState.agent;
    }
    this.spans.onEvent(event);
    trace.emit({ runId: this.runId, seq: ++this.seq, at: new Date().toISOString(), ...event });
  }

  /** The side-effect tools a receipt lists: the built-in ones, and the worker's own and MCP tools the run offers. */
  private receiptTools(): ReceiptTools {
    if (this.receiptToolsFor !== this.offered.size) {
      this.receiptToolsFor = this.offered.size;
      const others = [...this.offered.values()].filter((c) => !contractsByName.has(c.name));
      this.receiptToolsCache = others.length ? new Map([...BUILTIN_RECEIPT_TOOLS, ...receiptToolsOf(others)]) : BUILTIN_RECEIPT_TOOLS;
    }
    return this.receiptToolsCache;
  }

  /** From now on the run's current details in Temporal's UI follow its state, measured against `limits`. */
  showDetailsAgainst(limits: Pick<RunLimits, 'maxTurns' | 'maxBudgetUsd'>): void {
    this.detailsLimits = limits;
    this.showDetails(limits);
  }

  /** The state changed: its time, what the server shows of it while no worker runs, and the current details a live worker answers with. */
  private touch(): void {
    this.runState.updatedAt = new Date().toISOString();
    this.live.publish(this.runState);
    if (this.detailsLimits) this.showDetails(this.detailsLimits);
  }

  /** The run's current details in Temporal's UI, rebuilt only when something they show has changed (`touch` runs many times a turn). */
  private showDetails(limits: Pick<RunLimits, 'maxTurns' | 'maxBudgetUsd'>): void {
    const s = this.runState;
    const shown = `${s.status}|${s.reason}|${s.turns}|${s.toolRuns}|${s.totalCostUsd}|${s.pending?.callKey}|${s.progress}|${s.children.filter((c) => c.status === 'running').length}`;
    if (shown === this.detailsShown) return;
    this.detailsShown = shown;
    wf.setCurrentDetails(runCurrentDetails(s, limits));
  }

  /**
   * Records how the run ended (state, final trace line, memo) with the final answer's claim warnings
   * (`claim-check.ts`): synchronous, so a cancellation cannot cut it short.
   */
  finish(stop: Stop, warnings: ClaimWarning[] = []): RunResult {
    const state = this.runState;
    const status = STOP_STATUS[stop.reason];
    state.status = status;
    state.reason = stop.reason;
    state.interruption = 'interruption' in stop ? stop.interruption : null;
    state.output = 'output' in stop ? stop.output : null;
    state.error = 'error' in stop ? stop.error : null;
    if ('errorType' in stop && stop.errorType) state.errorType = stop.errorType;
    state.pending = null;
    // Claims in the answer are checked against what really happened; a contradiction is a warning.
    state.warnings = warnings;
    for (const w of state.warnings) this.emit({ type: 'claim_warning', tool: w.tool, ...(w.object ? { object: w.object } : {}), clause: w.clause, message: w.message });
    this.touch();
    this.emit({ type: 'run_stopped', status, reason: stop.reason, turns: state.turns, toolRuns: state.toolRuns, costUsd: state.costUsd, ...(state.errorType ? { errorType: state.errorType } : {}) });
    // Lets clients read the outcome of a closed run without a worker (queries need one); with the live memo's last change, in one upsert.
    this.live.flush({ [FINAL_STATE_MEMO]: state });
    return toRunResult(state);
  }
}
