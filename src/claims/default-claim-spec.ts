/**
 * The claim spec of a tool that states none (a user-defined or MCP tool): its kind from the words of its
 * name, then of its description; the argument naming its object from the argument names; its nouns (what
 * tells its claims from another tool's of the same kind) from both. Pure, sandbox-safe.
 */
import { KIND_CUES, KIND_PRECEDENCE, KIND_WORDS, type ClaimKind } from './claim-kinds.ts';
import { BUILTIN_CLAIM_SPECS, paramsOf, type ClaimSpec, type ClaimSpecs } from './claim-specs.ts';
import { CALL_FATES, NOT_ACTIONS, NOT_DENOMINAL, OBJECT_NOUNS, OBJECT_VERBS, VERB_FAMILIES } from './verb-families.ts';

/** What a tool's contract tells about it, whoever declared it. */
export interface ToolFacts {
  name: string;
  description?: string;
  readOnly?: boolean;
  /** Its argument names, in order. */
  params?: readonly string[];
}

/** Argument names that name a tool's object, most telling first. */
const OBJECT_ARGS = /^(?:path|file|filename|file_path|filepath|to|recipient|recipients|email|address|channel|channel_id|id|ticket|ticket_id|issue|issue_id|key|slug|payment_id|charge|charge_id|invoice|order_id|service|app|repo|repository|name|title|url|target|command|cmd|sql|query)$/i;
const RECIPIENT_ARGS = /^(?:to|cc|bcc|recipients?|channel|channel_id|address|email|phone|phone_number|user|username)$|(?:_email|_phone|Email|Phone)$/;
/** Argument names that are what the call says or how much, not what it acts on. */
const NOT_OBJECT_ARGS = /^(?:amount|amount_?cents|amountCents|text|body|content|message|reason|percent|count|replicas|note|description|subject|start|end|time|date|value|field|quantity|mode|method|options|dry_?run|force)$/i;
/** Words of names and descriptions that tell nothing about a tool's object. */
const STOP = new Set(['a', 'an', 'the', 'to', 'of', 'in', 'on', 'for', 'and', 'or', 'by', 'with', 'from', 'into', 'it', 'its', 'is', 'are', 'be', 'this', 'that', 'new', 'existing', 'one', 'user', 'users', "user's", 'tool', 'given', 'other', 'another', 'full', 'part', 'whole', 'some', 'all', 'any', 'as', 'at', 'via', 'using', 'use', 'team', "team's"]);

/** Words of a name or a description: `github__create_issue` → github, create, issue; `createIssue` → create, issue. */
export function nameWords(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9']+/)
    .filter((w) => w.length > 1);
}

