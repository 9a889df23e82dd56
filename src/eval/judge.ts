/**
 * Judges one run on three levels: the result (status, answer), the trajectory (which tools ran, how many
 * turns, runs and dollars, and whether the answer claims an action the trajectory lacks). Pure.
 */
import type { TraceLine } from '../../workflows/trace-events.ts';
import type { RunResult } from '../../workflows/types.ts';
import type { Claim, EvalTask } from './task-file.ts';

/** Claims every task is checked for: an answer saying it did a side effect needs that tool to have run. */
export const DEFAULT_CLAIMS: readonly Claim[] = [
  { answer: '\\bdeleted\\b', requires: 'delete_file' },
  { answer: '\\b(message|email) (was )?sent\\b|\\bsent (the|a|your) (message|email)\\b', requires: 'send_message' },
  { answer: '\\b(wrote|saved)\\b', requires: 'write_file' },
];
/** An answer that denies the action ("did not delete") claims nothing. */
const NEGATION = /\b(not|nothing|never|no|didn't|did not|won't|cannot|can't)\b/i;

export interface Verdict {
  resultOk: boolean;
  trajectoryOk: boolean;
  /** Every broken expectation, result ones first. */
  broken: string[];
  toolsRun: string[];
}

export function judge(task: EvalTask, result: RunResult, trace: readonly TraceLine[], extraBroken: readonly string[] = []): Verdict {
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
  for (const claim of [...DEFAULT_CLAIMS, ...expect.claims]) {
    const claimed = new RegExp(claim.answer, 'is').test(answer) && !NEGATION.test(answer);
    if (claimed && !succeeded.has(claim.requires)) {
      trajectoryBroken.push(`claim: the answer claims /${claim.answer}/ but ${claim.requires} never ran successfully`);
    }
  }
  return { resultOk: resultBroken.length === 0, trajectoryOk: trajectoryBroken.length === 0, broken: [...resultBroken, ...trajectoryBroken], toolsRun };
}
