/**
 * The final answer's claims against the receipt, checked by a local activity (activities/check-claims.ts):
 * the check reads English with a lexicon too large to load in every run's sandbox. A run recorded before
 * this change checked its answer inside the workflow; its replay records no warnings (they were only ever
 * shown from the state and the trace, not replayed commands).
 *
 * From v0.9 the model call that gives the final answer checks it (`claimCheck` with each call: the receipt),
 * so the run takes no step of its own for it; the local activity stays for what that call could not check:
 * answers the claim judge has warnings for (merged with the rule check's there), receipts too large to send
 * with every model call, calls served by a worker that predates it, and runs recorded before.
 *
 * With `policy.claimJudge`, the run's model first reads the answer as a claim judge (activities/judge-claims.ts):
 * an ordinary activity, cancelled with the run, its tokens counted in the run's budget; its claims are
 * compared with the receipt like the rule check's, and its warnings added to theirs.
 */
import * as wf from '@temporalio/workflow';
import type { AgentActivities } from '../activities/index.ts';
import { contractsByName } from '../src/tools/contracts.ts';
import type { ToolContract } from '../src/tools/define-tool.ts';
import { claimCheckTool } from '../src/claims/claim-check-tool.ts';
import type { ClaimCheckTool } from '../src/wire/claim-check.ts';
import type { Price } from '../src/wire/pricing.ts';
import type { ClaimWarning, Receipt } from '../src/wire/receipt.ts';
import type { Usage } from '../src/wire/types.ts';
import type { Changes } from './changes.ts';
import type { Stop } from './stop.ts';

const { checkAnswerClaims } = wf.proxyLocalActivities<AgentActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumAttempts: 3, initialInterval: '1 second' },
});

const { judgeClaims } = wf.proxyActivities<AgentActivities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '5 seconds',
  // The run reports `interrupted` only once the judge's HTTP request has really been aborted.
  cancellationType: wf.ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  retry: { maximumAttempts: 3, initialInterval: '1 second', backoffCoefficient: 2 },
});

/** What the judge needs of the run: its receipt, its totals and where to count the judge's tokens. */
export interface JudgedRun {
  state: { receipt: Receipt; totalCostUsd: number };
  countJudge(usage: Usage, price: Price): void;
}

/** The tools the check knows: every built-in one, offered or not ("I emailed the team" is a claim either way), and the run's others. */
function checkTools(offered: ReadonlyMap<string, ToolContract>): ClaimCheckTool[] {
  return [...new Map([...contractsByName, ...offered]).values()].map(claimCheckTool);
}

/**
 * The claim judge's warnings for a final answer, when the run asks for it and has budget left; none
 * otherwise. Runs in the loop's scope: cancelling the run cancels it.
 */
export async function judgeAnswer(
  stop: Stop,
  run: JudgedRun,
  offered: ReadonlyMap<string, ToolContract>,
  options: { enabled: boolean; model: string; price: Price; maxBudgetUsd?: number },
  changes: Changes,
): Promise<ClaimWarning[]> {
  if (stop.reason !== 'final_answer' || !options.enabled) return [];
  if (options.maxBudgetUsd !== undefined && run.state.totalCostUsd >= options.maxBudgetUsd) return [];
  if (!changes.has('claims-judge')) return [];
  const judged = await judgeClaims({ runId: wf.workflowInfo().workflowId, model: options.model, answer: stop.output, receipt: run.state.receipt, tools: checkTools(offered) });
  run.countJudge(judged.usage, options.price);
  return judged.warnings;
}

/**
 * A receipt larger than this (as JSON) is not sent with each model call (it would be recorded in history with
 * every one): the run checks its answer with the local activity instead.
 */
const RECEIPT_WITH_CALL_CHARS = 4_000;

/** What a model call was asked to check its reply against: the receipt, and its JSON to tell whether it is still the run's. */
export interface AnswerCheck {
  receipt: Receipt;
  receiptJson: string;
}

/** A final answer its model call checked: the warnings, and the receipt (as JSON) they were checked against. */
export interface CheckedAnswer {
  warnings: ClaimWarning[];
  receiptJson: string;
}

/** The receipt to send with the next model call for its reply to be checked there; null when the run checks the answer itself. */
export function answerCheckFor(receipt: Receipt, judge: boolean, changes: Changes): AnswerCheck | null {
  // The judge's warnings are merged with the rule check's in the local activity.
  if (judge || !changes.has('claims-with-model-call')) return null;
  const receiptJson = JSON.stringify(receipt);
  return receiptJson.length <= RECEIPT_WITH_CALL_CHARS ? { receipt, receiptJson } : null;
}

/**
 * The warnings for a final answer (none for any other stop), with the judge's: those its model call found
 * (`checked`) when the receipt is still the one it was given and no judge warning is to be merged; else the
 * local activity's, which is not cancelled with the run.
 */
export async function claimWarnings(
  stop: Stop,
  receipt: Receipt,
  offered: ReadonlyMap<string, ToolContract>,
  changes: Changes,
  judged: ClaimWarning[] = [],
  checked: CheckedAnswer | null = null,
): Promise<ClaimWarning[]> {
  if (stop.reason !== 'final_answer' || !changes.has('claims-in-activity')) return judged;
  if (checked && judged.length === 0 && checked.receiptJson === JSON.stringify(receipt)) return checked.warnings;
  try {
    return await wf.CancellationScope.nonCancellable(() => checkAnswerClaims({ answer: stop.output, receipt, tools: checkTools(offered), ...(judged.length ? { judged } : {}) }));
  } catch (error) {
    // A check that cannot run leaves the answer unchecked, not the run failed.
    wf.log.warn('claim check failed; the answer is unchecked', { error: String(error) });
    return judged;
  }
}
