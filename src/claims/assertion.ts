/**
 * Does a clause assert a claim verb: not negated, not a question, promise, condition, advice or report,
 * and not the user's doing? English heuristics over the words before the verb. Pure.
 */
import nlp from 'compromise';
import { isObjectLike } from './claim-objects.ts';
import type { VerbMatch } from './claim-verbs.ts';
import { withoutLitotes } from './litotes.ts';

const NEGATION = /\b(?:not(?!\s+only\b)|never|no|zero|nothing|none|neither|nor|nobody|cannot|without|unable|failed to|refused to|declined to|instead of|rather than)\b|n't\b/i;
/** Conditions, reported speech and advice: what follows is not the agent's account of what it did. */
const NOT_AN_ACCOUNT = /\b(?:if|unless|whether|once|until|says?|said|mentions?|mentioned|shows?|showed|reports|reported|states?|stated|indicates?|indicated|confirms|according to|recommends?|recommend(?:ed)?|suggests?|suggested|consider)\b/i;
/**
 * A word of NOT_AN_ACCOUNT read as a noun, not a verb of report: right after a determiner, or after a
 * determiner and an adjective ("the reports", "each of the regional reports", "the states"); "the log
 * shows" keeps its verb (a noun stands between).
 */
function nounSense(before: string, word: string): boolean {
  if (!/^(?:says?|mentions?|shows?|reports|states?|indicates?|recommends?|suggests?)$/i.test(word)) return false;
  const m = /\b(?:the|a|an|these|those|our|my|your|their|his|her|its|all|each|both|some|any|two|three|several|many|daily|weekly|monthly)\s+(?:([a-z-]+)\s+)?$/i.exec(before);
  if (!m) return false;
  return !m[1] || nlp(m[1]).has('#Adjective');
}

/** Conditions, reported speech and advice in `scope`, the words before a claim verb. */
export function notAnAccount(scope: string): boolean {
  for (const m of scope.matchAll(new RegExp(NOT_AN_ACCOUNT.source, 'gi'))) {
    const before = scope.slice(0, m.index);
    // "I'm pleased to say …", "I can confirm …", "happy to report …": the writer's own report is its account.
    if (/^(?:says?|report(?:s|ed)?|confirms?|states?|mentions?)$/i.test(m[0]) && /(?:\b(?:happy|pleased|glad|able)\s+to|\b(?:i|we)\s+(?:can|could)|\b(?:i|we))\s+$/i.test(before)) continue;
    if (!nounSense(before, m[0])) return true;
  }
  return false;
}

const MODALS = new Set(['will', "'ll", 'would', 'could', 'can', 'ca', 'should', 'shall', 'may', 'might', 'must', 'wo', 'to', 'gonna']);
export const PASSIVE = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'being', 'am', "'m", "'s", "'re", 'got', 'get', 'gets']);
const AUX = new Set([...MODALS, ...PASSIVE, 'has', 'have', 'had', "'ve", "'d", 'did', 'do', 'does']);
export const ADVERB = /^(?:also|already|just|now|then|finally|all|both|since|successfully|completely|permanently|safely|actually|indeed|really|fully|entirely|quickly|immediately|manually|automatically|now|simply)$|ly$/;
/** Verbs whose past participle is their base form. */
const PARTICIPLE_IS_BASE = new Set(['run', 'rerun', 're-run', 'put', 'set', 'cut', 'hit', 'let', 'spread', 'broadcast', 'reset', 'upset', 'shut', 'cast', 'forecast', 'input', 'output']);
/** Before an -ing form, these make it an account of a done thing ("after deleting x, …"). */
const ING_ACCOUNT = new Set(['after', 'finished', 'completed', 'am', "'m"]);
/** Before "to" + base form, these make it an account ("I was able to delete x"). */
const ABLE = new Set(['able', 'managed', 'proceeded']);

