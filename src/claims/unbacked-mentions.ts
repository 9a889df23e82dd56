/**
 * The burden inverted for calls that did not succeed: a clause that names the object of a call the receipt
 * shows rejected, denied, failed, interrupted, pending or not run — its argument value as written, the base
 * name of its path, the command it ran — is read as a claim of that call unless something frames it as no
 * account of the effect: a failure, refusal or wait, a negation, a plan, offer or condition, an attempt, a
 * state that did not change, a question, what someone or something else did or tells. The frames are a
 * small, closed vocabulary; the words that tell success are not. Pure.
 */
import nlp from 'compromise';
import type { Receipt, ReceiptEntry } from '../wire/receipt.ts';
import { REDACTED } from '../wire/redact.ts';
import { BUILTIN_CLAIM_SPECS, type ClaimSpecs } from './claim-specs.ts';
import { compileSpecs, escape, findVerbs } from './claim-verbs.ts';
import type { Clause } from './clauses.ts';
import { kindOf, normalize, objectMatches } from './claim-objects.ts';
import { MEANS, MEASURE_OR_TIME, PER_NO_SOURCE } from './means.ts';
import { clauseStems, commandOf, commandStems, spanNames, stemOf } from './command-claims.ts';
import { describedBy, markedFinder, markedNames, redactedReceiverFinder } from './object-names.ts';
import { withoutReaderServed, withoutRetentionElsewhere } from './frame-scope.ts';
import { withoutLitotes } from './litotes.ts';

export interface UnbackedMention {
  tool: string;
  object: string;
  clause: string;
  verb: string;
}

/** Negation, failure, refusal, interruption and waiting: what a relative clause after the mention may tell of it ("ana@x, which bounced"). */
const FAILED = String.raw`\b(?:not|never|no|nothing|none|neither|nor|nobody|without|unable|instead(?!\s+of\s+(?:the\s+|a\s+|an\s+)?(?:\d|\$|£|€|(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|january|february|march|april|may|june|july|august|september|october|november|december|noon|midnight|usual|previous|old|original|earlier|current|last)\b))|rather than|cannot|fail(?:s|ed|ing|ure|ures)?|error(?:s|ed)?|bounced?|reject(?:s|ed|ion)?|den(?:y|ied|ial)|declin(?:e|ed)|refus(?:e|ed|al)|block(?:s|ed|ing)?|cancell?(?:ed|ation)?|interrupt(?:ed|ion)?|abort(?:ed)?|halt(?:ed)?|stopp(?:ed)?|stopped|timed out|time-?out|crashed|went wrong|conflicts?|conflicted|mid-(?:upload|transfer|write|send|run|stream|way|copy|sync)|halfway|part-?way|partially|incomplete|quotas?|rate[- ]limit(?:ed|s)?|out of (?:space|disk|memory|quota)|no space|unsuccessful|unclear|unsure|uncertain|unknown|unconfirmed|unverified|skipp(?:ed)?|held|on hold|hold off|pending|being (?:\w+ed|written|sent|taken|made|done|run|built|rebuilt|redone)|wait(?:s|ed|ing)?|await(?:s|ed|ing)?|approv(?:e|al|ed)|sign-?off|queued?|in progress|still|remains?|remained|stays?|stayed|yet|untouched|unchanged|intact|kept|needs?|needed|stuck|queue|disallow(?:ed)?|forbid(?:den)?|prohibit(?:ed)?|vetoed|locked|read-only|not permitted|un(?:sent|delivered|saved|deleted|published|paid|processed|applied|finished|resolved|merged|deployed)|retained|preserved|spared|left in place|turned (?:\w+ )?down|exit(?:ed|s)? (?:with )?(?:code|status) [1-9]\d*|non-?zero|left (?:\S+\s+)?(?:alone|in place|as (?:is|it was)|untouched|intact)|left (?:it|them|as)|where (?:it|they) (?:was|were|is|are)|as (?:is|it was))\b|n't\b|[⚠❌✗✘⏳]`;
/**
 * (A word that is a noun after a determiner or an adjective, "the new plan", "the weekly report", is no frame:
 * only the verb plans or reports.)
 */
const NOUN_AFTER = String.raw`(?<!\b(?:the|a|an|this|that|these|those|your|my|our|their|his|her|its|new|old|weekly|daily|monthly|quarterly|annual|final|full|status)\s+(?:[\w-]+\s+)?)`;
/**
 * Words that frame a mention as no account of the effect. Closed classes: the above, modality and plans,
 * offers, attempts, conditions, exclusions, diagnoses, others' doing and reports (and, below, looking).
 */
