/**
 * Claims anchored on a call's object: a clause that names what a team or MCP tool's call acted on
 * ("EMP-3310", "tmp-uploads/", "Q3 planning", "#511") and tells it done or in a new state ("has been cut
 * off", "is in", "Kicked PROJ-77 over to QA") claims that call, whatever verb it uses. Read only for calls
 * the receipt does not show done, so only such a clause can be flagged. Pure.
 */
import nlp from 'compromise';
import { REDACTED } from '../wire/redact.ts';
import type { Receipt, ReceiptEntry } from '../wire/receipt.ts';
import { BUILTIN_CLAIM_SPECS, type ClaimSpecs } from './claim-specs.ts';
import { escape } from './claim-verbs.ts';
import { normalize } from './claim-objects.ts';
import { withoutReaderServed } from './frame-scope.ts';

export interface AnchoredClaim {
  tool: string;
  object: string;
  /** The words that tell it done. */
  verb: string;
}

/** Anything that makes the clause no account of the effect (also read by placement-claims.ts): a negation, a failure or a wait, a plan or offer, a condition, an attempt, a state that did not change. */
export const NOT_DONE =
  /\b(?:not|never|no|nothing|none|neither|nor|cannot|without|unable|instead(?!\s+of\s+(?:the\s+|a\s+|an\s+)?(?:\d|\$|£|€|(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|january|february|march|april|may|june|july|august|september|october|november|december|noon|midnight|usual|previous|old|original|earlier|current|last)\b))|rather|fail(?:s|ed|ing|ure)?|error(?:s|ed)?|denied|rejected|declined|refused|blocked|cancell?ed|interrupted|pending|waiting|await(?:s|ing)?|approval|approve|timed out|will|would|could|can|should|shall|may|might|must|needs? to|needed to|going to|gonna|want(?:s|ed)?|plan(?:s|ned)?|ready to|about to|if|unless|whether|once|try|tried|attempt(?:s|ed)?|asked|request(?:s|ed)?|queued|propos(?:e|ed|al)|suggest(?:s|ed)?|recommend(?:s|ed)?|still|remains?|remained|stays?|stayed|yet|unchanged|untouched|already|previously|earlier|before|last (?:week|month|year)|expired|bounced|exit(?:ed)? with (?:code|status) [1-9])\b|n't\b|\?|[\u274c\u2717\u2718\u26a0\u23f3]/i;
/** What someone or something else tells ("the log shows PROJ-77 moved", "per the changelog"). */
const TOLD = /\b(?:says?|said|shows?|showed|reports?|reported|according|per)\b/i;
/** Verbs that read or look, and so tell nothing of an effect ("I checked PROJ-77", "looked up EMP-3310"). */
const LOOKED =
  /\b(?:check(?:ed)?|look(?:ed)?|read|found|saw|seen|notic(?:e|ed)|verif(?:y|ied)|confirm(?:ed)?|quer(?:y|ied)|review(?:ed)?|inspect(?:ed)?|list(?:ed)?|fetch(?:ed)?|view(?:ed)?|investigat(?:e|ed)|examin(?:e|ed)|compar(?:e|ed)|search(?:ed)?|pull(?:ed)? up|mention(?:ed)?|creat(?:e|ed)|opened|filed|raised|reported|assigned|placed|submitted|received|ordered|purchased|bought|registered|belongs?|owned|related|linked|referenced|affected|caused|broke|started|began)\b/i;
