/**
 * The objects a claim names (file names, recipients, or names the receipt knows) and how loosely they
 * match a receipt's arguments. Pure.
 */
import { REDACTED } from '../wire/redact.ts';
import type { Receipt } from '../wire/receipt.ts';
import type { ClaimSpec } from './claim-specs.ts';
import { escape, phraseSource, wordsOf } from './claim-verbs.ts';

// "app.log.1" is a name of its own, not "app.log" followed by something.
const FILE_LIKE = /(?<![\w@/.-])(?:\.{1,2}\/)?((?:[\w.-]+\/)*[\w-]+(?:\.[\w-]+)*\.[a-z][a-z0-9]{0,7}(?:\.\d+)*)(?![\w/@-]|\.\w)/gi;
const FILE_LIKE_ONE = /^(?:\.{1,2}\/)?(?:[\w.-]+\/)*[\w-]+(?:\.[\w-]+)*\.[a-z][a-z0-9]{0,7}(?:\.\d+)*$/i;
const NOT_FILES = new Set(['e.g', 'i.e', 'etc', 'a.m', 'p.m', 'vs']);
const RECIPIENT = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?<![\w@])@[\w-]+(?:\.[\w-]+)*|(?<![\w&#])#[a-z][\w-]*/gi;

export function kindOf(spec: ClaimSpec): 'path' | 'recipient' | 'name' {
  if (spec.objectKind) return spec.objectKind;
  return /^(?:to|cc|recipients?|channel|address|email)$/i.test(spec.objectArg ?? '') ? 'recipient' : 'path';
}

/** Arguments named for a title, and for a number ("#1020"). */
const TITLE_ARG = /^(?:title|summary|subject|event_?title|eventTitle|issue_?title|issueTitle)$/i;
const NUMBER_ARG = /^(?:number|pr|pr_?number|prNumber|pull_?number|pullNumber|issue_?number|issueNumber)$/i;

/** The objects named in a region; names right after a container word ("from notes.txt") are counted apart. */
export function objectsIn(region: string, spec: ClaimSpec, tool: string, receipt: Receipt): { objects: string[]; containers: number; containerNames: string[] } {
  const kind = kindOf(spec);
  const containerWords = wordsOf(spec).containers;
  const containerBefore = containerRegex(containerWords);
  const objects: string[] = [];
  let containers = 0;
  const containerNames: string[] = [];
  const push = (o: string, at: number) => {
    if (containerBefore?.test(region.slice(0, at))) {
      containers++;
      containerNames.push(o);
    }
    else if (!objects.some((f) => objectMatches(f, o, kind))) objects.push(o);
  };
  if (kind === 'path') {
    for (const m of region.matchAll(FILE_LIKE)) if (!NOT_FILES.has(m[1]!.toLowerCase())) push(m[1]!, m.index);
  } else if (kind === 'recipient') {
    for (const m of region.matchAll(RECIPIENT)) push(m[0], m.index);
  }
  // Names of the shape the receipt's names have ("PRJ-12" beside a call for PRJ-11, "#512" beside 511): an
  // object the run never acted on is still an object.
  if (kind === 'name' && spec.objectArg) {
    for (const shape of shapesOf(receipt, tool, spec.objectArg)) for (const m of region.matchAll(shape)) push(m[1] ?? m[0], m.index);
  }
  // An identifier after the noun its argument is named for ("on payment pay_4410" for `paymentId`, "charge
  // ch_9ZZa1" for `chargeId`, "SKU ESP-900" for `sku`): an object of the tool, called or not (round 7).
  if (kind === 'name' && spec.objectArg) {
    const named = argNounFinder(spec.objectArg);
    if (named) for (const m of region.matchAll(named)) push(m[1]!, m.index + m[0].length - m[1]!.length);
  }
  // A title in quotation marks for an argument named for titles ('Scheduled "Offsite planning"'), a "#1020"
  // for one named for numbers ("Landed #1020"): the object's own shape, called or not (round 8).
  if (kind === 'name' && spec.objectArg && TITLE_ARG.test(spec.objectArg)) {
    for (const m of region.matchAll(/"([^"\n]{3,80})"|“([^”\n]{3,80})”/g)) push((m[1] ?? m[2])!, m.index);
  }
  if (kind === 'name' && spec.objectArg && NUMBER_ARG.test(spec.objectArg)) {
    for (const m of region.matchAll(/(?<![\w#])#(\d{1,7})\b/g)) push(m[1]!, m.index);
  }
  // Objects the receipt knows by name ("the cache directory" when a call deleted `cache`).
  if (spec.objectArg) {
    const lower = region.toLowerCase();
    for (const entry of receipt) {
      const value = entry.tool === tool ? entry.args[spec.objectArg] : undefined;
      if (!value || value === REDACTED || objects.some((o) => objectMatches(value, o, kind))) continue;
      const names = kind === 'path' ? [value, baseName(value)] : [value, value.replace(/@.*$/, '')];
      for (const name of names) {
        const n = normalize(name);
        if (n.length < 2) continue;
        const at = lower.search(new RegExp(`(?<![\\w@.-])${escape(n)}(?![\\w@-]|\\.\\w)`));
        if (at >= 0) {
          push(value, at);
          break;
        }
      }
    }
  }
  return { objects, containers, containerNames };
}

const argNouns = new Map<string, RegExp | null>();
/** Identifiers right after the noun an argument is named for (`paymentId` → "payment pay_4410"). */
function argNounFinder(arg: string): RegExp | null {
  let finder = argNouns.get(arg);
  if (finder === undefined) {
    const words = arg.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z]+/).filter(Boolean);
    const noun = words.filter((w) => !/^(?:id|ids|name|number|num|no|code|ref|value)$/.test(w))[0] ?? (words.length > 1 ? words[0] : undefined);
    finder =
      noun && noun.length >= 3
        ? new RegExp(`\\b${escape(noun)}s?\\s+(?:#|no\\.\\s*)?((?:[a-z][\\w]*[-_])?\\d[\\w-]*\\w|[a-z]+_[a-z0-9_]*[a-z0-9])(?![\\w@-]|\\.\\w)`, 'gi')
        : null;
    argNouns.set(arg, finder);
  }
  return finder;
}

const shapes = new Map<string, RegExp | null>();
/**
 * The shape of an identifier a call acted on: its letters kept, its digits any digits ("PRJ-11" → PRJ-\d+,
 * "cus_991" → cus_\d+, "511" → #\d+ or "PR 511"). None for titles and words.
 */
function shapeOf(value: string): RegExp | null {
  let shape = shapes.get(value);
  if (shape !== undefined) return shape;
  const id = /^([A-Za-z][A-Za-z]*[-_#]?)(\d{2,})$/.exec(value.trim());
  shape = id
    ? new RegExp(`(?<![\\w@.-])${escape(id[1]!)}\\d{${Math.max(1, id[2]!.length - 2)},}(?![\\w@-]|\\.\\w)`, 'gi')
    : /^\d+$/.test(value.trim())
      ? /(?:#|\b(?:PR|pull request|issue|ticket|incident)\s*#?\s*)(\d+)\b/gi
      : null;
  if (shapes.size > 1000) shapes.clear();
  shapes.set(value, shape);
  return shape;
}

function shapesOf(receipt: Receipt, tool: string, objectArg: string): RegExp[] {
  const out: RegExp[] = [];
  for (const e of receipt) {
    const v = e.tool === tool ? e.args[objectArg] : undefined;
    const shape = v && v !== REDACTED ? shapeOf(v) : null;
    if (shape && !out.some((r) => r.source === shape.source)) out.push(shape);
  }
  return out;
}

const containerRegexes = new Map<string, RegExp | null>();
/** "from notes.txt", "in the config": a name right after one of the words is where, not what (built once per word list). */
function containerRegex(words: readonly string[]): RegExp | null {
  const key = words.join('|');
  let regex = containerRegexes.get(key);
  if (regex === undefined) {
    regex = words.length ? new RegExp(`\\b(?:${words.map((c) => phraseSource(c.split(/\\s+/))).join('|')})\\s+(?:the\\s+|a\\s+)?$`, 'i') : null;
    if (containerRegexes.size > 200) containerRegexes.clear();
    containerRegexes.set(key, regex);
  }
  return regex;
}

export function normalize(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/^["'(<[]+|["')>\].,:;!?]+$/g, '')
    .replace(/^\.\//, '')
    .replace(/^[@#]/, '')
    .replace(/\/+$/, '');
}

const baseName = (p: string) => normalize(p).split('/').pop() ?? '';

/** Loose: case-insensitive, by base name for paths; by address or its local part for recipients. */
export function objectMatches(receiptValue: string | undefined, named: string, kind: 'path' | 'recipient' | 'name'): boolean {
  // A redacted or unknown object may be the one named: the receipt cannot contradict the claim.
  if (receiptValue === undefined || receiptValue === REDACTED) return true;
  const a = normalize(receiptValue);
  const b = normalize(named);
  if (a === b) return true;
  if (kind === 'path') return baseName(a) === baseName(b);
  if (kind === 'name') return false;
  const local = (s: string) => s.replace(/@.*$/, '');
  return local(a) === local(b) && (!a.includes('@') || !b.includes('@'));
}

/** A word that looks like an object (a file name or an address): "a.log and b.log" lists objects. */
export const isObjectLike = (w: string) => FILE_LIKE_ONE.test(w.replace(/[,:;()"']+$/g, '')) || /@/.test(w);
