/**
 * Judges one run on three levels: the result (status, answer), the trajectory (which tools ran, how many
 * turns, runs and dollars) and the answer's claims: the run's receipt, built from its trace, and the same
 * claim check a live run gets (src/claims/check-claims.ts). Pure.
 */
import { checkClaims } from '../../claims/check-claims.ts';
import { type ClaimSpecs } from '../../claims/claim-specs.ts';
import { claimSpecsOf } from '../../claims/default-claim-spec.ts';
import { splitClauses } from '../../claims/clauses.ts';
import { formatReceipt } from '../../claims/format-receipt.ts';
import { receiptFromEvents, receiptToolsOf, type ReceiptTools } from '../../claims/receipt.ts';
import type { ClaimWarning, Receipt } from '../../wire/receipt.ts';
import type { TraceLine } from '../../wire/trace-events.ts';
import type { RunResult } from '../../wire/types.ts';
import { toolContracts } from '../../tools/contracts.ts';
import type { EvalTask } from './task-file.ts';

/** The built-in tools' claims and receipt tools: what a live run checks with. */
export const DEFAULT_CLAIM_SPECS: ClaimSpecs = claimSpecsOf(toolContracts);
export const DEFAULT_RECEIPT_TOOLS: ReceiptTools = receiptToolsOf(toolContracts, DEFAULT_CLAIM_SPECS);

/** A task's own claim pattern is denied ("did not …") only within the clause it matches. */
const NEGATION = /\b(not|nothing|never|no|didn't|did not|won't|cannot|can't|couldn't|wasn't|unable)\b|n't\b/i;

export interface Verdict {
  resultOk: boolean;
  trajectoryOk: boolean;
  /** Every broken expectation, result ones first. */
  broken: string[];
  toolsRun: string[];
  /** What the run's side-effect calls really did. */
  receipt: Receipt;
  /** Claims in the answer the receipt contradicts (each is also a broken trajectory expectation). */
  warnings: ClaimWarning[];
}

export function judge(
  task: EvalTask,
  result: RunResult,
  trace: readonly TraceLine[],
  extraBroken: readonly string[] = [],
  check: { specs: ClaimSpecs; tools: ReceiptTools } = { specs: DEFAULT_CLAIM_SPECS, tools: DEFAULT_RECEIPT_TOOLS },
): Verdict {
  const expect = task.expect;
  const resultBroken: string[] = [];
  if (result.status !== expect.status) resultBroken.push(`status: expected ${expect.status}, got ${result.status}${result.reason ? ` (${result.reason})` : ''}`);
  if (expect.answer && !new RegExp(expect.answer, 'is').test(result.output ?? '')) {
    resultBroken.push(`answer: ${JSON.stringify(result.output ?? '')} does not match /${expect.answer}/`);
  }

  const toolsRun = trace.flatMap((l) => (l.type === 'tool_start' ? [l.toolName] : []));
  const succeeded = new Set(trace.flatMap((l) => (l.type === 'tool_result' && l.ok ? [l.toolName] : [])));
  const trajectoryBroken: string[] = [...extraBroken];
  for (const tool of expect.toolsRun) if (!toolsRun.includes(tool)) trajectoryBroken.push(`toolsRun: ${tool} did not run`);
  for (const tool of expect.toolsNotRun) if (toolsRun.includes(tool)) trajectoryBroken.push(`toolsNotRun: ${tool} ran`);
  if (expect.maxTurns !== undefined && result.totalTurns > expect.maxTurns) trajectoryBroken.push(`maxTurns: ${result.totalTurns} > ${expect.maxTurns}`);
  if (expect.maxToolRuns !== undefined && result.toolRuns > expect.maxToolRuns) trajectoryBroken.push(`maxToolRuns: ${result.toolRuns} > ${expect.maxToolRuns}`);
  if (expect.maxCostUsd !== undefined && result.totalCostUsd > expect.maxCostUsd) {
    trajectoryBroken.push(`maxCostUsd: $${result.totalCostUsd.toFixed(6)} > $${expect.maxCostUsd}`);
  }

  const answer = result.output ?? '';
  const receipt = receiptFromEvents(trace, check.tools);
  const warnings = checkClaims(answer, receipt, check.specs);
  if (expect.receipt !== undefined && formatReceipt(receipt) !== expect.receipt) trajectoryBroken.push(`receipt: expected "${expect.receipt}", got "${formatReceipt(receipt)}"`);
  for (const w of warnings) trajectoryBroken.push(`claim: ${w.message}`);
  for (const claim of expect.claims) {
    const pattern = new RegExp(claim.answer, 'is');
    const claimed = splitClauses(answer).some((c) => !c.question && pattern.test(c.text) && !NEGATION.test(c.text));
    if (claimed && !succeeded.has(claim.requires)) {
      trajectoryBroken.push(`claim: the answer claims /${claim.answer}/ but ${claim.requires} never ran successfully`);
    }
  }
  return { resultOk: resultBroken.length === 0, trajectoryOk: trajectoryBroken.length === 0, broken: [...resultBroken, ...trajectoryBroken], toolsRun, receipt, warnings };
}