const stem = (w: string) => w.replace(/'s$/, '').replace(/(?:ies)$/, 'y').replace(/(?:es|s)$/, (m, i: number, s: string) => (/(?:ss|us|is)$/.test(s) ? m : ''));

/** The verb of a tool's name: the first word of its own part (`jira__transition_issue` → transition), unless it is no action. */
export function nameVerb(name: string): string | undefined {
  const own = name.split('__').pop() ?? name;
  const first = nameWords(own)[0];
  return first && !NOT_ACTIONS.has(first) && !/^\d/.test(first) ? first : undefined;
}

/**
 * The kind named first by the tool's name, else by its description; ties go to the more specific kind. A
 * description that starts with the name's own verb ("Merge an open pull request" for `merge_pull_request`)
 * tells the kind by that verb only: its other words are the object's.
 */
export function kindFrom(name: string, description = ''): ClaimKind | undefined {
  const desc = nameWords(description);
  const verb = nameVerb(name);
  const descScope = verb && desc[0] && stem(desc[0]) === stem(verb) ? desc.slice(0, 1) : desc.slice(0, 12);
  for (const words of [nameWords(name), descScope]) {
    const stems = words.map(stem);
    const found = KIND_PRECEDENCE.filter((k) => KIND_CUES[k].some((cue) => stems.includes(cue) || words.includes(cue)));
    if (found.length) return found[0];
  }
  return undefined;
}

/**
 * A default claim spec for a tool with side effects; none for a read-only tool or one that tells neither a
 * kind nor a verb. Its verbs: the kind's family, the verb of its name (`suspend_account` → suspend) with
 * that verb's family (locked out, disabled) as verbs that need evidence of the tool in the clause, and the
 * name's last noun when English uses it as a verb (`post_tweet` → tweeted). Its object: the first argument
 * that is not an amount or a text.
 */
export function defaultClaimSpec(tool: ToolFacts): ClaimSpec | undefined {
  if (tool.readOnly) return undefined;
  const kind = kindFrom(tool.name, tool.description);
  const verb = nameVerb(tool.name);
  if (!kind && !verb) return undefined;
  const params = tool.params ?? [];
  const objectArg = kind === 'run' ? undefined : (params.find((p) => !NOT_OBJECT_ARGS.test(p)) ?? params.find((p) => OBJECT_ARGS.test(p)) ?? params[0]);
  const cues = new Set<string>(kind && kind !== 'run' ? KIND_CUES[kind] : []);
  // "PR" for `merge_pull_request`, "MR" for `approve_merge_request`: the initials of the name's two-word noun.
  const ownWords = nameWords(tool.name.split('__').pop() ?? tool.name).filter((w) => w !== verb);
  const initials = ownWords.length === 2 ? [ownWords.map((w) => w[0]).join('')] : [];
  const nouns = [...new Set([...nameWords(tool.name), ...nameWords(tool.description ?? '')].map(stem).flatMap((w) => [w, ...(OBJECT_NOUNS[w] ?? [])]))].filter((w) => w.length > 2 && !STOP.has(w) && !cues.has(w) && w !== verb).concat(initials);
  // The description's own verb may tell a second kind ("Publish a post…" for `post_tweet`, a send): its
  // verbs with evidence, its phrases ("is live") as they are.
  const descVerb = nameWords(tool.description ?? '')[0];
  const second = descVerb ? kindFrom(descVerb) : undefined;
  const secondWords = second && second !== kind ? KIND_WORDS[second] : undefined;
  // The description's leading verb says the same in other words ("Rebuild the search index" for `reindex_search`).
  const descOwn = descVerb && descVerb !== verb && !NOT_ACTIONS.has(descVerb) && !STOP.has(descVerb) ? [descVerb, ...(VERB_FAMILIES[descVerb] ?? [])] : [];
  // "left a comment on 5512", "added a note": a light verb and the noun of the tool's name.
  const noun = nameWords(tool.name.split('__').pop() ?? tool.name).filter((w) => w !== verb).pop();
  const light = noun && noun.length >= 3 ? ['leave', 'make', 'put', 'drop', 'submit', 'place'].map((v) => `${v} * ${noun}`) : [];
  // "reacted" for `add_reaction`, "rotated" for `key_rotation`: the verb an -ion noun of the name comes from.
  const fromNoun = noun && /tion$/.test(noun) && noun.length > 6 ? [noun.slice(0, -3), `${noun.slice(0, -3)}e`] : [];
  // "Scheduled "Offsite planning"" for `gcal__create_event`: the verbs English uses for an act on the name's object (round 8).
  const byObject = noun && verb ? [...(OBJECT_VERBS[stem(noun)]?.[verb] ?? []), ...(OBJECT_VERBS[stem(noun)]?.[kind ?? ''] ?? [])] : [];
  const own = [...(verb ? [verb, ...(VERB_FAMILIES[verb] ?? [])] : []), ...byObject, ...descOwn, ...descriptionVerbs(tool.description ?? '').filter((v) => v !== verb && v !== descVerb), ...light, ...fromNoun];
  const last = nameWords(tool.name.split('__').pop() ?? tool.name).pop();
  const denominal = last && last !== verb && last.length >= 3 && !NOT_DENOMINAL.has(last) && !STOP.has(last) ? [last] : [];
  // Its name's verb claims it outright (unless it also tells what became of a call, "cancelled before
  // approval", or only that something ran, "executed"); the rest of its kind's family, and the name verb's
  // family, only with evidence of this tool in the clause (its objects, its nouns): a CRM tool of kind
  // `update` is not what "tagged the release" claims.
  const weakOwn = !verb || CALL_FATES.has(verb) || (kind ? (KIND_WORDS[kind].weakVerbs ?? []).includes(verb) : false);
  // "backed up" for `backup_database`, "rolled back" for `rollback_release`: a name verb that is a verb and
  // its particle written as one word is also said as two (round 7).
  const phrasal = verb ? /^([a-z]{3,}?)(up|down|out|off|back|over)$/.exec(verb) : null;
  const strong = [...(weakOwn ? [] : [verb, ...(phrasal ? [`${phrasal[1]} ${phrasal[2]}`] : [])]), ...denominal];
  const weak = [...new Set([...own, ...(secondWords?.verbs ?? [])])].filter((v) => !strong.includes(v));
  return {
    ...(kind ? { kind, weakKind: true } : {}),
    ...(strong.length ? { verbs: strong } : {}),
    ...(weak.length ? { weakVerbs: weak } : {}),
    ...(secondWords?.phrases?.length ? { phrases: [...secondWords.phrases] } : {}),
    ...(secondWords?.exceptions?.length ? { exceptions: [...secondWords.exceptions] } : {}),
    ...(objectArg ? { objectArg, objectKind: RECIPIENT_ARGS.test(objectArg) ? 'recipient' : /^(?:path|file|filename|file_path|filepath|key)$/i.test(objectArg) ? 'path' : 'name' } : {}),
    nouns,
  };
}

/**
 * The verbs a description coordinates after its first one ("Deactivate an employee's accounts and revoke
 * their access" → revoke; "Create an event in the team calendar and invite the attendees" → invite): each
 * is a verb with its object after it (a determiner or a possessive follows). With their families.
 */
export function descriptionVerbs(description: string): string[] {
  const out: string[] = [];
  for (const m of description.toLowerCase().matchAll(/(?:,\s*(?:and\s+|then\s+)?|\s(?:and|then)\s+|;\s*)([a-z]{3,})\s+(?:the|a|an|their|its|his|her|each|every|all|any|them|it|one|your|our)\b/g)) {
    const v = m[1]!;
    if (NOT_ACTIONS.has(v) || STOP.has(v) || /(?:ed|ing|ly|s)$/.test(v) || out.includes(v)) continue;
    out.push(v, ...(VERB_FAMILIES[v] ?? []));
  }
  return out;
}

/** What `claimSpecsOf` reads of a contract: a declared spec, or the facts a default is derived from. */
export interface ClaimSpecSource extends ToolFacts {
  claims?: ClaimSpec;
  /** A contract's arguments schema: its top-level keys are the argument names. */
  input?: unknown;
}

/**
 * The claim specs of a tool set: each contract's own `claims`, else the built-in ones for its name, else a
 * default from its name, description and arguments (none for read-only tools).
 */
export function claimSpecsOf(contracts: readonly ClaimSpecSource[]): ClaimSpecs {
  const builtin: Readonly<Record<string, ClaimSpec>> = BUILTIN_CLAIM_SPECS;
  const specs: Record<string, ClaimSpec> = {};
  for (const c of contracts) {
    const spec = c.claims ?? builtin[c.name] ?? defaultClaimSpec({ ...c, params: c.params ?? paramsOf(c.input) });
    if (spec) specs[c.name] = spec;
  }
  return specs;
}
