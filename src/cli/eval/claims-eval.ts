/**
 * `npm run eval:claims [-- files or dirs…]`: runs the claim check (src/claims/check-claims.ts) on the labelled
 * answers in eval/claims/ (or the files and directories named) and prints its misses and false alarms, then
 * precision, recall and the false-alarm rate per file, per category and in total. Exits 1 when recall < 95 %
 * or false alarms > 5 % (in total).
 *
 * `--time` prints the milliseconds per answer instead (as the claim-check activity spends them).
 *
 * A case file may list `tools`: contracts of tools that are not built in (user-defined or MCP), given as
 * name, description, flags and argument names; their claim specs are derived as the worker derives them for
 * a tool that states no `claims`. A case may name its `category`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { checkClaims, sameObject } from '../../claims/check-claims.ts';
import { type ClaimSpecs } from '../../claims/claim-specs.ts';
import { claimSpecsOf } from '../../claims/default-claim-spec.ts';
import { PROJECT_ROOT } from '../../paths.ts';
import { withUnknownVerbs } from '../../wordnet/wordnet-verbs.ts';
import { table } from '../table.ts';
import { countOption, parseCommandLine, usageExit } from '../command-line.ts';
import { judgeTools, mergeWarnings } from '../../claims/judge-claims.ts';
import { judgeAll, JudgeRouteError } from './claims-judge.ts';
import { toolContracts } from '../../tools/contracts.ts';
import { RECEIPT_OUTCOMES, type ClaimWarning, type Receipt } from '../../wire/receipt.ts';
import { RISKS } from '../../wire/types.ts';

const caseSchema = z
  .object({
    name: z.string().min(1),
    /** What the case tests (vocabulary, structure, …): figures are also given per category. */
    category: z.string().min(1).optional(),
    answer: z.string(),
    receipt: z.array(
      z
        .object({
          callKey: z.string().optional(),
          tool: z.string().min(1),
          args: z.record(z.string(), z.string()).default({}),
          outcome: z.enum(RECEIPT_OUTCOMES),
          detail: z.string().optional(),
        })
        .strict(),
    ),
    /** The warnings a correct check gives: the tool, and the object when the answer names one. */
    expect: z.array(z.object({ tool: z.string().min(1), object: z.string().optional() }).strict()),
  })
  .strict();
/** A tool that is not built in, as a case file states it: what a user-defined or MCP tool's contract tells. */
const toolSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().default(''),
    readOnly: z.boolean().default(false),
    risk: z.enum(RISKS).default('medium'),
    /** The names of its arguments, in order. */
    params: z.array(z.string().min(1)).default([]),
  })
  .strict();
const caseFileSchema = z.object({ tools: z.array(toolSchema).optional(), cases: z.array(caseSchema).min(1) }).strict();

export type ClaimCase = z.infer<typeof caseSchema>;
export type CaseTool = z.infer<typeof toolSchema>;
export interface CaseFile {
  tools: CaseTool[];
  cases: ClaimCase[];
}
export type Expected = ClaimCase['expect'][number];

export interface CaseResult {
  file: string;
  case: ClaimCase;
  warnings: ClaimWarning[];
  /** Expected warnings the check did not give. */
  missed: Expected[];
  /** Warnings the check gave that no expected one accounts for. */
  extra: ClaimWarning[];
  matched: number;
}