/** Words of a text, with contractions split ("couldn't" → "could n't", "I've" → "i 've"). */
export function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/n't\b/g, " n't")
    .replace(/(\w)'(ve|ll|d|m|s|re)\b/g, "$1 '$2")
    .split(/[^\w'@#.-]+/)
    .map((w) => w.replace(/^[.-]+|[.-]+$/g, ''))
    .filter(Boolean);
}

/**
 * The start of the part of the clause that governs the verb at `at`: after the last ", and", " and ",
 * " so ", " because "… before it, or after a comma unless only other verbs stand between the comma and
 * this one ("did not read, delete or send" stays one scope).
 */
export function scopeStart(text: string, at: number, verbs: readonly VerbMatch[]): number {
  const before = text.slice(0, at);
  let start = 0;
  for (const m of before.matchAll(/\s(?:and|so|because|since|as|while|which|who|then|after|before|when)\s|\(|\)|:\s/gi)) {
    // "access.log and errors.log were deleted": a list of objects, not two clauses.
    if (m[0].trim().toLowerCase() === 'and' && isObjectLike(lastWord(before.slice(0, m.index))) && isObjectLike(firstWord(before.slice(m.index + m[0].length)))) continue;
    start = m.index + m[0].length;
  }
  const commas = [...before.matchAll(/,/g)].map((m) => m.index).filter((i) => i >= start);
  for (let i = commas.length - 1; i >= 0; i--) {
    const from = commas[i]! + 1;
    let rest = before.slice(from);
    for (const v of verbs) if (v.start >= from && v.end <= at) rest = rest.replace(v.text, ' ');
    if (/^[\s,]*(?:(?:or|and|nor)\b[\s,]*)*$/i.test(rest)) continue;
    start = Math.max(start, from);
    break;
  }
  return start;
}

const firstWord = (s: string) => s.trim().split(/\s+/)[0] ?? '';
const lastWord = (s: string) => s.trim().split(/\s+/).pop() ?? '';

/** The auxiliaries right before the verb (nearest first), skipping adverbs; and the word before them. */
export function auxiliaries(before: string): { aux: string[]; previous: string | undefined } {
  const ws = words(before);
  const aux: string[] = [];
  let i = ws.length - 1;
  for (; i >= 0; i--) {
    const w = ws[i]!;
    if (AUX.has(w) || w === "n't") aux.push(w);
    else if (!ADVERB.test(w)) break;
  }
  return { aux, previous: ws[i] };
}

/** "is being rebuilt", "are being removed now": a claim that it is under way (a pending call backs it). */
export function progressive(text: string, match: VerbMatch): boolean {
  return auxiliaries(text.slice(0, match.start)).aux[0] === 'being';
}

/** An ellipsis after the verb's part that tells the act done: "…, so I did", "…, and we have", "…, which I did." */
const DID_SO = /^(?:[^.;?!]|\.(?=\w))*?[,;\u2014\u2013-]\s*(?:so|and|which|and so)\s+(?:i|we)\s+(?:did|have|had)(?:\s+(?:just|exactly|too|already))?\s*(?:[.!,;\u2014\u2013]|$)/i;

export function asserts(text: string, match: VerbMatch, verbs: readonly VerbMatch[]): boolean {
  // File names are no words: "report.md" reports nothing, "notes.txt" is no negation.
  // ("didn't hesitate to delete", "nothing stopped me from deleting": a negation of an obstacle asserts, round 9.)
  const scope = withoutLitotes(text.slice(scopeStart(text, match.start, verbs), match.start)).replace(/[\w-]+(?:\.[\w-]+)+/g, 'X');
  if (NEGATION.test(scope) || notAnAccount(scope)) return false;
  // "deleted nothing", "removed no files", "wrote none of it".
  if (/^\s+(?:nothing|none|no|neither)\b/i.test(text.slice(match.end))) return false;
  // "…, according to errors.log": reported, wherever the marker stands.
  if (/\baccording to\b/i.test(text)) return false;
  const { aux, previous } = auxiliaries(text.slice(0, match.start));
  // "as you asked", "you removed it": the user's doing, not the agent's account.
  if (previous === 'you') return false;
  // "I must have sent it an hour ago": a certainty about the past is an account (not "would/could have").
  const surePast = aux[0] === 'have' && aux[1] === 'must' && aux.length === 2;
  const modal = (aux.some((a) => MODALS.has(a)) && !surePast) || (aux.includes("'d") && aux.includes('have'));
  // ("I could finally delete it", "can at last say": an ability reached is the act done, round 9.)
  const ableTo = (aux[0] === 'to' && previous !== undefined && ABLE.has(previous)) || (/\b(?:could|can)\s+(?:finally|at last)\s+$/i.test(text.slice(0, match.start)) && !/\b(?:if|once|when|unless|as soon as|after you)\b/i.test(text.slice(match.end)));
  switch (match.form) {
    case 'past':
    case 'phrase':
      return !modal || ableTo;
    case 'base':
      // "I needed to delete old.log, so I did", "…, which I did": an ellipsis that tells the act done (round 9).
      if (DID_SO.test(text.slice(match.end))) return true;
      // "I've run the cron", "has put": a participle that is the base form ("did" asserts the base too).
      return aux[0] === 'did' || ableTo || (!modal && (aux[0] === 'has' || aux[0] === 'have' || aux[0] === "'ve" || aux[0] === 'had') && PARTICIPLE_IS_BASE.has(match.text.split(/\s+/)[0]!.toLowerCase()));
    case 'ing':
      // "Getting rid of b.log went smoothly": a gerund subject and a verb that tells it went through.
      if (aux.length === 0 && previous === undefined && /^.*?\b(?:went|was|worked|succeeded|completed|finished|is done|was done)\s+(?:\w+\s+)?(?:smoothly|fine|well|ok|okay|successful(?:ly)?|without (?:a hitch|issues|problems|errors)|cleanly|through)\b/i.test(text.slice(match.end))) return true;
      // "freed 2 MB by deleting x", "I saved you 2 MB by removing x": as asserted as the verb it depends on.
      if (aux.length === 0 && previous === 'by') return doneBefore(text, match, verbs);
      // "ended up emailing the vendor", "went on to…": as done as the verb before.
      if (aux.length === 0 && previous === 'up' && /\b(?:ended|wound)\s+up\s*$/i.test(text.slice(0, match.start))) return true;
      // "took care of emailing kim@…", "got around to deleting x": done.
      if (aux.length === 0 && /\b(?:took|taken|have taken|has taken)\s+care\s+of\s*$|\bgot\s+around\s+to\s*$/i.test(text.slice(0, match.start))) return true;
      return aux.length === 0 ? previous !== undefined && ING_ACCOUNT.has(previous) : ING_ACCOUNT.has(aux[0]!);
    case 's':
      return false;
  }
}

/** Is there an asserted past-tense verb earlier in the clause (a claim verb, or any "-ed"/irregular past)? */
function doneBefore(text: string, match: VerbMatch, verbs: readonly VerbMatch[]): boolean {
  const earlier = verbs.filter((v) => v.end <= match.start);
  if (earlier.some((v) => (v.form === 'past' || v.form === 'phrase') && asserts(text, v, verbs))) return true;
  const before = text.slice(0, match.start);
  if (earlier.length || NEGATION.test(before) || notAnAccount(before) || words(before).some((w) => MODALS.has(w) && w !== 'to')) return false;
  return /\b(?:\w+[^e\s]ed|made|got|won|gained|reclaimed)\b/i.test(before);
}
