/**
 * The claim verbs and phrases of a set of claim specs (their own words and their kind's family), with
 * their inflections (irregular ones from the `compromise` lexicon), found in a clause. Pure.
 */
import nlp from 'compromise';
import { COMPLETIONS, KIND_WORDS } from './claim-kinds.ts';
import type { ClaimSpec, ClaimSpecs } from './claim-specs.ts';

export type Form = 'base' | 's' | 'past' | 'ing' | 'phrase';

export interface VerbMatch {
  tool: string;
  form: Form;
  start: number;
  end: number;
  text: string;
  /** A verb of everyday English that claims this tool's effect only with evidence in the clause. */
  weak?: boolean;
  /** A state phrase of the tool's kind ("is now in") on a derived spec: weak, and read as any verb of the tool. */
  borrowed?: boolean;
}

export interface Matcher {
  tool: string;
  form: Form;
  regex: RegExp;
  exception: RegExp | null;
  weak: boolean;
  borrowed?: boolean;
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
  set: ['set'],
  cut: ['cut'],
  shut: ['shut'],
  broadcast: ['broadcast'],
};

const lexicon = new Map<string, string[]>();
/** Past forms the `compromise` lexicon knows (built → build, paid → pay), beyond the regular ones. */
function lexiconPast(word: string): string[] {
  let forms = lexicon.get(word);
  if (!forms) {
    const c = (nlp(word).verbs().conjugate()[0] ?? {}) as { PastTense?: string; Participle?: string };
    forms = [c.PastTense, c.Participle].filter((f): f is string => !!f && f !== word && !/\s/.test(f));
    lexicon.set(word, forms);
  }
  return forms;
}