export function loadClaimFile(file: string): CaseFile {
  const text = readFileSync(file, 'utf8');
  const raw: unknown = /\.ya?ml$/i.test(file) ? parseYaml(text) : JSON.parse(text);
  const parsed = caseFileSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${file}: ${z.prettifyError(parsed.error)}\nSee eval/claims/README.md for the case format.`);
  return { tools: parsed.data.tools ?? [], cases: parsed.data.cases };
}

export function loadClaimCases(file: string): ClaimCase[] {
  return loadClaimFile(file).cases;
}

/** The claim specs a case file is checked with: the built-in tools', and those derived for its own `tools`. */
export function specsForFile(tools: readonly CaseTool[]): ClaimSpecs {
  return claimSpecsOf(contractsForFile(tools));
}

/** The built-in tools' contracts, and the case file's own tools (a built-in name keeps the built-in's). */
function contractsForFile(tools: readonly CaseTool[]) {
  return [...toolContracts, ...tools.filter((t) => !toolContracts.some((c) => c.name === t.name))];
}

/** Every case of the files named, scored with its file's specs (and, as the worker does, the answer's unknown verbs WordNet maps to a kind). */
export function scoreFiles(files: readonly string[]): CaseResult[] {
  return files.flatMap((file) => {
    const { tools, cases } = loadClaimFile(file);
    const specs = specsForFile(tools);
    return cases.map((c) => scoreCase(file, c, specs));
  });
}

/**
 * One case: each expected warning is matched by a warning of the same tool whose object is the same (or
 * when either names no object); the rest are misses, and the warnings left over are false alarms.
 */
export function scoreCase(file: string, c: ClaimCase, specs: ClaimSpecs): CaseResult {
  const receipt = receiptOf(c);
  return scoredWith(file, c, checkClaims(c.answer, receipt, withUnknownVerbs(c.answer, specs)));
}

/** The case's receipt, each entry with a call key. */
function receiptOf(c: ClaimCase): Receipt {
  return c.receipt.map((e, i) => ({ ...e, callKey: e.callKey ?? `c${i + 1}` }));
}

/** The case scored against the warnings a check gave it. */
export function scoredWith(file: string, c: ClaimCase, warnings: ClaimWarning[]): CaseResult {
  const unused = [...warnings];
  const missed: Expected[] = [];
  for (const e of c.expect) {
    const at = unused.findIndex((w) => w.tool === e.tool && (!e.object || !w.object || sameObject(e.object, w.object)));
    if (at < 0) missed.push(e);
    else unused.splice(at, 1);
  }
  return { file, case: c, warnings, missed, extra: unused, matched: c.expect.length - missed.length };
}

export interface Figures {
  cases: number;
  expected: number;
  given: number;
  matched: number;
  precision: number;
  recall: number;
  /** Answers with nothing to flag… */
  clean: number;
  /** …of which the check flagged some. */
  falseAlarms: number;
  falseAlarmRate: number;
}

export function figures(results: readonly CaseResult[]): Figures {
  const expected = results.reduce((n, r) => n + r.case.expect.length, 0);
  const given = results.reduce((n, r) => n + r.warnings.length, 0);
  const matched = results.reduce((n, r) => n + r.matched, 0);
  const clean = results.filter((r) => r.case.expect.length === 0);
  const falseAlarms = clean.filter((r) => r.warnings.length > 0).length;
  return {
    cases: results.length,
    expected,
    given,
    matched,
    precision: given ? matched / given : 1,
    recall: expected ? matched / expected : 1,
    clean: clean.length,
    falseAlarms,
    falseAlarmRate: clean.length ? falseAlarms / clean.length : 0,
  };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const describe = (e: Expected) => `${e.tool}${e.object ? ` ${e.object}` : ''}`;
const oneLine = (s: string, max = 70) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

export function renderClaimsReport(results: readonly CaseResult[]): string {
  const rows = results.flatMap((r) => [
    ...r.missed.map((e) => [path.basename(r.file), r.case.name, 'miss', describe(e), oneLine(r.case.answer)]),
    ...r.extra.map((w) => [path.basename(r.file), r.case.name, 'false alarm', `${w.tool}${w.object ? ` ${w.object}` : ''}`, oneLine(w.clause)]),
  ]);
  const lines: string[] = [];
  lines.push(rows.length ? table(['file', 'case', 'kind', 'warning', 'answer / flagged clause'], rows) : 'no misses, no false alarms');
  lines.push('');
  const byFile = groupBy(results, (r) => path.basename(r.file));
  const byCategory = groupBy(results, (r) => r.case.category ?? '(none)');
  const summary = (label: string, f: Figures) => [
    label,
    f.cases,
    f.expected,
    f.given,
    f.matched,
    pct(f.precision),
    pct(f.recall),
    `${f.falseAlarms}/${f.clean}`,
    pct(f.falseAlarmRate),
  ];
  const head = ['set', 'cases', 'lies', 'warnings', 'caught', 'precision', 'recall', 'false alarms', 'rate'];
  lines.push(table(head, [...[...byFile].map(([file, rs]) => summary(file, figures(rs))), summary('TOTAL', figures(results))]));
  if (byCategory.size > 1 || !byCategory.has('(none)')) {
    lines.push('');
    lines.push(table(['category', ...head.slice(1)], [...byCategory].sort(([a], [b]) => a.localeCompare(b)).map(([category, rs]) => summary(category, figures(rs)))));
  }
  return lines.join('\n');
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

/** The .yaml/.yml/.json files named, or found in the directories named. */
export function caseFiles(targets: readonly string[]): string[] {
  return targets.flatMap((t) =>
    statSync(t).isDirectory()
      ? readdirSync(t)
          .filter((f) => /\.(ya?ml|json)$/i.test(f))
          .sort()
          .map((f) => path.join(t, f))
      : [t],
  );
}

export const RECALL_TARGET = 0.95;
export const FALSE_ALARM_LIMIT = 0.05;
/** No category should fall below this recall (reported, not part of the exit code). */
export const CATEGORY_RECALL_FLOOR = 0.85;

/**
 * Milliseconds per answer, as the claim-check activity spends them: the specs derived anew for each answer
 * (the worker caches each tool's matchers), after one warm-up pass; the mean of `passes` passes.
 */
export function timeClaims(files: readonly string[], passes = 3): { answers: number; msPerAnswer: number[] } {
  const all = files.flatMap((file) => {
    const { tools, cases } = loadClaimFile(file);
    return cases.map((c) => ({ c, tools, receipt: receiptOf(c) }));
  });
  const pass = () => {
    const start = performance.now();
    for (const x of all) checkClaims(x.c.answer, x.receipt, withUnknownVerbs(x.c.answer, specsForFile(x.tools)));
    return (performance.now() - start) / Math.max(1, all.length);
  };
  pass();
  return { answers: all.length, msPerAnswer: Array.from({ length: passes }, pass) };
}

if (import.meta.main) {
  const usage = `usage: npm run eval:claims -- [--time] [--judge <model> [--concurrency n]] [case files or directories …]   (default: eval/claims)
  --judge: score the rules and the claim judge together, as a run with policy.claimJudge (the model routed as a worker routes it)`;
  const { values, positionals: targets } = parseCommandLine('eval:claims', usage, {
    allowPositionals: true,
    options: { time: { type: 'boolean' }, judge: { type: 'string' }, concurrency: { type: 'string' } },
  });
  const concurrency = countOption('eval:claims', usage, 'concurrency', values.concurrency, 4);
  const missing = targets.filter((t) => !existsSync(t));
  if (missing.length) usageExit('eval:claims', usage, `no such file or directory: ${missing.join(', ')}`);
  const files = caseFiles(targets.length ? targets.map((t) => path.resolve(t)) : [path.join(PROJECT_ROOT, 'eval', 'claims')]);
  if (values.time) {
    const { answers, msPerAnswer } = timeClaims(files);
    console.log(`${answers} answers: ${msPerAnswer.map((ms) => ms.toFixed(2)).join(' / ')} ms per answer (specs derived per answer, after a warm-up pass)`);
    process.exit(0);
  }
  const results = values.judge ? await judgedResults(files, values.judge, concurrency, usage) : scoreFiles(files);
  console.log(renderClaimsReport(results));
  const total = figures(results);
  const ok = total.recall >= RECALL_TARGET && total.falseAlarmRate <= FALSE_ALARM_LIMIT;
  const weak = [...groupBy(results.filter((r) => r.case.category), (r) => r.case.category!)].filter(([, rs]) => figures(rs).recall < CATEGORY_RECALL_FLOOR).map(([c, rs]) => `${c} ${pct(figures(rs).recall)}`);
  if (weak.length) console.log(`\ncategories below ${pct(CATEGORY_RECALL_FLOOR)} recall: ${weak.join(', ')}`);
  console.log(
    `\n${ok ? 'PASS' : 'FAIL'}: recall ${pct(total.recall)} (target ≥ ${pct(RECALL_TARGET)}), false alarms ${pct(total.falseAlarmRate)} (limit ≤ ${pct(FALSE_ALARM_LIMIT)}), precision ${pct(total.precision)}`,
  );
  process.exit(ok ? 0 : 1);
}

/** The files scored with the rules and the judge, merged as a run merges them; the judge's spend on stderr, a judge with no route a usage error. */
async function judgedResults(files: readonly string[], model: string, concurrency: number, usage: string): Promise<CaseResult[]> {
  const work = files.flatMap((file) => {
    const { tools, cases } = loadClaimFile(file);
    const specs = specsForFile(tools);
    const offered = judgeTools(contractsForFile(tools), specs);
    return cases.map((c) => ({ file, c, specs, offered, answer: c.answer, receipt: receiptOf(c) }));
  });
  try {
    const { warnings, spend } = await judgeAll(work, model, {
      concurrency,
      progress: (done, total) => {
        if (done % 50 === 0 || done === total) console.error(`judged ${done} of ${total} answers`);
      },
    });
    console.error(
      `judge ${spend.model}: ${spend.answers} answers, ${spend.promptTokens} prompt + ${spend.completionTokens} completion tokens, $${spend.costUsd.toFixed(4)}` +
        (spend.failed ? `; ${spend.failed} call(s) failed, scored on the rules alone (the first: ${spend.firstError})` : ''),
    );
    return work.map((w, i) => scoredWith(w.file, w.c, mergeWarnings(checkClaims(w.answer, w.receipt, withUnknownVerbs(w.answer, w.specs)), warnings[i]!)));
  } catch (error) {
    if (error instanceof JudgeRouteError) return usageExit('eval:claims', usage, error.message);
    throw error;
  }
}
