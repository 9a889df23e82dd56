/**
 * What the run asks people, and how their answers arrive: approvals and rejections (validated Updates,
 * and signals for callers that cannot wait), answers to `ask_user` questions, and the durable waits for
 * them (no worker needs to be alive while the run waits).
 */
import * as wf from '@temporalio/workflow';
import type { ToolContract } from '../src/tools/define-tool.ts';
import { formatDuration } from './approval-text.ts';
import { canonicalJson } from '../src/wire/canonical-json.ts';
import type { LoopState } from './loop-state.ts';
import { answerUpdate, approveSignal, approveUpdate, rejectSignal, rejectUpdate } from '../src/wire/messages.ts';
import { MAX_ANSWER_CHARS, MAX_REASON_CHARS } from '../src/wire/payload-bounds.ts';
import { redactFields } from '../src/wire/redact.ts';
import { sha256Hex } from '../src/wire/sha256.ts';
import { approvalTimerSummary } from '../src/wire/summaries.ts';
import { calledKey, type AnswerRequest, type ApprovalDecision, type ApproveRequest, type RejectRequest } from '../src/wire/types.ts';

export class HumanDecisions {
  private readonly run: LoopState;
  /** An approval not decided within this time counts as a rejection. */
  private readonly approvalTimeoutMs: number | undefined;
  private readonly decisions = new Map<string, ApprovalDecision>();
  /** The answer the user gives to the pending ask_user question. */
  private userAnswer: { callKey: string; text: string } | null = null;

  constructor(run: LoopState, approvalTimeoutMs: number | undefined) {
    this.run = run;
    this.approvalTimeoutMs = approvalTimeoutMs;
  }

  /** The approve, reject and answer handlers. Call before the first await. */
  listen(): void {
    wf.setHandler(approveUpdate, (request) => this.recordDecision(approval(request)), {
      validator: (request: ApproveRequest) => this.checkDecision(calledKey(request), request.argsHash, request.by),
    });
    wf.setHandler(rejectUpdate, (request) => this.recordDecision(rejection(request)), {
      validator: (request: RejectRequest) => this.checkDecision(calledKey(request), undefined, request.by, request.reason),
    });
    wf.setHandler(
      answerUpdate,
      (request) => {
        const callKey = request.callKey ?? this.run.state.pending!.callKey;
        this.userAnswer = { callKey, text: request.text };
        return { callKey };
      },
      { validator: (request: AnswerRequest) => this.checkAnswer(request) },
    );
    wf.setHandler(approveSignal, (request) => this.decideBySignal(calledKey(request), () => approval(request), request.argsHash, request.by));
    wf.setHandler(rejectSignal, (request) => this.decideBySignal(calledKey(request), () => rejection(request), undefined, request.by, request.reason));
  }

  /** Puts the call to a human (the final arguments, redacted) and waits for the decision or the timeout. */
  async askApproval(callKey: string, toolCallId: string, contract: ToolContract, args: Record<string, unknown>, why: string): Promise<ApprovalDecision> {
    const argsHash = sha256Hex(canonicalJson(args));
    const shown = redactFields(args, contract.redact);
    this.run.awaiting({ kind: 'approval', callKey, toolCallId, toolName: contract.name, args: shown, argsHash, risk: contract.risk, why, requestedAt: new Date().toISOString() });
    const timeoutMs = this.approvalTimeoutMs;
    const isDecided = () => this.decisions.has(callKey);
    // The timeout's timer is named in Temporal's UI (`approval timeout: delete_file t2.1 (1 d)`).
    const decided = timeoutMs
      ? await wf.condition(isDecided, timeoutMs, { summary: approvalTimerSummary(contract.name, callKey, timeoutMs) })
      : (await wf.condition(isDecided), true);
    if (!decided) this.decisions.set(callKey, { decision: 'rejected', callKey, reason: `no decision in ${formatDuration(timeoutMs!)}` });
    const decision = this.decisions.get(callKey)!;
    this.run.approvalDecided(contract.name, decision);
    return decision;
  }

  /** Asks the user the model's question and waits for the `answer` Update. */
  async askUser(callKey: string, toolCallId: string, question: string): Promise<string> {
    this.userAnswer = null;
    this.run.awaiting({ kind: 'input', callKey, toolCallId, question, requestedAt: new Date().toISOString() });
    await wf.condition(() => this.userAnswer?.callKey === callKey);
    const text = this.userAnswer!.text;
    this.userAnswer = null;
    this.run.answered(callKey);
    return text;
  }

  /** Throws (refusing the update, leaving the run untouched) unless `callKey` is the pending call and the hash matches. */
  private checkDecision(callKey: string, argsHash?: string, ...texts: (string | undefined)[]): void {
    const earlier = this.decisions.get(callKey);
    if (earlier) throw new Error(`Call "${callKey}" was already ${earlier.decision}; a decision cannot be changed.`);
    const pending = this.run.state.pending;
    if (pending?.kind !== 'approval') throw new Error(`No approval is pending in run ${this.run.runId}, so there is nothing to decide for call "${callKey}".`);
    if (pending.callKey !== callKey) throw new Error(`No approval is pending for call "${callKey}"; the pending call is "${pending.callKey}" (${pending.toolName}).`);
    if (argsHash !== undefined && argsHash !== pending.argsHash) {
      throw new Error(`argsHash does not match the arguments of call "${callKey}" (${pending.toolName}); read the run's state and approve the arguments it shows.`);
    }
    if (texts.some((t) => t !== undefined && t.length > MAX_REASON_CHARS)) throw new Error(`A reason or name has more than ${MAX_REASON_CHARS} characters.`);
  }

  private recordDecision(decision: ApprovalDecision): ApprovalDecision {
    this.decisions.set(decision.callKey, decision);
    return decision;
  }

  /** A signal cannot be refused: one that does not apply is traced and otherwise ignored. */
  private decideBySignal(callKey: string, decision: () => ApprovalDecision, argsHash?: string, ...texts: (string | undefined)[]): void {
    try {
      this.checkDecision(callKey, argsHash, ...texts);
    } catch (error) {
      this.run.emit({ type: 'approval_refused', callKey, error: (error as Error).message });
      return;
    }
    this.recordDecision(decision());
  }

  private checkAnswer(request: AnswerRequest): void {
    const { state } = this.run;
    const pending = state.pending;
    if (pending?.kind !== 'input' || this.userAnswer) throw new Error(`Run ${this.run.runId} is not waiting for an answer (status ${state.status}).`);
    if (request.callKey && request.callKey !== pending.callKey) throw new Error(`The pending question is call "${pending.callKey}", not "${request.callKey}".`);
    if (!request.text.trim()) throw new Error('The answer is empty.');
    if (request.text.length > MAX_ANSWER_CHARS) throw new Error(`The answer has ${request.text.length} characters; at most ${MAX_ANSWER_CHARS} are accepted.`);
  }
}

function approval(request: ApproveRequest): ApprovalDecision {
  return { decision: 'approved', callKey: calledKey(request), ...(request.by ? { by: request.by } : {}) };
}

function rejection(request: RejectRequest): ApprovalDecision {
  return { decision: 'rejected', callKey: calledKey(request), ...(request.reason ? { reason: request.reason } : {}), ...(request.by ? { by: request.by } : {}) };
}
