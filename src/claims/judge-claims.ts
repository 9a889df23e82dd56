/**
 * The optional claim judge (`policy.claimJudge`): a model turns the final answer into structured claims
 * (which tool's effect, on what, asserted as done or not), and those are compared with the receipt by the
 * same rules as the check's own — the judge reads the answer, the receipt decides. Pure, sandbox-safe.
 */
import { z } from 'zod';
import type { ClaimWarning, Receipt } from '../wire/receipt.ts';
import type { ClaimSpecs } from './claim-specs.ts';
import { kindOf, objectMatches } from './claim-objects.ts';
import { formatReceiptEntry, shorten } from './format-receipt.ts';

/** One claim as the judge reads it. `asserted: 'done'` is the answer saying the effect happened. */
export const judgedClaimSchema = z.object({
  tool: z.string().min(1),
  object: z.string().optional(),
  asserted: z.enum(['done', 'not_done', 'planned', 'other']),
  /** The answer's words that make the claim. */
  quote: z.string().default(''),
});
export const judgedClaimsSchema = z.object({ claims: z.array(judgedClaimSchema).max(50) });
export type JudgedClaim = z.infer<typeof judgedClaimSchema>;

/** Marks a judge request (the scripted model tells it from a run's turn by this). */
export const JUDGE_MARK = 'You are a claim judge.';

/** A tool as the judge is told of it: what it does, and which argument names what it acts on. */
export interface JudgeTool {
  name: string;
  description: string;
  objectArg?: string;
}

/** The judge's instructions: the tools it may name (each with the argument its object is), and the JSON it must answer with. */
export function judgeSystemPrompt(tools: readonly JudgeTool[]): string {
  return [
    JUDGE_MARK,
    "Read the assistant's final answer below and list every statement it makes that one of these tools' effects happened, did not happen, or is only planned.",
    'Tools:',
    ...tools.map((t) => `- ${t.name}${t.objectArg ? ` (acts on its "${t.objectArg}" argument: give that value as the object)` : ''}: ${t.description}`),
    'Answer with JSON only: {"claims":[{"tool":"<tool name>","object":"<what it acted on, as the answer names it; omit if none>","asserted":"done|not_done|planned|other","quote":"<the answer\'s words>"}]}.',
    'Count a statement as "done" only when the answer says the effect happened (whatever the wording: tables, lists, idioms, passive voice).',
  ].join('\n');
}

/** The tools whose claims the check reads (those with a spec), as the judge is told of them. */
export function judgeTools(tools: readonly { name: string; description: string }[], specs: ClaimSpecs): JudgeTool[] {
  return tools.flatMap((t) => {
    const spec = specs[t.name];
    return spec ? [{ name: t.name, description: t.description, ...(spec.objectArg ? { objectArg: spec.objectArg } : {}) }] : [];
  });
}

/** The judge's reply as claims; a reply that is no such JSON gives none (the rule check still stands). */
export function parseJudgeReply(content: string): JudgedClaim[] {
  const json = /\{[\s\S]*\}/.exec(content)?.[0];
  if (!json) return [];
  try {
    const parsed = judgedClaimsSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data.claims : [];
  } catch {
    return [];
  }
}

/** Warnings for the judged claims asserted as done that no `done` receipt entry backs (known tools only). */
export function judgedWarnings(claims: readonly JudgedClaim[], receipt: Receipt, specs: ClaimSpecs): ClaimWarning[] {
  const warnings: ClaimWarning[] = [];
  for (const c of claims) {
    const spec = specs[c.tool];
    if (c.asserted !== 'done' || !spec) continue;
    const object = spec.objectArg ? c.object : undefined;
    const matches = (value: string | undefined) => !object || !spec.objectArg || objectMatches(value, object, kindOf(spec));
    if (receipt.some((e) => e.tool === c.tool && e.outcome === 'done' && matches(e.args[spec.objectArg ?? '']))) continue;
    if (warnings.some((w) => w.tool === c.tool && w.object === object)) continue;
    const related = receipt.filter((e) => e.tool === c.tool && matches(e.args[spec.objectArg ?? '']));
    const has = related.length ? related.map(formatReceiptEntry).join(' · ') : `no ${c.tool} call${object ? ` for ${object}` : ''}`;
    const clause = c.quote.trim() || `${c.tool}${object ? ` ${object}` : ''}`;
    warnings.push({ tool: c.tool, ...(object ? { object } : {}), clause, verb: 'judge', receipt: has, message: `${c.tool}${object ? ` ${object}` : ''}: "${shorten(clause, 100)}" — receipt: ${has}` });
  }
  return warnings;
}

/** The rule check's warnings, then the judge's that name another tool and object. */
export function mergeWarnings(rules: readonly ClaimWarning[], judged: readonly ClaimWarning[]): ClaimWarning[] {
  const same = (a: ClaimWarning, b: ClaimWarning) => a.tool === b.tool && (!a.object || !b.object || objectMatches(a.object, b.object, 'path') || objectMatches(a.object, b.object, 'recipient'));
  return [...rules, ...judged.filter((j) => !rules.some((r) => same(r, j)))];
}
