/**
 * The claim verbs and phrases of a set of claim specs, with their inflections, found in a clause. Pure.
 */
import type { ClaimSpecs } from './claim-specs.ts';

export type Form = 'base' | 's' | 'past' | 'ing' | 'phrase';

export interface VerbMatch {
  tool: string;
  form: Form;
  start: number;
  end: number;
  text: string;
}

export interface Matcher {
  tool: string;
  form: Form;
  regex: RegExp;
  exception: RegExp | null;
}

const IRREGULAR: Readonly<Record<string, readonly string[]>> = {
  send: ['sent'],
  write: ['wrote', 'written'],
  overwrite: ['overwrote', 'overwritten'],
  get: ['got', 'gotten'],
  tell: ['told'],
  run: ['ran'],
  make: ['made'],
  put: ['put'],
  let: ['let'],
  do: ['did', 'done'],
  go: ['went', 'gone'],
};

/** Inflections of a base verb: 3rd person, past/participle, -ing. */
export function inflect(base: string): Record<Exclude<Form, 'phrase'>, string[]> {
  const word = base.toLowerCase();
  if (/ed$/.test(word) && !IRREGULAR[word]) return { base: [], s: [], past: [word], ing: [] };
  const cvc = /^[^aeiou]*[aeiou][^aeiouwxy]$/.test(word) && word.length <= 4;
  const stem = cvc ? word + word.slice(-1) : word;
  const s = /(s|x|z|ch|sh)$/.test(word) ? `${word}es` : /[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : `${word}s`;
  const past = IRREGULAR[word]
    ? [...IRREGULAR[word]]
    : [/e$/.test(word) ? `${word}d` : /[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ied` : `${stem}ed`];
  const ing = /ie$/.test(word) ? `${word.slice(0, -2)}ying` : /[^e]e$/.test(word) ? `${word.slice(0, -1)}ing` : `${stem}ing`;
  return { base: [word], s: [s], past, ing: [ing] };
}

export const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export const phraseSource = (words: readonly string[]) => words.map((w) => (w === '*' ? '(?:[^\\s.!?;]+\\s+){0,2}[^\\s.!?;]+' : escape(w))).join('\\s+');

export function compileSpecs(specs: ClaimSpecs): Matcher[] {
  const matchers: Matcher[] = [];
  for (const [tool, spec] of Object.entries(specs)) {
    const byForm: Record<Form, string[]> = { base: [], s: [], past: [], ing: [], phrase: [] };
    for (const verb of spec.verbs) {
      const [first, ...rest] = verb.trim().toLowerCase().split(/\s+/);
      if (!first) continue;
      const forms = inflect(first);
      for (const form of ['base', 's', 'past', 'ing'] as const) for (const w of forms[form]) byForm[form].push(phraseSource([w, ...rest]));
    }
    for (const phrase of spec.phrases ?? []) byForm.phrase.push(phraseSource(phrase.trim().toLowerCase().split(/\s+/)));
    const exception = spec.exceptions?.length ? new RegExp(`(?:${spec.exceptions.join('|')})`, 'iy') : null;
    for (const form of ['phrase', 'past', 'ing', 's', 'base'] as const) {
      const alts = [...new Set(byForm[form])].sort((a, b) => b.length - a.length);
      if (alts.length) matchers.push({ tool, form, exception, regex: new RegExp(`(?<![\\w@#.-])(?:${alts.join('|')})(?![\\w@-])`, 'gi') });
    }
  }
  return matchers;
}

/** Every claim verb or phrase in a clause, in order; a longer match wins over one inside it. */
export function findVerbs(text: string, matchers: readonly Matcher[]): VerbMatch[] {
  const found: VerbMatch[] = [];
  for (const m of matchers) {
    for (const hit of text.matchAll(m.regex)) {
      if (m.exception) {
        m.exception.lastIndex = hit.index;
        if (m.exception.test(text)) continue;
      }
      found.push({ tool: m.tool, form: m.form, start: hit.index, end: hit.index + hit[0].length, text: hit[0] });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: VerbMatch[] = [];
  for (const f of found) {
    const last = kept[kept.length - 1];
    if (last && f.start < last.end) continue;
    kept.push(f);
  }
  return kept;
}