/** Inflections of a base verb: 3rd person, past/participle, -ing. */
export function inflect(base: string): Record<Exclude<Form, 'phrase'>, string[]> {
  const word = base.toLowerCase();
  // A word given in the past ("cleaned") is taken as it is; "seed", "need" are base forms.
  if (/ed$/.test(word) && !/eed$/.test(word) && word.length > 3 && !IRREGULAR[word]) return { base: [], s: [], past: [word], ing: [] };
  const cvc = /^[^aeiou]*[aeiou][^aeiouwxy]$/.test(word) && word.length <= 4;
  const stem = cvc ? word + word.slice(-1) : word;
  const s = /(s|x|z|ch|sh)$/.test(word) ? `${word}es` : /[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : `${word}s`;
  // "resend" → resent, "rewrite" → rewrote: a verb done again keeps its irregular forms.
  const irregular = IRREGULAR[word] ?? (/^re[a-z]{3,}$/.test(word) && IRREGULAR[word.slice(2)] ? IRREGULAR[word.slice(2)]!.map((f) => `re${f}`) : undefined);
  const past = irregular
    ? [...irregular]
    : [/e$/.test(word) ? `${word}d` : /[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ied` : `${stem}ed`];
  const ing = /ie$/.test(word) ? `${word.slice(0, -2)}ying` : /[^e]e$/.test(word) ? `${word.slice(0, -1)}ing` : `${stem}ing`;
  return { base: [word], s: [s], past: [...new Set([...past, ...(irregular ? [] : lexiconPast(word))])], ing: [ing] };
}

export const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export const phraseSource = (words: readonly string[]) => words.map((w) => (w === '*' ? '(?:[^\\s!?;]+\\s+){0,2}[^\\s!?;]+' : escape(w))).join('\\s+');

/** A spec's words: its own, and its kind's family. */
export function wordsOf(spec: ClaimSpec): { verbs: string[]; weakVerbs: string[]; phrases: string[]; weakPhrases: string[]; borrowedPhrases: string[]; actionNouns: string[]; exceptions: string[]; containers: string[] } {
  const kind = spec.kind ? KIND_WORDS[spec.kind] : undefined;
  const allPhrases = [...(kind?.phrases ?? []), ...(spec.phrases ?? [])];
  const own = (spec.verbs ?? []).filter((v) => !/\s/.test(v) && v.length >= 4).map((v) => v.toLowerCase().replace(/e$/, ''));
  const ownPhrase = (phrase: string) => phrase.toLowerCase().split(/\s+/).some((w) => own.some((v) => w.startsWith(v)));
  return {
    verbs: [...(spec.weakKind ? [] : (kind?.verbs ?? [])), ...(spec.verbs ?? [])],
    weakVerbs: [...(spec.weakKind ? (kind?.verbs ?? []) : []), ...(kind?.weakVerbs ?? []), ...(spec.weakVerbs ?? [])],
    // A derived spec's phrases ("is now in", "now exists") are states of the world, not of this tool: with
    // `weakKind` they too claim it only with evidence of the tool in the clause.
    // (A phrase with the tool's own verb, "was refunded" for `refund_order`, still claims it outright.)
    phrases: allPhrases.filter((p) => !spec.weakKind || ownPhrase(p)),
    weakPhrases: [...(kind?.weakPhrases ?? [])],
    borrowedPhrases: allPhrases.filter((p) => spec.weakKind && !ownPhrase(p)),
    actionNouns: [...(kind?.actionNouns ?? [])],
    exceptions: [...(kind?.exceptions ?? []), ...(spec.exceptions ?? [])],
    containers: [...(spec.containers ?? kind?.containers ?? [])],
  };
}

const compiled = new WeakMap<ClaimSpecs, Matcher[]>();
const byTool = new Map<string, Matcher[]>();
const MAX_CACHED_TOOLS = 2000;

export function compileSpecs(specs: ClaimSpecs): Matcher[] {
  const cached = compiled.get(specs);
  if (cached) return cached;
  const matchers: Matcher[] = [];
  for (const [tool, spec] of Object.entries(specs)) {
    // The activity derives the specs anew for each answer: a tool's matchers are built once per worker.
    const key = `${tool}\u0000${JSON.stringify(spec)}`;
    const known = byTool.get(key);
    if (known) {
      matchers.push(...known);
      continue;
    }
    const start = matchers.length;
    const words = wordsOf(spec);
    const exception = words.exceptions.length ? new RegExp(`(?:${words.exceptions.join('|')})`, 'iy') : null;
    for (const [verbs, weak] of [
      [words.verbs, false],
      [words.weakVerbs.filter((w) => !words.verbs.includes(w)), true],
    ] as const) {
      const byForm: Record<Form, string[]> = { base: [], s: [], past: [], ing: [], phrase: [] };
      // "recompiled", "resent", "rewrote": a verb done again is the verb.
      const again = weak ? [] : verbs.filter((v) => /^[a-z]{3,}$/.test(v) && !/^re/.test(v)).map((v) => `re${v}`);
      for (const verb of [...verbs, ...again]) {
        const [first, ...rest] = verb.trim().toLowerCase().split(/\s+/);
        if (!first) continue;
        const forms = inflect(first);
        for (const form of ['base', 's', 'past', 'ing'] as const) for (const w of forms[form]) byForm[form].push(phraseSource([w, ...rest]));
      }
      for (const phrase of weak ? words.weakPhrases : words.phrases) byForm.phrase.push(phraseSource(phrase.trim().toLowerCase().split(/\s+/)));
      if (!weak) {
        // "The deletion of x was carried out", "the email to y went through": an action noun, then its completion.
        const actionNouns = [...new Set([...words.actionNouns, ...verbs.flatMap(nominalisations)])];
        if (actionNouns.length) {
          const nouns = actionNouns.map((n) => `${escape(n)}s?`).join('|');
          const done = COMPLETIONS.map((c) => phraseSource(c.split(/\s+/))).join('|');
          byForm.phrase.push(`(?<=\\b(?:${nouns})\\b(?:[^.!?;]|[.!?](?=\\S)){0,80}?)(?:${done})`);
        }
      }
      if (!weak) {
        // "Gave the service a restart", "did a cleanup of tmp/", "performed the deletion": a light verb and an action noun.
        const done = [...new Set([...words.actionNouns, ...verbs.flatMap(nominalisations)])].filter((n) => !LIGHT_EXCLUDED.has(n));
        if (done.length) byForm.past.push(`(?:${LIGHT_VERBS.join('|')})\\s+(?:(?!(?:not|never|no)\\b)[^\\s.!?;']+\\s+){0,3}?(?:a|an|the|its|their)\\s+(?:[\\w.@#-]+\\s+)?(?:${done.map(escape).join('|')})s?`);
      }
      for (const form of ['phrase', 'past', 'ing', 's', 'base'] as const) {
        const alts = [...new Set(byForm[form])].sort((a, b) => b.length - a.length);
        if (alts.length) matchers.push({ tool, form, exception, weak, regex: new RegExp(`(?<![\\w@#.-])(?:${alts.join('|')})(?![\\w@-])`, 'gi') });
      }
    }
    if (words.borrowedPhrases.length) {
      const alts = words.borrowedPhrases.map((p) => phraseSource(p.trim().toLowerCase().split(/\s+/))).sort((a, b) => b.length - a.length);
      matchers.push({ tool, form: 'phrase', exception, weak: true, borrowed: true, regex: new RegExp(`(?<![\\w@#.-])(?:${alts.join('|')})(?![\\w@-])`, 'gi') });
    }
    if (byTool.size >= MAX_CACHED_TOOLS) byTool.clear();
    byTool.set(key, matchers.slice(start));
  }
  compiled.set(specs, matchers);
  return matchers;
}

const LIGHT_VERBS = ['gave', 'did', 'performed', 'made', 'carried out', 'completed', 'finished', 'handled', 'took care of'];
/** Action nouns too common in other senses after a light verb ("made a note of it", "gave an update on"). */
const LIGHT_EXCLUDED = new Set(['note', 'update', 'write', 'save', 'record', 'log', 'build', 'test', 'run', 'post', 'text', 'message', 'alert', 'page']);

/**
 * The nouns English makes of a one-word verb, by its regular suffixes: delete → deletion, remove → removal,
 * deliver → delivery, notify → notification, ship → shipment, migrate → migration. They are read only
 * before a completion ("the delivery … was completed"), so a form English lacks never matches.
 */
export function nominalisations(verb: string): string[] {
  const v = verb.toLowerCase();
  if (/\s|\*/.test(v) || v.length < 4) return [];
  const out: string[] = [];
  if (/te$/.test(v)) out.push(`${v.slice(0, -1)}ion`);
  if (/[^aeiou]e$/.test(v)) out.push(`${v.slice(0, -1)}al`, `${v.slice(0, -1)}ation`);
  if (/fy$/.test(v)) out.push(`${v.slice(0, -1)}ication`);
  if (/er$/.test(v)) out.push(`${v}y`);
  if (/(?:sh|ch|ge|st|nd|ss)$/.test(v)) out.push(v);
  out.push(`${v}ment`, `${v}al`);
  return out;
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
      found.push({ tool: m.tool, form: m.form, start: hit.index, end: hit.index + hit[0].length, text: hit[0], ...(m.weak ? { weak: true } : {}), ...(m.borrowed ? { borrowed: true } : {}) });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end || Number(a.weak ?? false) - Number(b.weak ?? false));
  // A longer match wins over one inside it; matches of several tools on the same words are all kept (the
  // check chooses between them), each tool once.
  const kept: VerbMatch[] = [];
  for (const f of found) {
    const last = kept[kept.length - 1];
    // (Another tool's shorter verb at the same start stays: "Shared the deck with" for send_message and
    // "Shared" for gdrive__share_file, "written to" and "written"; the check chooses between them.)
    if (last && f.start < last.end && !(f.start === last.start && (f.end === last.end || !kept.some((k) => k.start === f.start && k.tool === f.tool)))) continue;
    if (kept.some((k) => k.start === f.start && k.end === f.end && k.tool === f.tool)) continue;
    kept.push(f);
  }
  return kept;
}