/** A state the effect leaves, told without a past verb: "#511 is in", "PROJ-77 is now in QA", "is off", "is live". */
const STATE = /\b(?:is|are|'s)\s+(?:now\s+)?(?:in|on|off|out|up|live|done|through|over|gone|closed|complete|sorted|handled|taken care of|yours|ours|theirs|his|hers)\b|\bnow\b|\bback\b|\ball set\b|\bdone\b|\btaken care of\b/i;
/** Verbs whose past form is their base form, read as past at the head of a headline ("Put the session on the calendar"). */
const BASE_PAST = /^(?:put|set|cut|shut|let|hit|reset|moved?)\b/i;
/** Segment boundaries: a part of a sentence with a subject and a verb of its own. */
const SEGMENTS = /\s*[,;:]\s*(?:and|but|so|then|which|while)?\s*|\s+(?:and then|but|so|so that|because|since|while|although|though|whereas|and)\s+/i;

const builtins = new Set(Object.keys(BUILTIN_CLAIM_SPECS));
/** Arguments that name the state a call leaves ("status": "Won't Do"). */
const STATE_ARGS = /^(?:status|state|stage|column|lane|role|mode|permission|access|level|priority|label|to_?status|new_?status|target_?state)$/i;
/** Arguments that say how, when or how much, not what the call acts on. */
const NOT_NAMES = /^(?:amount\w*|text|body|content|message|reason|note|description|subject|start|end|time|date|until|minutes|hours|duration|count|replicas|value|quantity|enabled|dry_?run|force|method|type|mode|namespace|\w*(?:time|date|day|at))$/i;

/** Looks like an identifier or a title, not an everyday word: it has a digit, a mark, or several words. */
function identifierLike(value: string): boolean {
  const v = value.trim();
  if (v.length < 3 || v.length > 60 || /^\d{4}-\d{2}-\d{2}/.test(v)) return false;
  return /\d|[-_/.@#:]/.test(v) || /^\S+(?:\s+\S+){1,4}$/.test(v);
}

const finders = new Map<string, RegExp | null>();
/** Where the clause names `value`: exactly, or `#511`/"PR 511" for a number. */
function find(text: string, value: string): number {
  let finder = finders.get(value);
  if (finder === undefined) {
    const v = normalize(value);
    // (A proper name, "Orion", only as written; "new-checkout" also as "new checkout".)
    const proper = /^[A-Z][a-z]{2,}$/.test(value.trim());
    finder = v
      ? new RegExp(
          /^\d+$/.test(v) ? `(?:#|\\b(?:pr|pull request|issue|ticket|order|invoice|incident|number|no\\.)\\s*#?\\s*)${v}\\b` : `(?<![\\w@.-])${escape(proper ? value.trim() : v).replace(/-/g, '[-\\s]')}(?![\\w@-]|\\.\\w)`,
          proper ? '' : 'i',
        )
      : null;
    if (finders.size > 1000) finders.clear();
    finders.set(value, finder);
  }
  return finder ? text.search(finder) : -1;
}

/** The part of the clause around `at`, between boundaries of its own subject and verb. */
function segmentAt(text: string, at: number): { segment: string; offset: number } {
  let start = 0;
  for (const m of text.matchAll(new RegExp(SEGMENTS.source, 'gi'))) {
    if (m.index + m[0].length <= at) start = m.index + m[0].length;
    else if (m.index > at) return { segment: text.slice(start, m.index), offset: start };
  }
  return { segment: text.slice(start), offset: start };
}

/** The words that tell the segment's object done or changed: a past verb or participle, or a state. */
function completion(segment: string): { text: string; past?: boolean } | undefined {
  const state = STATE.exec(segment);
  if (state) return { text: state[0] };
  if (BASE_PAST.test(segment.trim())) return { text: segment.trim().split(/\s+/)[0]! };
  // "has been cut off", "was put on hold": a perfect or passive, whatever its participle.
  // (…not an adjective: "#eng has been quiet".)
  const perfect = /\b(?:been|got|gotten)\s+(?:[a-z]+ly\s+)?([a-z]{3,})\b/i.exec(segment);
  if (perfect && (/(?:ed|en|wn|ne|lt|nt|ut|ot|un)$/i.test(perfect[1]!) || !nlp(perfect[1]!).has('#Adjective'))) return { text: perfect[0] };
  const past = (nlp(segment).match('(#PastTense|#Participle)').not('(been|was|were|had|did)').out('array') as string[])[0] ?? /\b(?!(?:need|feed|seed|speed|bleed|breed|hundred|sacred|wicked|naked)\b)[a-z]{2,}ed\b/i.exec(segment)?.[0];
  return past ? { text: past, past: true } : undefined;
}

/**
 * A past verb says the call's effect only with the object as what it acted on: right after the verb
 * ("Kicked PROJ-77 over to QA"), or as the subject of a passive ("EMP-1 was offboarded"). Not the thing's
 * own doing ("P77 escalated to the secondary", "EMP-1 joined in 2021"), nor another act on it ("commented
 * on PROJ-7").
 */
function actedOn(words: string, verb: string): boolean {
  const object = words.indexOf(' X ');
  const at = words.toLowerCase().indexOf(verb.toLowerCase());
  if (object < 0 || at < 0) return true;
  if (at > object) {
    if (/\b(?:is|are|was|were|be|been|being|got|gets|'s|'re)\s+(?:[a-z]+ly\s+|now\s+|already\s+|just\s+)*$/i.test(words.slice(0, at))) return true;
    // The thing as the subject of an active verb: a change it went through ("PROJ-77 moved to QA", "#511
    // landed on main", "EMP-1 lost access") — not its own doing, with an object or a time of its own ("P77
    // triggered at 02:14", "EMP-1 joined in 2021", "PROJ-7 described the crash").
    const rest = words.slice(at + verb.length);
    return !/^\s*(?:the|a|an|its|their|his|her|this|that|\d)\b/i.test(rest) && !/\b(?:in \d{4}|at \d|yesterday|last|ago|after \d|on (?:the )?\d|on (?:mon|tue|wed|thu|fri|sat|sun)|this (?:morning|afternoon|week)|earlier|every|twice|\d+ times)/i.test(rest);
  }
  const between = words.slice(at + verb.length, object).trim();
  return !/^(?:on|in|at|to|for|with|from|about|of|into|onto|by|through|over|under|after|before|around)\b/i.test(between);
}

/**
 * The claims a clause makes by naming the object of a call the receipt does not show done, beside the
 * tools its verbs already claim (`claimed`): for user-defined and MCP tools, whose verbs nobody can list.
 */
export function anchoredClaims(text: string, receipt: Receipt, specs: ClaimSpecs, claimed: ReadonlySet<string>): AnchoredClaim[] {
  const out: AnchoredClaim[] = [];
  for (const entry of receipt) {
    const spec = specs[entry.tool];
    if (!spec?.objectArg || spec.kind === 'run' || builtins.has(entry.tool) || claimed.has(entry.tool)) continue;
    if (entry.outcome === 'done' || entry.outcome === 'deduplicated') continue;
    const value = entry.args[spec.objectArg];
    if (!value || value === REDACTED || backed(entry, receipt, spec.objectArg)) continue;
    if (out.some((c) => c.tool === entry.tool && c.object === value)) continue;
    // The call's object, or another argument that names what it acts on ("acme/api" for a grant to a user).
    // (Not a state the call was to leave, nor a value a done call of the tool shares: "In Review" for three tickets.)
    const shared = (arg: string, v: string) => receipt.some((e) => e.tool === entry.tool && e.outcome === 'done' && e.args[arg] === v);
    const names = [value, ...Object.entries(entry.args).filter(([arg, v]) => arg !== spec.objectArg && v !== REDACTED && !NOT_NAMES.test(arg) && !STATE_ARGS.test(arg) && !shared(arg, v)).map(([, v]) => v)];
    // (A plain word only beside a noun of the tool: "the search deployment", "room orion".)
    const besideNoun = (n: string) => /^[a-z][a-z-]{3,}$/i.test(n.trim()) && (spec.nouns ?? []).some((noun) => new RegExp(`\\b${escape(n.trim())}\\s+${escape(noun)}s?\\b|\\b${escape(noun)}s?\\s+${escape(n.trim())}\\b`, 'i').test(text));
    const hit = names.filter((n) => identifierLike(n) || /^[A-Z][a-z]{2,}$/.test(n.trim()) || besideNoun(n)).map((n) => ({ n, at: find(text, n) })).find((h) => h.at >= 0);
    if (!hit) continue;
    const at = hit.at;
    // "ALERT-31 fired 12 times overnight": the thing did something itself.
    if (new RegExp(`^${escape(normalize(hit.n))}\\s+[a-z]+ed\\s+(?:\\d+\\s+times|twice|again|repeatedly|overnight)`, 'i').test(text.slice(at).replace(/^[#]/, ''))) continue;
    const { segment, offset } = segmentAt(text, at);
    // The state the call was to leave, in its other arguments ("| WEB-12 | To Do | Won't Do |" for status
    // "Won't Do"), says it done; its words are a value, not a negation.
    const state = stateOf(entry, spec.objectArg, text);
    const said = (state ? text.replace(new RegExp(escape(state), 'gi'), ' S ') : text).replace(/\bno longer\b|\bnot any ?more\b|\bcan now\b|\bnow can\b/gi, ' now ');
    // The name itself may hold marks ("WEB-12", "tmp-uploads/"): read the words around it.
    const words = `${segment.slice(0, at - offset)} X ${segment.slice(at - offset + normalize(hit.n).length + 1)}`.replace(/\bno longer\b|\bnot any ?more\b|\bcan now\b|\bnow can\b/gi, ' now ');
    if (NOT_DONE.test(said) || TOLD.test(words) || LOOKED.test(words) || /\bby\s+(?!me\b|us\b|hand\b|now\b)[a-z]/i.test(words) || /\byou\b/i.test(withoutReaderServed(words))) continue;
    const done = state ? { text: state } : completion(words);
    if (!done || (done.past && !actedOn(words, done.text))) continue;
    out.push({ tool: entry.tool, object: value, verb: done.text });
  }
  return out;
}

/** Another argument of the call that names a state ("Won't Do", "QA", "editor", "paused") and stands in the clause. */
function stateOf(entry: ReceiptEntry, objectArg: string, text: string): string | undefined {
  const lower = text.toLowerCase();
  for (const [arg, value] of Object.entries(entry.args)) {
    const v = value.trim();
    if (arg === objectArg || v === REDACTED || v.length < 2 || v.length > 30 || /^\d+$/.test(v) || !STATE_ARGS.test(arg)) continue;
    if (new RegExp(`(?<![\\w-])${escape(v.toLowerCase())}(?![\\w-])`).test(lower)) return v;
  }
  return undefined;
}

/** A done call of the same tool on the same object backs it. */
function backed(entry: ReceiptEntry, receipt: Receipt, objectArg: string): boolean {
  return receipt.some((e) => e.tool === entry.tool && e.outcome === 'done' && normalize(e.args[objectArg] ?? '') === normalize(entry.args[objectArg] ?? ''));
}