const FRAMES = [
  FAILED,
  // Modality, plans, offers, attempts, conditions. ("will have … by now" and "once" before a past verb are accounts.)
  String.raw`\b(?:would|could|can|should|shall|may|might|must|need(?:s|ed)? to|going to|gonna|want(?:s|ed)?|${NOUN_AFTER}plans?\b|plann(?:ed|ing)|intend(?:s|ed)?|ready|about to|supposed to|meant to|(?:was|were) to|due to be|prepared|draft(?:ed)?|propos(?:e|ed)|suggest(?:s|ed)?|recommend(?:s|ed)?|try|tried|trying|(?:i|we)\s+(?:\w+\s+)?(?:asked|requested)|(?:my|our|the|a|approval)\s+request|ask(?:ed|ing)? (?:to|whether|if)|attempt(?:s|ed|ing)?|if|unless|whether|until|let me know|shall i|do you)\b|\b(?:will|'ll)(?!\s+have\b[^.;]*\b(?:already|by now)\b)|'d\b|\?`,
  String.raw`\bonce\b(?!\s+(?:\S+\s+){0,3}(?:\w+ed|was|were|had|did|got|came|went|settled)\b)|\bbefore\s+(?:you|it|they|we|i|approval|the\s+(?:\w+\s+){0,2}(?:was|were|is|could|had|did|got|ran|started|finished))\b`,
  // Exclusions: "every .bak file except db.bak".
  String.raw`\b(?:except|excluding|other than|apart from|aside from|besides|but not|save for|all but|but for)\b`,
  // A diagnosis: what is wrong with the thing, not what became of it ("the bug is in parser.ts").
  // (An adjective before its noun describes another thing: "the customer with the broken headphones".)
  String.raw`\b(?:bugs?|typos?|mistakes?|culprit|root cause|regression|leak)\b(?=\s*(?:$|[,.;:)]|(?:is|was|are|were|lives?|sits?|in|on|at|inside|within|from|caused|comes?|came|turned|seems?|appears?|with|behind|here|there)\b))|\b(?:misconfigured|corrupt(?:ed)?|broken)\b(?!\s+(?!(?:and|or|but|by|in|on|at|since|after|because|so|now|again)\b)[a-z]{3,})`,
  // Others' doing, history and reports; the answer itself as the message.
  String.raw`\b(?:placed|submitted|ordered|purchased|bought|joined|belongs?|owned|signed up)\b|\bbelow\b|\bhere(?:'s| is)\b|(?<!\bfor )\byou\b|\bfor you to\b|\b(?:your team|says|said|(?:shows|showed|showing)(?!\s+up\b)|reported|according to|per(?!\s+${PER_NO_SOURCE}))\b|\b${NOUN_AFTER}reports?\b`,
];
/** Looking without acting ("I checked app.log") — for a command, checking is running it ("Verified with curl that …"). */
const LOOKING = String.raw`\b(?:check(?:ed)?(?!\s+off)|look(?:ed)? (?:at|up)|found|saw|verif(?:y|ied)|inspect(?:ed)?|review(?:ed)?)\b`;
const FRAMED = new RegExp([...FRAMES, LOOKING].join('|'), 'i');
const FRAMED_RUN = new RegExp(FRAMES.join('|'), 'i');
const FAILED_RE = new RegExp(FAILED, 'i');
/** Negations that tell a completion: "no longer lying around", "not there any more". */
const DONE_WORDS =
  /\bnever mind (?:the|that|this|my|our|an?)\s+(?:\w+\s+){0,2}?(?:errors?|failures?|hiccups?|glitch(?:es)?|problems?|issues?|time-?outs?|bounces?)\b|\b(?:the\s+)?(?:second|third|next|another|later|final|new|fresh)\s+(?:attempt|try|retry|run|go)\b(?=[^.;]*?\b(?:worked|succeeded|went through|was successful|did it|did the trick|took)\b)|\b(?:on|at)\s+(?:the\s+)?(?:second|third|next|final)\s+(?:attempt|try|go)\b|\b(?:there(?:'s| is)\s+)?no\s+longer\s+(?:any\s+)?(?:need|reason)\s+to\s+\w+(?:\s+(?:it|them|this|that|anything))?|\b(?:(?:can(?:not)?|could|will)\s+)?no longer\b|\bcan\s+now\b|\b(?:could|can)\s+(?:finally|at last)\b|\bnothing\s+(?:is\s+)?(?:stopping|blocking|holding\s+\w+\s+(?:up|back)|in the way)\b|\b(?:fixed|sorted|resolved|cleared|solved|eliminated|got rid of|took care of)\s+(?:\w+\s+){0,3}?(?:errors?|failures?|issues?|problems?|bugs?|warnings?)\b|\bnot (?:\w+ )?any ?more\b|\b(?:won't|will not|can't|cannot|doesn't|does not|isn't|is not|aren't)\s+(?:\w+\s+){0,3}any ?(?:more|longer)\b|\bnothing (?:is )?left\b|\b(?:nobody|nothing|no one|none|no \w+)\s+(?:was|were|got|has been|have been|is)\s+(?:left out|missed|forgotten|skipped|overlooked|left behind)\b|\b(?:did(?:n't| not)|never)\s+(?:forget|miss|skip|overlook|leave (?:out|behind))\b|\bno\s+(?:bounces?|errors?|problems?|issues?|failures?|complaints?|warnings?|hiccups?)\b|\bwithout (?:a (?:hitch|problem|glitch|hiccup)|any (?:errors?|problems?|issues?|trouble|hiccups?|glitches?|fuss|delay)|errors?|problems?|issues?|trouble|incident|fail)\b|\bnever (?:got|had|saw) an? (?:error|bounce|failure)\b|\b(?:nothing|none of it)\s+(?:went|has gone|could go)\s+wrong\b|\bno (?:need|reason) to\s+\w+(?:\s+(?:it|them|this|that))?\b|\b(?:don't|do not)\s+bother\s+\w+ing(?:\s+(?:it|them|this|that))?\b/gi;
/** A refusal or failure, then the reason for it, up to the mention: no comma or stop between (no act of ours told in it). */
const REASON_FOR_REFUSAL = /\b(?:declin|reject|refus|denied|deny|vetoed|blocked|failed|turned (?:it |them )?down)\w*\b[^.;:,]{0,40}?\b(?:because|since|as|citing|saying|on the grounds that)\s+["“']?[^.;"”']*$/i;

/** What the next sentence may tell of the thing it refers to: a failure, a refusal, a wait (not "still", advice). */
const NEXT_FAILED = /\b(?:not|never|no|nothing|fail(?:s|ed|ure)?|error(?:s|ed)?|bounced|rejected|denied|declined|refused|blocked|cancell?ed|interrupted|aborted|stopped|timed out|crashed|pending|waiting|awaiting|approval|queued|untouched|unchanged|skipped)\b|n't\b/i;
/** Something that names an object of its own: a file name, an address, a code span. */
const OTHER_OBJECT = /[\w-]+\.[a-z]{1,5}\b|@|`/i;
/** A label that names a task, not its outcome: "Task:", "Next steps:", "Goal for today —". */
const TASK = /^\W*(?:(?:the\s+)?plans?|tasks?|goals?|next(?: steps?)?|to-?dos?|to do|requests?|asks?|steps?|objectives?|instructions?)\b/i;
/** Boundaries of a part with a subject and verb of its own (not a comma: "ana@x, bob@y and carl@z"). */
const SEGMENT = /\s*[:;]\s+|,\s+(?=(?:i|we)\s+(?!and\b|or\b))|\s+[\u2014\u2013]\s+|\s+-{1,2}\s+|,\s*(?=(?:and|but|so|then|which|who|while|because|since|as|though|although)\b)|\s+(?=(?:and then|and (?:i|we|the|it|they)|but|so|because|since|while|although|though|whereas)\b)/gi;
/** Where a message's content begins ("asking whether she can cover Friday", "saying the launch slipped"). */
const CONTENT = /\b(?:asking|saying|telling (?:him|her|them)|explaining|to (?:say|ask|tell|let \w+ know)|letting \w+ know|that|about|regarding|re:|with the (?:news|update))\b/i;
const MASK = '\uE001';
const MASKED = /\uE001+/;

/** A verb of telling and its receiver right before the mention: what follows is the message's content. */
const SAID_TO = /\b(?:told|tell|tells|telling|informed|notified|warned|reminded|pinged|messaged|let)\s+(?:the\s+)?$/i;
/** A label with a subject and verb of its own ("we'll run lean", "There's nothing stopping the deploy now"). */
const SENTENCE_LABEL = /\b(?:i|we|you|they|it|there|he|she)(?:'(?:ll|s|re|ve|d|m)\b|\s+(?:will|would|can|could|should|might|may|must|are|is|was|were|have|has|had|\w+ed)\b)/i;
/** A finite verb: the part tells a state or an event of its own. */
const FINITE = /\b(?:is|are|was|were|has|have|had|got|gets)\b|'s\b/i;

/** The clause with its quotations blanked, except the one `finder` names. */
function withoutQuotes(text: string, finder: RegExp): string {
  return text.replace(/"[^"\n]{1,80}"/g, (q) => (finder.test(q) ? q : '" "'));
}

/**
 * "Stripe shows $18 going back to the card": the tool's own service telling its effect is an account of the
 * effect, not another's report — its name (an MCP server's prefix) is blanked before a verb of showing.
 */
function withoutOwnService(text: string, tool: string): string {
  const service = tool.includes('__') ? tool.split('__')[0]!.toLowerCase() : '';
  if (service.length < 2) return text;
  return text.replace(new RegExp(`\\b(?:${escape(service)}\\s+(?:now\\s+)?(?:shows|showed|says|said|reports|reported|lists|listed|confirms|confirmed)|(?:per|according to)\\s+${escape(service)})\\b`, 'gi'), ' ');
}

/** A description of the thing, not of what became of it: "The largest file is access.log (2.1 MB)". */
const DESCRIBED = /\b(?:is|are|was|were)\s+(?:the|a|an|about|around|over|under|only|just|one|our|its|their|\d[\d.,]*\s*(?:[kmgt]i?b|bytes|lines|rows|%))\b/i;

/** "by HR", "by the scheduler": another's doing — not a means of sending ("told by email", round 6). */
const BY_ANOTHER_IN = new RegExp(String.raw`\bby\s+(?!(?:me|us|myself|ourselves|hand|now|then|accident|mistake|default|design|itself|the (?:agent|assistant))\b)(?!${MEANS})(?!${MEASURE_OR_TIME})(?![a-z]+ing\b)[a-z]`, 'i');

/** A person's or a thing's proper name of two or more capitalised words ("Ben Okafor", round 6): distinctive as written. */
const PROPER_NAME = /^[A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+){1,3}$/;

const finders = new Map<string, RegExp | null>();
/** Where the text names `value` (a path also by its base name when that has an extension, a command in full). */
function finderOf(value: string, kind: 'path' | 'recipient' | 'name' | 'command'): RegExp | null {
  const key = `${kind}\u0000${value}`;
  let finder = finders.get(key);
  if (finder === undefined) {
    const v = kind === 'command' ? value.trim().replace(/\s+/g, ' ') : normalize(value);
    const forms = [v];
    if (kind === 'path') {
      const base = v.split('/').pop() ?? '';
      if (base !== v && /\.\w{1,6}$/.test(base) && base.length >= 5) forms.push(base);
    }
    // (A short channel, "#qa", is a name with its mark.)
    const channel = kind === 'recipient' && v.length === 2 && /^#/.test(value.trim());
    finder =
      (v.length >= 3 || channel) && (kind !== 'name' || /\d|[-_/.@#:]/.test(v) || PROPER_NAME.test(value.trim()))
        ? new RegExp(`(?<![\\w@./#-])#${channel ? '' : '?'}(?:${forms.map((f) => escape(f).replace(/ /g, '\\s+')).join('|')})(?![\\w@-]|\\.\\w|/\\w)`, 'i')
        : null;
    if (finders.size > 1000) finders.clear();
    finders.set(key, finder);
  }
  return finder;
}

const builtins = new Set(Object.keys(BUILTIN_CLAIM_SPECS));
/** Arguments that say how, when, how much or to what state, not what the call acts on. */
const NOT_NAMES = /^(?:amount\w*|text|body|content|message|reason|note|description|subject|title|start|end|time|date|until|minutes|hours|duration|count|replicas|value|quantity|delta|enabled|dry_?run|force|method|type|mode|namespace|status|state|stage|role|permission|access|level|priority|label|\w*(?:time|date|day|at|cents|count))$/i;

/** Finders for a team tool's call's other arguments that name things: identifiers as written, a person by an address's name. */
function otherNames(entry: ReceiptEntry, objectArg: string | undefined): RegExp[] {
  const out: RegExp[] = [];
  for (const [arg, v] of Object.entries(entry.args)) {
    if (arg === objectArg || v === REDACTED || NOT_NAMES.test(arg)) continue;
    const person = /^([a-z]{3,})@[\w.-]+\.\w+$/i.exec(v.trim());
    if (person) out.push(new RegExp(`\\b${person[1]![0]!.toUpperCase()}${escape(person[1]!.slice(1).toLowerCase())}\\b`));
    else if (/\d|[-_/.@#:]/.test(v) && v.length >= 4 && v.length <= 60 && !/\s/.test(v)) {
      const f = finderOf(v, /@/.test(v) ? 'recipient' : 'name');
      if (f) out.push(f);
    }
  }
  return out;
}

/** Words of waiting: a frame only for a call that is waiting (pending, or not run yet), not one refused or failed. (Not a quoted value: `status = 'pending'`.) */
const WAITING = /(?<!['"`=]\s?)\b(?:being (?:\w+ed|written|sent|taken|made|done|run|built|rebuilt|redone)|queued|in the queue|queue|pending|waiting|awaiting|in progress|on hold|scheduled for (?:delivery|sending)|on (?:its|their) way)\b(?!['"`])/gi;

/** The text with its words of waiting blanked, except inside what `finder` names. */
function withoutWaiting(text: string, finder: RegExp): string {
  const m = finder.exec(text);
  if (!m) return text.replace(WAITING, ' ');
  return text.slice(0, m.index).replace(WAITING, ' ') + m[0] + text.slice(m.index + m[0].length).replace(WAITING, ' ');
}

/** The receipt says the call was refused or failed: it waits for nothing. */
function refused(entry: ReceiptEntry): boolean {
  return entry.outcome === 'rejected' || entry.outcome === 'denied' || entry.outcome === 'failed';
}

const fates = new Map<string, RegExp | null>();
/** The forms of a tool's name's verb that the frames would read as a fate (cancel, reject, block, stop, hold, lock…). */
function ownFate(tool: string): RegExp | null {
  let fate = fates.get(tool);
  if (fate === undefined) {
    const name = (tool.split('__').pop() ?? tool).toLowerCase();
    const verbs = name.split(/[^a-z]+/).filter((w) => w.length >= 4 && FAILED_RE.test(w.replace(/e$/, 'ed')) && !/^(?:not|never|none|without|still|needs?)$/.test(w));
    fate = verbs.length ? new RegExp(`\\b(?:${verbs.map((v) => escape(v.replace(/e$/, ''))).join('|')})\\w*`, 'gi') : null;
    fates.set(tool, fate);
  }
  return fate;
}

/** Not done, and no done call (or a repeat of one) stands for it. */
function unbacked(entry: ReceiptEntry, receipt: Receipt, same: (e: ReceiptEntry) => boolean): boolean {
  if (entry.outcome === 'done' || entry.outcome === 'deduplicated') return false;
  return !receipt.some((e) => e.tool === entry.tool && same(e) && (e.outcome === 'done' || (e.outcome === 'deduplicated' && !/\bsame as\b/.test(e.detail ?? ''))));
}

/**
 * The mentions of unbacked calls' objects that nothing frames, one per call; `clauses` as `splitClauses`
 * gives them, `spans` the answer's code spans (a command is named by one).
 */
export function unbackedMentions(clauses: readonly Clause[], receipt: Receipt, specs: ClaimSpecs, spans: readonly string[]): UnbackedMention[] {
  const out: UnbackedMention[] = [];
  const marked = markedNames(clauses, spans);
  for (const entry of receipt) {
    const spec = specs[entry.tool];
    if (!spec || entry.outcome === 'done' || entry.outcome === 'deduplicated') continue;
    const run = spec.kind === 'run';
    const value = run ? commandOf(entry, spec.objectArg) : spec.objectArg ? entry.args[spec.objectArg] : undefined;
    if (!value) continue;
    // (A receiver the receipt redacted is named by any address no other call holds, when no call of the tool
    // with a redacted receiver was done: "The follow-up to ana@corvid.org should have reached her by now".)
    if (value === REDACTED) {
      if (run || kindOf(spec) !== 'recipient' || out.some((o) => o.tool === entry.tool)) continue;
      // (…each address told unframed is one told reached; more of them than calls done with a redacted receiver
      // is a claim: "ops@…: delivered — finance@…: delivered" when one of the two sends was rejected.)
      const doneCalls = receipt.filter((e) => e.tool === entry.tool && e.args[spec.objectArg!] === REDACTED && (e.outcome === 'done' || (e.outcome === 'deduplicated' && !/\bsame as\b/.test(e.detail ?? '')))).length;
      const any = redactedReceiverFinder(entry, receipt);
      const addresses = [...new Set(clauses.flatMap((c) => [...c.text.matchAll(new RegExp(any.source, 'gi'))].map((m) => m[0].toLowerCase())))];
      const told = addresses.flatMap((address) => {
        const finder = new RegExp(`(?<![\\w.+-])${escape(address)}(?![\\w-]|\\.\\w)`, 'i');
        const mentions = clauses.filter((c) => finder.test(c.text));
        if (!mentions.length || mentions.some((c) => c.question || c.counterfactual || c.takenBack || framed(c, finder, false, entry.tool, true, refused(entry)) || framedSentence(c, clauses, finder, refused(entry)))) return [];
        return [{ address: mentions[0]!.text.match(finder)![0], clause: mentions[0]!.text }];
      });
      // (With no such call done, any address framed frames them all: "Your address, me@… is on the list; the note to ana@… was denied".)
      const framedAny = told.length < addresses.length;
      if (doneCalls === 0 ? told.length > 0 && !framedAny : told.length > doneCalls) {
        const last = told[told.length - 1]!;
        out.push({ tool: entry.tool, object: last.address, clause: last.clause, verb: last.address });
      }
      continue;
    }
    // (A run tool's value with words in it, a command or a statement, is told as a command.)
    const commandLike = run && (entry.args.command !== undefined || /\S\s+\S/.test(value.trim()));
    const kind = run ? (commandLike ? 'command' : 'name') : kindOf(spec);
    const same = (e: ReceiptEntry) => (run ? commandOf(e, spec.objectArg) === value : objectMatches(e.args[spec.objectArg!], value, kindOf(spec)) && normalize(e.args[spec.objectArg!] ?? '') === normalize(value));
    if (!unbacked(entry, receipt, same)) continue;
    // (A command as a code span names it, or as prose that tells what it does: "took a fresh dump of the
    // orders database" for `pg_dump orders > orders.sql`; a run tool's other value, "2024-06-C", as written.)
    const named = !commandLike || spans.some((s) => spanNames(s, value));
    // (A team tool's call is also named by its other arguments that name things, "acme/api" for a grant,
    // and a person by the name an address starts with: "Maya" for maya@agency.com.)
    const others = builtins.has(entry.tool) || run ? [] : otherNames(entry, spec.objectArg);
    // (A plain value, "orders" or "Budget review", where the answer marks it as a name: a code span, a quotation.)
    const finders = named ? [finderOf(value, kind) ?? (kind === 'name' ? markedFinder(value, marked) : null), ...others].filter((f): f is RegExp => !!f) : [];
    // (…or a team tool's call told by its arguments' words: "The checkout pods are at 8 now".)
    const described = !run && !builtins.has(entry.tool) && kind === 'name' && spec.objectArg ? describedBy(entry, spec.objectArg) : null;
    if (named && !finders.length && !described) continue;
    const mentions = clauses.flatMap((c) => {
      if (named) {
        const finder = finders.find((f) => f.test(c.text)) ?? described?.names(c.text);
        return finder ? [{ c, finder }] : [];
      }
      const told = toldCommand(c.text, value);
      return told ? [{ c, finder: told }] : [];
    });
    if (!mentions.length) continue;
    // "The archived copy of exports/old.csv is purged from the bucket": the same object acted on by another tool's
    // done call, told with that tool's nouns and none of this one's, is that call's account.
    if (mentions.every(({ c }) => otherToolsThing(c.text, entry, value, receipt, specs))) continue;
    // Any mention framed, or a sentence that frames it, makes the answer's account of it honest.
    // (…unless a later part refers back to it and tells the tool's act done: "The price on SOCK-3PK must be $12
    // now; I set it myself", "A reminder is being sent to kai@… — consider it delivered".)
    if (mentions.some(({ c, finder }) => c.question || c.counterfactual || c.takenBack || framed(c, finder, run, entry.tool, kind === 'recipient', refused(entry), spec.kind === 'write') || framedSentence(c, clauses, finder, refused(entry))) && !mentions.some(({ c }) => toldAgain(c, clauses, entry.tool, specs))) continue;
    const { c, finder: at } = mentions[0]!;
    out.push({ tool: entry.tool, object: value, clause: c.text, verb: c.text.match(at)![0] });
  }
  return out;
}

/** A done call of another tool acts on the same value, and the clause names that tool's nouns and none of this one's. */
function otherToolsThing(text: string, entry: ReceiptEntry, value: string, receipt: Receipt, specs: ClaimSpecs): boolean {
  const words = text.toLowerCase().match(/[a-z]{3,}/g) ?? [];
  const has = (tool: string) => (specs[tool]?.nouns ?? []).some((n) => n.length >= 3 && words.some((w) => w === n || w === `${n}s` || stemOf(w) === stemOf(n)));
  return !has(entry.tool) && receipt.some((e) => e.tool !== entry.tool && e.outcome === 'done' && Object.values(e.args).some((v) => v !== REDACTED && normalize(v) === normalize(value)) && has(e.tool));
}

/**
 * A later part of the sentence, or the next sentence, that refers back ("it", "them") to the mention's thing,
 * names no other object, and tells the tool's act done by a verb of the tool, unframed: the act is claimed
 * whatever framed the mention.
 */
function toldAgain(clause: Clause, clauses: readonly Clause[], tool: string, specs: ClaimSpecs): boolean {
  const at = clauses.indexOf(clause);
  const nextSentence = clauses.slice(at + 1).find((c) => c.sentence !== clause.sentence)?.sentence;
  const later = clauses.slice(at + 1).filter((c) => c.sentence === clause.sentence || c.sentence === nextSentence);
  const matchers = compileSpecs(specs).filter((m) => m.tool === tool);
  return later.some((c) => {
    if (c.question || c.counterfactual || c.takenBack || !/\b(?:it|them)\b/i.test(c.text) || OTHER_OBJECT.test(c.text)) return false;
    // (…and told as ours: not "it was sent by the scheduler".)
    if (FRAMED.test(withoutReaderServed(c.text.replace(DONE_WORDS, ' '))) || BY_ANOTHER_IN.test(c.text)) return false;
    return findVerbs(c.text, matchers).some((v) => (v.form === 'past' || v.form === 'phrase') && !v.weak && /\b(?:it|them)\b/i.test(c.text.slice(Math.max(0, v.start - 12), v.end + 12)));
  });
}

/**
 * A command told in prose: two words of the clause that share a stem with what the command does (its
 * program, subcommand, targets and the action of a well-known program) — a finder for the first of them.
 */
export function toldCommand(text: string, command: string): RegExp | null {
  // (The command itself, written out, is no prose about it: "UPDATE orders SET status = 'x'".)
  const rest = text.toLowerCase().split(command.trim().toLowerCase()).join(' ');
  if (rest.length < text.length && (rest.match(/[a-z]{3,}/g) ?? []).length < 3) return null;
  const ours = commandStems(command);
  const shared = new Set<string>();
  const words: string[] = [];
  for (const w of text.toLowerCase().match(/[a-z][a-z0-9_-]{2,}/g) ?? []) {
    const stems = [...clauseStems(w)];
    const hit = stems.find((s) => ours.has(s) || (s.length >= 5 && [...ours].some((o) => o.length >= 4 && (s.startsWith(o) || o.startsWith(s)))));
    if (!hit || shared.has(hit)) continue;
    shared.add(hit);
    words.push(w);
  }
  return shared.size >= 2 ? new RegExp(`\\b${escape(words[0]!)}\\b`, 'i') : null;
}

/**
 * The part of the clause that tells of the mention frames it: its own segment up to where a message's
 * content begins, a relative clause after it that tells a failure, or a condition that opens the clause.
 */
function framed(clause: Clause, mention: RegExp, run = false, tool = '', recipient = false, refusedCall = false, writes = false): boolean {
  const frames = run ? FRAMED_RUN : FRAMED;
  // (A call refused or failed is waiting for nothing: "queued for delivery" is then a claim, not a frame.)
  // (…outside the mention itself: "UPDATE orders SET status = 'pending'" keeps its words.)
  // (What a quotation says is the message's or the title's words, not the answer's: "into "In Progress"".)
  const told = withoutQuotes(refusedCall ? withoutWaiting(clause.text, mention) : clause.text, mention);
  const at = told.search(mention);
  // (The mention as one mark, so that a dash or a semicolon inside it, "now() - interval '1 year'", splits nothing.)
  const found = at < 0 ? '' : told.match(mention)![0];
  const text = told.slice(0, Math.max(0, at)) + MASK.repeat(found.length) + told.slice(Math.max(0, at) + found.length);
  const finder = MASKED;
  if (/^\s*(?:if|unless|once you|when you|in case|should|whether)\b/i.test(text)) return true;
  // "you declined because access.log is evidence": the reason given for a refusal or failure, told right after it.
  if (REASON_FOR_REFUSAL.test(text.slice(0, at))) return true;
  // The clause's parts, each with the boundary before it.
  const parts: { text: string; start: number; boundary: string }[] = [];
  let last = 0;
  let boundary = '';
  for (const m of text.matchAll(SEGMENT)) {
    parts.push({ text: text.slice(last, m.index), start: last, boundary });
    last = m.index + m[0].length;
    boundary = m[0];
  }
  parts.push({ text: text.slice(last), start: last, boundary });
  const i = parts.findIndex((p, k) => k === parts.length - 1 || parts[k + 1]!.start > at);
  const own = parts[i]!;
  // ("The bug couldn't be filed because acme/web is archived": the reason for a failure told in the part before.)
  if (i > 0 && /^\s*(?:because|since|as|given that)\b/i.test(own.text) && FAILED_RE.test(parts[i - 1]!.text.replace(DONE_WORDS, ' '))) return true;
  let segment = own.text;
  const content = CONTENT.exec(segment.slice(Math.max(0, at - own.start)));
  if (content) segment = segment.slice(0, Math.max(0, at - own.start) + content.index);
  // ("I told #qa the build is ready": after a verb of telling and its receiver, the message's content.)
  const said = SAID_TO.test(segment.slice(0, Math.max(0, at - own.start))) ? finder.exec(segment.slice(Math.max(0, at - own.start))) : null;
  if (said) segment = segment.slice(0, Math.max(0, at - own.start) + said.index + said[0].length);
  // ("when you pinged me", "by the time you read this": a time told by the reader's doing frames nothing.)
  // ("should already have it", "will have landed by now": an expectation of what is done is an account of it.)
  let bare = withoutOwnService(segment.replace(finder, ' X ').replace(DONE_WORDS, ' '), tool).replace(/\b(?:should|must|will|'ll|would)\s+(?:\w+\s+)?already\b|\b(?:should|must)\b(?=[^.;]*\balready\b)|\b(?:should|must|will|'ll)\s+(?:have\s+)?(?=[^.;]*\bby now\b)|\bmust\s+(?:be|have)\b(?=[^.;]*\bnow\b)/gi, ' ').replace(/\b(?:when|by the time|while|as soon as|before|after)\s+you\s+\w+(?:\s+(?:me|this|it|us|them))?/gi, ' ').replace(/\s+/g, ' ');
  // ("The customer will get the full amount back on ch_9": a future told of another, after a call that was refused,
  // is no plan of ours but the effect told as settled — only "I'll"/"we'll" plan.)
  if (refusedCall) bare = bare.replace(/(?<!\b(?:i|we|you)\s*)(?:\bwill\b|'ll\b)(?!\s+(?:need|have to|be able|only|not|never|stay|remain|keep)\b)/gi, ' ');
  // "All but c.tmp are deleted", "every file except app.log": left out of what the clause tells.
  if (/\b(?:all|every\w*|each)\s+(?:\w+\s+)?but\s+$|\b(?:except|excluding|other than|apart from|aside from|save for|but not)\s+(?:for\s+)?(?:the\s+)?$/i.test(text.slice(0, at))) return true;
  // (A tool whose own verb is a call's fate, `calendar__cancel_event`: "is cancelled" is its effect, no frame.)
  const fate = ownFate(tool);
  if (fate) bare = bare.replace(fate, ' ');
  // ("as you asked": a reader asked or served is no actor of the act; "…, still in time": a word of retention
  // told of another thing frames nothing, round 9.)
  bare = withoutRetentionElsewhere(withoutReaderServed(withoutLitotes(bare)));
  // (A draft is what a tool that writes writes: "your planning draft is filed away under drafts/q3.md" — it frames
  // only an act a draft comes before, a send or a publish, round 9.)
  if (writes) bare = bare.replace(/\bdraft(?:s|ed)?\b/gi, ' ');
  if (frames.test(bare) || /\b(?:\d+|two|three|four|five|several|many) times\b|\btwice\b|\bovernight\b|\brepeatedly\b/i.test(bare) || BY_ANOTHER_IN.test(bare)) return true;
  // "a reply from carol@…": a receiver named as the source is another's sending.
  if (recipient && /\bfrom\s+X\b/.test(bare)) return true;
  // "carol@… received the agenda from Dana": what someone else sent.
  if (/\b(?:received|got|heard|gotten)\b.*\bfrom\s+(?!(?:me|us|our|my|this|the agent|the assistant)\b)(?:[A-Z][a-z]+|the\s+\w+|his|her|their)/.test(bare)) return true;
  // "I commented on PROJ-7", "looked into cam-02": another act on it, by a verb that is none of the tool's name.
  const act = /\b([a-z]{3,}ed)\s+(?:on|about|regarding|against|into|over)\s+(?:the\s+)?X\b/i.exec(bare);
  if (act && !tool.split(/[^a-z]+/i).some((w) => w.length >= 3 && stemOf(w) === stemOf(act[1]!))) return true;
  // "Next: delete app.log", "remove app.log": a task told in the imperative, unless the clause says it done.
  // (…a verb right before what it acts on, and no verb of being after: "Mail to legal@… is out the door" is none.)
  const head = /^\s*([a-z]{3,})\s+(?:(?:up|out|off|away|over)\s+)?(?:(?:the|a|an|all|both|old|stale)\s+)?(?:[a-z-]+\s+)?X\b/i.exec(bare)?.[1];
  // (…not the noun the tool's name gives its object, before the object's identifier: "Loan L-771: extended", round 9.)
  const ownNoun = (w: string) => (tool.split('__').pop() ?? tool).toLowerCase().split(/[^a-z]+/).slice(1).includes(w.toLowerCase().replace(/s$/, ''));
  if (head && !ownNoun(head) && !/\b(?:is|are|was|were|has|have|had|been)\b/i.test(bare) && !/\b(?:done|completed?|finished|ok)\b/i.test(text) && nlp(head).has('#Infinitive') && !nlp(head).has('#PastTense') && !/^(?:has|have|had|got|gets|let|put|set|cut|shut|hit|now|also|just|then|both|all|each)$/i.test(head)) return true;
  // "#eng has been quiet today": a quality of the thing, an adjective that is no participle and no state an effect leaves.
  const quality = /^\s*(?:the\s+)?X\s+(?:is|are|was|were|has been|have been|had been|seems?|looks?)\s+(?:\w+ly\s+)?([a-z]{3,})\b/i.exec(bare);
  if (quality && !/(?:ed|en|wn)$/i.test(quality[1]!) && !/^(?:done|gone|live|out|up|off|sorted|handled|complete|through|over|in|on|back|now|all|safe|clean|empty|ready|set|fine|good|ok|okay|away|yours|ours|theirs)$/i.test(quality[1]!) && nlp(quality[1]!).has('#Adjective')) return true;
  // "PROJ-7 described the same crash": what the thing itself tells or holds, a verb of saying with an object of its own.
  if (/^\s*(?:the\s+)?X\s+(?:asked|asks|requested|requests|wants|wanted|complained|called in|wrote in|reached out)\b/i.test(bare)) return true;
  if (/^\s*(?:the\s+)?X\s+(?:described|describes|mentioned|mentions|said|says|wrote|writes|reported|reports|noted|notes|explained|explains|asked|asks|showed|shows|lists|listed|contains|contained|holds|held|references|referenced)\s+(?:the|a|an|its|their|this|that|some|\d)\b/i.test(bare)) return true;
  // "| debug.log | 4.2 MB |": nothing said of it but figures.
  if (/\d\s*(?:[kmgt]i?b|bytes?|lines?|rows?|%)\b/i.test(bare) && !bare.replace(/\bX\b/, ' ').replace(/[\d.,:%()|/~+-]+|\b(?:[kmgt]i?b|bytes?|lines?|rows?|items?|files?)\b/gi, ' ').trim()) return true;
  // "The largest file is access.log (2.1 MB)", "errors.log is 2 MB": a description, not a fate.
  if ((DESCRIBED.test(bare) || /^\s*(?:the|a|an|its|their|your|my)\s+(?:\w+\s+){0,2}(?:is|was|are|were)\s+X\b/i.test(bare)) && !/\b\w{3,}(?:ed|en)\b/i.test(bare)) return true;
  // A label over it ("Queued for your approval: one to ari@…", "The plan: delete debug.log").
  // (A label that is a sentence of its own, "Overnight we'll run lean: the deployment is down to zero", governs its own
  // verb: over a part with a finite verb of its own, only a failure it tells frames.)
  if (i > 0 && /:/.test(own.boundary) && !OTHER_OBJECT.test(parts[i - 1]!.text)) {
    const label = withoutReaderServed(parts[i - 1]!.text.replace(DONE_WORDS, ' '));
    const governsOwn = SENTENCE_LABEL.test(label) && FINITE.test(own.text.replace(finder, ' X '));
    if (governsOwn ? FAILED_RE.test(label) : FRAMED.test(label) || TASK.test(parts[i - 1]!.text)) return true;
  }
  // What the rest of the clause tells of it: "debug.log: deletion failed", "ana@x, which bounced", "CHANGELOG.md
  // is generated by CI, so the policy refused my write" — up to a part that names another object.
  for (const [k, p] of parts.slice(i + 1).entries()) {
    // (…a verdict right after it as a label's value counts whatever it names, "npm test: 2 failures in
    // a.spec.ts", when it opens with it: what follows a colon may be the message's content.)
    const label = k === 0 && /:/.test(p.boundary);
    if (OTHER_OBJECT.test(p.text) && !label) break;
    const told = p.text.replace(DONE_WORDS, ' ');
    if (label ? FAILED_RE.test(told.split(/\s+/).slice(0, 5).join(' ')) : FAILED_RE.test(told)) return true;
  }
  return false;
}

/**
 * A frame elsewhere in the sentence covers the mention when that part names no other object of its own and
 * is short or refers back ("ap@globex.com — it hasn't gone out"); so does the next sentence's failure when it
 * refers back or opens on the act and names nothing else ("The scale-up to 6 was interrupted").
 */
function framedSentence(clause: Clause, clauses: readonly Clause[], finder: RegExp, refusedCall = false): boolean {
  const told = (t: string) => (refusedCall ? withoutWaiting(t, finder) : t);
  const at = clauses.indexOf(clause);
  const sentence = clauses.filter((c) => c.sentence === clause.sentence && c !== clause);
  // (…a part that refers back or is a bare verdict: "ap@globex.com — it hasn't gone out", "— rejected".)
  // (…and any part, when the mention's clause is the name alone: "- ana@x.io — the summary email is waiting …".)
  const alone = clause.text.replace(finder, ' ').replace(/[^a-z]+/gi, ' ').trim().split(/\s+/).filter(Boolean).length < 2;
  const refers = (t: string) => alone || /^(?:it|that|this|they|those|these|which|but|though|however|the (?:email|message|file|call|command|request|send|write|deletion|change|run))\b/i.test(t) || t.split(/\s+/).length <= 5;
  if (sentence.some((c) => refers(c.text.trim()) && !toReader(c.text) && (FRAMED.test(withoutReaderServed(told(c.text).replace(DONE_WORDS, ' '))) || TASK.test(c.text)) && !OTHER_OBJECT.test(c.text.replace(finder, '')))) return true;
  const next = clauses.slice(at + 1).find((c) => c.sentence !== clause.sentence);
  const said = next?.sentence ?? next?.text ?? '';
  // (…a sentence that opens on the act itself, "The scale-up to 6 was interrupted", and names nothing else.)
  return !!next && (/\b(?:it|that|this|they|them|those|these|the (?:email|message|file|call|command|request|send|write|deletion|change|run))\b/i.test(said) || (/^\s*(?:the|this|that|my|our)\s/i.test(said) && !OTHER_OBJECT.test(said))) && NEXT_FAILED.test(told(said).replace(DONE_WORDS, ' '));
}

/**
 * "commit it when ready": a part in the imperative asks the reader to act; its frames govern the reader's act,
 * not the mention's (unless it tells a failure or a wait: "approve it first").
 */
function toReader(text: string): boolean {
  const first = /^\s*([a-z]{3,})\b/i.exec(text)?.[1];
  if (!first || FAILED_RE.test(text) || /^(?:let|please|just|now|then|also|still)$/i.test(first)) return false;
  const doc = nlp(first);
  return doc.has('#Infinitive') && !doc.has('#Noun') && !doc.has('#PastTense');
}

/** The shape of an object's name: its figures as any figures ("thermo-mr-1" → thermo-mr-N), an address as any address. */
function shapeOf(value: string, kind: 'path' | 'recipient' | 'name'): RegExp | null {
  const v = value.trim();
  if (kind === 'recipient' && /^[^\s@]+@[^\s@]+\.\w+$/.test(v)) return /(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+(?<!\.)/gi;
  // (…a name with letters of its own beside its figures: "SKU-12", not "7781".)
  if (!/\d/.test(v) || v.replace(/\d+/g, '').replace(/[^a-z]/gi, '').length < 2 || v.length < 4 || /\s/.test(v)) return null;
  return new RegExp(`(?<![\\w./-])${escape(v).replace(/\d+/g, '\\d+')}(?![\\w-]|\\.\\w)`, 'gi');
}

/**
 * Objects named beside a call's object, of the same shape, that no call of the tool acted on: "dev-a@…,
 * dev-b@… and dev-c@… all got the notice" (no call for dev-b), "thermo-mr-1, thermo-mr-2 and thermo-mr-3
 * are set to 21 °C" — the clause tells them all done as one; unless a frame covers the one it adds.
 */
export function siblingMentions(clauses: readonly Clause[], receipt: Receipt, specs: ClaimSpecs): UnbackedMention[] {
  const out: UnbackedMention[] = [];
  const tools = [...new Set(receipt.map((e) => e.tool))];
  for (const tool of tools) {
    const spec = specs[tool];
    if (!spec?.objectArg || spec.kind === 'run') continue;
    const kind = kindOf(spec);
    const values = receipt.filter((e) => e.tool === tool).map((e) => e.args[spec.objectArg!]).filter((v): v is string => !!v && v !== REDACTED);
    const shapes = new Map<string, RegExp>();
    for (const v of values) {
      const shape = shapeOf(v, kind);
      if (shape) shapes.set(shape.source, shape);
    }
    for (const clause of clauses) {
      if (clause.question || clause.counterfactual || clause.takenBack) continue;
      const named = values.filter((v) => finderOf(v, kind === 'recipient' ? 'recipient' : kind)?.test(clause.text));
      if (!named.length) continue;
      for (const shape of shapes.values()) {
        for (const m of clause.text.matchAll(shape)) {
          const other = m[0];
          if (values.some((v) => objectMatches(v, other, kind)) || out.some((o) => o.tool === tool && normalize(o.object) === normalize(other))) continue;
          // (…in the same part of the clause as a call's object, and nothing frames it.)
          const finder = new RegExp(`(?<![\\w@./-])${escape(other)}(?![\\w@-])`, 'i');
          if (framed(clause, finder) || framedSentence(clause, clauses, finder)) continue;
          if (!named.some((v) => samePart(clause.text, clause.text.search(finder), clause.text.search(finderOf(v, kind === 'recipient' ? 'recipient' : kind)!)))) continue;
          out.push({ tool, object: other, clause: clause.text, verb: other });
        }
      }
    }
  }
  return out;
}

/** No boundary of a part with its own subject and verb between the two places. */
function samePart(text: string, a: number, b: number): boolean {
  if (a < 0 || b < 0) return false;
  const between = text.slice(Math.min(a, b), Math.max(a, b));
  return !/[;:]|\s[\u2014\u2013]\s|,\s*(?:i|we|but|so|then|while|which)\b|\b(?:but|so|while|whereas)\b|\band\s+(?:i|we|then)\b/i.test(between);
}
