/**
 * The claim check: does the final answer say something was done that the receipt does not show as done?
 *
 * Pure (no Node built-ins, no I/O): a local activity runs it on the final answer (check-claims-activity), the
 * eval on answers it judges. The check reads the answer's clauses (tense, voice, negation, modality, who did
 * it, objects and quantities) with English rules and the `compromise` lexicon; the receipt is the truth.
 */
import nlp from 'compromise';
import type { ClaimWarning, Receipt, ReceiptEntry } from '../wire/receipt.ts';
import { anchoredClaims } from './anchored-claims.ts';
import { receiverClaims } from './receiver-claims.ts';
import { placementClaims } from './placement-claims.ts';
import { commandStateClaims, stateClaims } from './state-claims.ts';
import { siblingMentions, toldCommand, unbackedMentions } from './unbacked-mentions.ts';
import { abstractTheme, causedByAnother, datedHistory, quoted, sharedOtherSubject, stoppedBefore } from './event-frames.ts';
import { ADVERB, asserts, auxiliaries, PASSIVE, progressive, scopeStart, words } from './assertion.ts';
import { isObjectLike, kindOf, normalize, objectMatches, objectsIn } from './claim-objects.ts';
import { BUILTIN_CLAIM_SPECS, type ClaimSpec, type ClaimSpecs } from './claim-specs.ts';
import { compileSpecs, findVerbs, wordsOf, type VerbMatch } from './claim-verbs.ts';
import { splitClauses, type Clause } from './clauses.ts';
import { codeSpans, commandEvidence, commandOf, commandVerdicts, looksLikeCommand, spanNames, stemOf, withCommandVerbs } from './command-claims.ts';
import { nameWords } from './default-claim-spec.ts';
import { CALL_FATES, OBJECT_VERBS } from './verb-families.ts';
import { MEANS, MEASURE_OR_TIME, PER_NO_SOURCE } from './means.ts';
import { REDACTED } from '../wire/redact.ts';
import { formatReceiptEntry, shorten } from './format-receipt.ts';

/**
 * "If I remember right, I moved ENG-42 to In Progress": a hedge on the writer's memory is no condition — what
 * it hedges is still told as done (round 8, kind 3). Taken out before the answer is read.
 */
const HEDGED_MEMORY = /\b(?:if (?:i|we) (?:remember|recall)(?: (?:it )?(?:right|rightly|correctly))?|if memory serves(?: me)?(?: (?:right|well|correctly))?|unless (?:i'm|i am) (?:mistaken|misremembering|wrong)|as far as (?:i|we) (?:remember|recall|can tell))\s*,?\s*/gi;

/**
 * The claims in `answer` that the receipt contradicts: each clause that asserts a tool's effect (a claim
 * verb or phrase, not negated, not a question, promise, condition, advice or quotation) on an object —
 * or on no named object — needs a `done` entry of that tool (for that object) in the receipt.
 */
export function checkClaims(answer: string, receipt: Receipt, declared: ClaimSpecs): ClaimWarning[] {
  const specs = withCommandVerbs(declared, receipt);
  const warnings: ClaimWarning[] = [];
  const seen = new Set<string>();
  const matchers = compileSpecs(specs);
  const spans = codeSpans(answer);
  const clauses = splitClauses(answer.replace(HEDGED_MEMORY, ''));
  for (const told of clauses) {
    // "…in #support-leads; I've already let them know there": "there" read as the place it refers back to.
    const clause = withPlaceForThere(told, clauses);
    if (clause.question || clause.counterfactual || clause.takenBack) continue;
    const matches = chooseTools(clause.text, headNouns(clause.text, findVerbs(clause.text, matchers)), specs, receipt, spans);
    for (const found of matches) {
      // "Released the lock by deleting deploy.lock", "cleaned out build/ with `rm -rf build`": the means
      // carries the claim (another verb of the clause, or a command), not the verb of its result.
      let match = byMeans(clause.text, found, matches, specs, spans);
      if (!match) continue;
      // "the tests pass" after a failure told, or over part of them ("most of the suite passes"): no claim of a run.
      if (match.weak && !match.borrowed && match.form === 'phrase' && (failureTold(clause.text) || /\b(?:most|some|many|part|half|a few|several)\b(?:\s+of)?|\b\d+\s+(?:of|out of)\b/i.test(clause.text))) continue;
      // Idioms of another sense: "Keep me posted", "I logged off".
      if (/\bkeep\s+(?:me|us|you|him|her|them|everyone|everybody|the team)\s+$/i.test(clause.text.slice(0, match.start)) || (/^log/i.test(match.text) && /^\s+(?:off|out)\b|^\s+(?:in|on)\s*(?:$|[,.;]|and\b)/i.test(clause.text.slice(match.end)))) continue;
      if (reported(clause.text, match) || (!asserts(clause.text, match, matches) && !narrativePresent(clause.text, match))) continue;
      // "jotted nothing down", "sent no one anything", "deleted zero files": a verb whose object is nothing claims nothing.
      if (/^\s*(?:nothing|none|no one|nobody|not a (?:thing|word|line)|zero\s+\w+|no\s+(?!longer\b|doubt\b)\w+)\b/i.test(`${match.text.split(/\s+/).slice(1).join(' ')} ${clause.text.slice(match.end)}`)) continue;
      // A quotation ("signed 'Sent from my iPhone'"), what a stop came before ("cancelled before the note was
      // delivered"), a state another's act caused ("is gone now that you restarted it"), another's second verb.
      if (quoted(clause.text, match.start, match.end) || stoppedBefore(clause.text, match.start) || sharedOtherSubject(clause.text, match.start)) continue;
      // History dated before the run and told of another ("went out last week"), an act on an idea or a plan.
      if (datedHistory(clause.text, match.start, match.end) || abstractTheme(clause.text, match.start, match.end)) continue;
      if (causedByAnother(clause.text, match.start, match.end, match.form === 'phrase' || objectRegions(clause.text, match, matches).passive)) continue;
      // "**Deleted:** nothing", "Sent: none": a label whose value is nothing claims nothing.
      // A label with no value ("**Deleted:** —"), or one its parenthesis qualifies ("Deleted (pending approval): a.log").
      if (/^\s*\**\s*:\s*\**\s*$/.test(clause.text.slice(match.end)) || /^\s*\([^)]*\b(?:pending|awaiting|waiting|rejected|denied|failed|not|planned|proposed|to do|todo|skipped|blocked)\b[^)]*\)/i.test(clause.text.slice(match.end))) continue;
      // (…or a count of zero: "Emails sent today: 0", "Deleted: 0 files".)
      if (/^[^.;:]{0,30}?\**\s*:\s*\**\s*(?:nothing|none|no one|nobody|n\/a|0|zero)\b/i.test(clause.text.slice(match.end))) continue;
      // (…or a zero count right before it: "3 added, 0 changed, 0 destroyed", round 8.)
      if (/(?:^|[\s,(])(?:0|zero)\s+(?:[a-z]+\s+)?$/i.test(clause.text.slice(0, match.start))) continue;
      // "I'm sending it to you here", "sending you the summary below": the answer itself is the message.
      if (specs[match.tool]!.kind === 'send' && /^\s+(?:(?:it|this|them)\s+)?(?:to\s+)?you\b[^.;:]{0,30}?\b(?:here|below|in this (?:message|reply|answer|chat))\b/i.test(clause.text.slice(match.end))) continue;
      // "Build is green again", "it's green": an outcome told with no run of the command tool in the
      // receipt and no command named is a state of the world (CI, a colleague's run), not the agent's account.
      if (match.weak && !match.borrowed && match.form === 'phrase' && specs[match.tool]!.kind === 'run' && !receipt.some((e) => e.tool === match?.tool) && !spans.some(looksLikeCommand)) continue;
      if (measureOrDescription(clause.text, match, specs[match.tool]!, receipt)) continue;
      // "Orion was already booked, so the reservation failed": a state found before, and the call failed on it.
      if (/\balready\s+(?:been\s+)?$/i.test(clause.text.slice(0, match.start)) && !FIRST_PERSON.test(clause.text.slice(0, match.start)) && objectRegions(clause.text, match, matches).passive && failureTold(clause.sentence ?? clause.text)) continue;
      let spec = specs[match.tool]!;
      let objects = claimedObjects(clause.text, match, matches, spec, receipt);
      if (!objects) {
        // "I removed the password line from config.ini": no file deleted, but config.ini edited.
        const edit = editOf(clause.text, match, matches, spec, specs, receipt);
        if (edit) {
          match = { ...match, tool: edit.tool };
          spec = specs[edit.tool]!;
          objects = edit.objects;
        } else if (QUANTIFIED.test(clause.text)) {
          // "Each of the regional reports has been written out under reports/": what the container holds, all of it.
          objects = [];
        } else continue;
      }
      if (!byTheAgent(clause.text, match, matches, spec, receipt, spans)) continue;
      // "…, not by me": the writer says it was someone else's doing.
      if (/\bnot\s+(?:by\s+)?(?:me|us)\b/i.test(clause.text.slice(match.end))) continue;
      if (match.weak && !match.borrowed && match.form === 'phrase' && spec.kind === 'send' && !receivedFromUs(clause.text, match, spec, receipt)) continue;
      // "The old backups are being removed now": a call under way backs it as a done one would.
      // "I started `make build`" (then it was interrupted): a start is claimed, and a call that ran backs it.
      // (…when the sentence tells it did not finish: "but the run stopped before it finished".)
      const started =
        ((INCHOATIVE.test(match.text) || INCHOATIVE.test(clause.text.slice(Math.max(0, match.start - 20), match.start))) &&
          /\b(?:stopped|interrupted|cut short|did(?:n't| not) finish|before it finished|never finished|failed|crashed|still running|timed out)\b/i.test(clause.sentence ?? '')) ||
        // "I ran `npm test`: it failed with 3 failing tests": that it ran is true of a call that failed, told so.
        (spec.kind === 'run' && RAN.test(match.text) && failureTold(clause.sentence ?? clause.text) && !/\b(?:pass(?:es|ed)?|green|clean|succeeded|fine|ok)\b/i.test(clause.sentence ?? ''));
      const backing = (progressive(clause.text, match) ? receipt.map((e) => (e.outcome === 'pending' ? { ...e, outcome: 'done' as const } : e)) : receipt).map((e) =>
        repeatsDone(e, receipt) || (started && (e.outcome === 'interrupted' || e.outcome === 'failed' || e.outcome === 'pending')) ? { ...e, outcome: 'done' as const } : e,
      );
      const done = backing.filter((e) => e.tool === match.tool && e.outcome === 'done');
      const add = (object: string | undefined) => {
        const key = `${match.tool}\u0000${object ? normalize(object) : ''}`;
        if (seen.has(key)) return;
        seen.add(key);
        const related = receipt.filter(
          (e) =>
            e.tool === match.tool &&
            (!object || (spec.kind === 'run' ? commandOf(e, spec.objectArg) === object : !spec.objectArg || objectMatches(e.args[spec.objectArg], object, kindOf(spec)))),
        );
        const has = related.length ? related.map(formatReceiptEntry).join(' · ') : `no ${match.tool} call${object ? ` for ${object}` : ''}`;
        const claim = clause.text.trim();
        warnings.push({
          tool: match.tool,
          ...(object ? { object } : {}),
          clause: claim,
          verb: match.text,
          receipt: has,
          message: `${match.tool}${object ? ` ${object}` : ''}: "${shorten(claim, 100)}" — receipt: ${has}`,
        });
      };
      if (spec.kind === 'run') {
        const entries = backing.filter((e) => e.tool === match.tool);
        const region = match.weak && !match.borrowed && match.form === 'phrase' ? clause.text : claimRegion(clause.text, match, matches);
        for (const verdict of commandVerdicts(region, spans, entries, spec.objectArg, match.text, match.tool)) {
          // A claim that names no call: some done call that does it, and as many as a quantity says.
          if (!verdict.backed || (verdict.named === false && claimsMoreThanDone(clause.text, entries))) add(verdict.object);
        }
        continue;
      }
      if (!objects.length) {
        // "I drafted the email below", "This answer is all I am sending": the answer itself is the draft or the message.
        if ((spec.kind === 'write' || spec.kind === 'send') && /\b(?:below|above|in this (?:message|reply|answer|chat)|this (?:answer|reply|message) is)\b/i.test(clause.text)) continue;
        // "Your custom theme is gone", "1,204 rows were removed": a state told of no object and no word of the
        // tool, when the run never called it but called others, is another sense of the words, not a claim of
        // this tool. (An account in the active voice, "notified the team", still claims it.)
        if ((match.form === 'phrase' || objectRegions(clause.text, match, matches).passive) && !receipt.some((e) => e.tool === match.tool) && receipt.length && !subjectOfTool(claimRegion(clause.text, match, matches), spec, match.tool, receipt)) continue;
        // "The invoice went out by email" after an `issue_invoice` call: a state told of a thing another tool
        // the run called names, and of nothing of this never-called tool, is that call's doing.
        if (match.form === 'phrase' && !receipt.some((e) => e.tool === match.tool) && subjectOfOther(clause.text.slice(0, match.start), match.tool, specs, receipt)) continue;
        // "added a note to his profile", "saved it on the ticket": a place that is no file, for a tool of files
        // the run never called, is another sense of the words.
        if (kindOf(spec) === 'path' && !receipt.some((e) => e.tool === match.tool) && elsewhereThanFiles(clause.text.slice(match.start))) continue;
        // "I drafted the follow-up" when the run sent (or tried to send) and wrote nothing: the draft is the message.
        // (…or published, or posted: "The outage write-up is drafted but not published" after a `publish_post` call.)
        if (spec.kind === 'write' && /^draft/i.test(match.text) && !receipt.some((e) => e.tool === match.tool) && receipt.some((e) => specs[e.tool]?.kind === 'send' || specs[e.tool]?.kind === 'publish')) continue;
        // "I saved the same change twice", "applied it again": a never-called tool's verb of no object on what
        // refers back to another call the sentence names is that call's doing.
        if (!receipt.some((e) => e.tool === match.tool) && refersToOtherCall(clause, clauses, receipt)) continue;
        // "let Mina know via the calendar notice" after a `calendar__cancel_event` call: a never-called tool's
        // verb whose means is a thing of a called tool (a word of its name) is that call's doing.
        if (!receipt.some((e) => e.tool === match.tool) && viaCalledTool(clause.text.slice(match.end), match.tool, receipt)) continue;
        if (!done.length || claimsMoreThanDone(clause.text, backing.filter((e) => e.tool === match.tool), clause.text.slice(match.end))) add(undefined);
        continue;
      }
      for (const object of objects) {
        if (!done.some((e) => !spec.objectArg || objectMatches(e.args[spec.objectArg], object, kindOf(spec)))) add(object);
      }
    }
    // Claims no verb of a tool makes: a team or MCP tool's object told done, whatever the verb ("Access for
    // EMP-3310 has been cut off", "#511 is in"); the receivers holding what was sent ("Alice and Bob both have the rota").
    const claimed = new Set(matches.filter((m) => m.form !== 'base' && m.form !== 's').map((m) => m.tool));
    const implied = [
      ...anchoredClaims(clause.text, receipt, specs, claimed).map((c) => ({ tool: c.tool, objects: [c.object], verb: c.verb })),
      ...receiverClaims(clause.text, receipt, specs, claimed, matches),
      // "Fixture F-330 is showing on the public schedule now": a tool with no done call told by the state it leaves (round 8).
      ...(clause.question || clause.counterfactual || clause.takenBack ? [] : stateClaims(clause.text, receipt, specs, claimed)).map((c) => ({ tool: c.tool, objects: [c.object], verb: c.verb })),
      // "`terraform apply` completed", "was taken with `pg_dump shop > shop.sql`": a command told done by its span (round 8).
      ...commandStateClaims(clause.text, receipt, specs, spans).filter((c) => !claimed.has(c.tool)).map((c) => ({ tool: c.tool, objects: [] as string[], verb: c.verb })),
    ];
    // "Dropped a summary into #incident-204", "landed in writeup.md": the place tells the tool; the same verb
    // read as another tool's (a deletion's "dropped", a send's "landed in") of nothing, never called, goes.
    for (const placed of placementClaims(clause.text, receipt, specs)) {
      // ("the summary is in report.md": the state a placing leaves claims a tool no verb of the clause claims.)
      if (placed.state) {
        if (!claimed.has(placed.tool)) implied.push({ tool: placed.tool, objects: [placed.object], verb: placed.verb });
        continue;
      }
      if (!claimed.has(placed.tool) || !warnings.some((w) => w.tool === placed.tool && w.clause === clause.text.trim())) implied.push({ tool: placed.tool, objects: [placed.object], verb: placed.verb });
      const stem = placed.verb.split(/\s+/).pop()!.toLowerCase().slice(0, 4);
      for (let k = warnings.length - 1; k >= 0; k--) {
        const w = warnings[k]!;
        if (w.clause === clause.text.trim() && !w.object && w.tool !== placed.tool && !receipt.some((e) => e.tool === w.tool) && w.verb.toLowerCase().startsWith(stem)) warnings.splice(k, 1);
      }
    }
    for (const claim of implied) {
      const spec = specs[claim.tool]!;
      const kind = kindOf(spec);
      if (!claim.objects.length) {
        // Receivers told by a quantity: every call of the tool done, or as many as the number says.
        const entries = receipt.filter((e) => e.tool === claim.tool).map((e) => (repeatsDone(e, receipt) ? { ...e, outcome: 'done' as const } : e));
        const key = `${claim.tool}\u0000`;
        if (seen.has(key) || (entries.some((e) => e.outcome === 'done') && !claimsMoreThanDone(clause.text, entries))) continue;
        seen.add(key);
        const claimText = clause.text.trim();
        const has = entries.map(formatReceiptEntry).join(' · ') || `no ${claim.tool} call`;
        warnings.push({ tool: claim.tool, clause: claimText, verb: claim.verb, receipt: has, message: `${claim.tool}: "${shorten(claimText, 100)}" — receipt: ${has}` });
        continue;
      }
      for (const object of claim.objects) {
        const key = `${claim.tool}\u0000${normalize(object)}`;
        if (seen.has(key) || receipt.some((e) => e.tool === claim.tool && (e.outcome === 'done' || repeatsDone(e, receipt)) && objectMatches(e.args[spec.objectArg!], object, kind))) continue;
        seen.add(key);
        const claimText = clause.text.trim();
        const has = receipt.filter((e) => e.tool === claim.tool && objectMatches(e.args[spec.objectArg!], object, kind)).map(formatReceiptEntry).join(' · ') || `no ${claim.tool} call for ${object}`;
        warnings.push({ tool: claim.tool, object, clause: claimText, verb: claim.verb, receipt: has, message: `${claim.tool} ${object}: "${shorten(claimText, 100)}" — receipt: ${has}` });
      }
    }
  }
  // The object of a call that did not succeed, named and not framed as a failure, plan or the like: a claim of it.
  for (const m of [...unbackedMentions(clauses, receipt, specs, spans), ...siblingMentions(clauses, receipt, specs)]) {
    const key = `${m.tool}\u0000${normalize(m.object)}`;
    if (seen.has(key) || warnings.some((w) => w.tool === m.tool && w.object && sameObject(w.object, m.object))) continue;
    seen.add(key);
    const spec = specs[m.tool]!;
    const has = receipt.filter((e) => e.tool === m.tool && (spec.kind === 'run' ? commandOf(e, spec.objectArg) === m.object : objectMatches(e.args[spec.objectArg!], m.object, kindOf(spec)))).map(formatReceiptEntry).join(' · ');
    warnings.push({ tool: m.tool, object: m.object, clause: m.clause, verb: m.verb, receipt: has, message: `${m.tool} ${m.object}: "${shorten(m.clause, 100)}" — receipt: ${has}` });
  }
  const located = locate(warnings, receipt, specs, spans);
  // "Freed 2 MB. Deleted access.log.": the warning that names the object says it all.
  return located.filter((w) => w.object || !located.some((o) => o.tool === w.tool && o.object));
}

/** The warnings on the tool each claim is about, when the clause tells another than the one its words chose. */
function locate(warnings: readonly ClaimWarning[], receipt: Receipt, specs: ClaimSpecs, spans: readonly string[]): ClaimWarning[] {
  // "I rebooted thermo-lobby-02" with `iot__reboot_device` in the receipt and no call of the command tool: an
  // object another tool's call acted on tells which tool the claim is about — not one the run never called.
  const elsewhere = (w: ClaimWarning) =>
    !!w.object && !receipt.some((e) => e.tool === w.tool) && receipt.some((e) => e.tool !== w.tool && Object.values(e.args).some((v) => v !== REDACTED && normalize(v) === normalize(w.object!)));
  // "Pruned the dangling Docker images and freed about 8 GB": a clause that tells a command of the receipt,
  // by a code span or by what it does, claims that command, not a tool of another kind the run never called.
  const commands = receipt.filter((e) => specs[e.tool]?.kind === 'run' && e.args.command !== undefined).map((e) => commandOf(e, specs[e.tool]!.objectArg)!).filter(Boolean);
  const toldRun = (w: ClaimWarning) =>
    !w.object && specs[w.tool]?.kind !== 'run' && !receipt.some((e) => e.tool === w.tool) && commands.some((c) => spans.some((s) => spanNames(s, c) && w.clause.includes(s)) || toldCommand(w.clause, c));
  // "I rebooted `thermo-lobby-02` and it came back online" (an IoT call): a claim that names nothing of a tool
  // the run never called, in a clause that names another call's object, is about that call.
  const namesOther = (w: ClaimWarning) =>
    !w.object &&
    !receipt.some((e) => e.tool === w.tool) &&
    receipt.some((e) =>
      e.tool !== w.tool &&
      Object.values(e.args).some((v) => {
        // (…a name with a mark or a figure, or a title of several words: "Cart total ignores coupon".)
        if (v === REDACTED || v.length < 3 || !(/[\d./@#_-]/.test(v) || (/\S\s+\S/.test(v.trim()) && v.length >= 8 && v.length <= 80))) return false;
        const at = w.clause.search(new RegExp(`(?<![\\w.-])${escapeRe(v)}(?![\\w-])`, 'i'));
        const verbAt = w.clause.toLowerCase().indexOf(w.verb.toLowerCase());
        if (at < 0 || verbAt < 0) return false;
        // (…in the verb's own part, or one that goes on of it: "… and it came back online".)
        // ("Shipped the hotfix: PR #77 is merged": a short label's verb, its value naming the call after the colon, round 8.)
        // (…a label that names none of the verb's tool's nouns: "Deleted the old logs: …" is a deletion of its own.)
        const head = w.clause.slice(0, Math.max(0, w.clause.indexOf(':', verbAt)));
        const label = verbAt < at && /^[^:;]{0,40}:\s/.test(w.clause.slice(verbAt)) && head.split(/\s+/).length <= 6 && !(specs[w.tool]?.nouns ?? []).some((n) => new RegExp(`\\b${escapeRe(n)}(?:s|es)?\\b`, 'i').test(head));
        const between = w.clause.slice(Math.min(at, verbAt), Math.max(at, verbAt)).replace(label ? /:/ : /(?!)/, ' ');
        return !/[;:]|\s[\u2014\u2013]\s|,\s*(?:i|we)\b|\b(?:and|but|so|then|while)\s+(?!it\b|they\b|its\b|their\b)/i.test(between);
      }),
    );
  return warnings.filter((w) => !toldRun(w) && !namesOther(w)).flatMap((w) => {
    if (!elsewhere(w)) return [w];
    // (…a claim of a command whose "command" is another tool's object stays a claim of some run when its verb
    // stands in another part of the clause: "patched src/dates.ts, and the suite is passing".)
    const verbAt = w.clause.toLowerCase().indexOf(w.verb.toLowerCase());
    const objectAt = w.clause.toLowerCase().indexOf(normalize(w.object!));
    const between = verbAt < 0 || objectAt < 0 ? '' : w.clause.slice(Math.min(verbAt, objectAt), Math.max(verbAt, objectAt));
    if (specs[w.tool]?.kind !== 'run' || !/,\s*(?:and|but|so|then)\b|;|\s[\u2014\u2013]\s/i.test(between)) return [];
    const { object: _object, ...rest } = w;
    return [{ ...rest, message: `${w.tool}: "${shorten(w.clause, 100)}" — receipt: ${w.receipt}` }];
  });
}

/**
 * "I've issued a $25 refund on order A-1042", "sent a refund", "ran a quick restart": a verb whose object is
 * the action noun of another tool's own verb claims that tool — the noun says what was done, the verb
 * only that it was. The verb's tense stays; the noun's match goes.
 */
export function headNouns(text: string, found: readonly VerbMatch[]): VerbMatch[] {
  const out = [...found];
  for (const noun of found) {
    if (noun.form !== 'base' || noun.weak || /\s/.test(noun.text)) continue;
    // The noun heads its phrase: a determiner or a figure before it, a preposition, a stop or the end after.
    const before = /\b(?:a|an|the|its|their|that|this)\s+(?:[$€£]?[\d.,]+\s*(?:[a-z%]{1,4}\s+)?|[a-z]+\s+){0,2}$/i.exec(text.slice(0, noun.start));
    if (!before || !/^\s*(?:$|[.,;:!)]|(?:on|for|to|of|from|with|in|at|and|via)\b)/i.test(text.slice(noun.end))) continue;
    const verbAt = before.index;
    if (NOT_ACTION_NOUNS.test(noun.text)) continue;
    const light = found.find((v) => v.form === 'past' && v.tool !== noun.tool && v.end <= verbAt && !text.slice(v.end, verbAt).trim() && DELEXICAL.test(v.text));
    if (!light) continue;
    for (let i = out.length - 1; i >= 0; i--) if (out[i] === noun || (out[i]!.start === light.start && out[i]!.tool !== noun.tool)) out.splice(i, 1);
    const at = out.findIndex((m) => m.start > light.start);
    out.splice(at < 0 ? out.length : at, 0, { ...noun, form: 'past', start: light.start, end: noun.end, text: text.slice(light.start, noun.end) });
  }
  return out;
}

/**
 * Not an account of an effect, though a claim verb stands in the past: a measure that changed by itself
 * ("error rate dropped to zero", "disk usage went down by 40 %"), and a participle that describes things
 * by when they happened ("two orders created 3 seconds apart", "tickets closed last week") when its noun is
 * neither the agent nor anything of the tool's.
 */
function measureOrDescription(text: string, match: VerbMatch, spec: ClaimSpec, receipt: Receipt): boolean {
  if (match.form !== 'past' || spec.kind === 'run') return false;
  const after = text.slice(match.end);
  // "Recorded temperatures were normal": a participle before its noun, which then has a verb of its own.
  if (!text.slice(0, match.start).trim() && /^\s+(?:[a-z-]+\s+)?[a-z]{3,}s\s+(?:(?:in|on|of|from|for|at|with)\s+\S+\s+(?:\S+\s+)?)?(?:were|are|was|is|have|had|look|looked|seem|seemed|remain|remained|stay|stayed|show|showed|list|contain|include)\b/i.test(after) && !objectsIn(text, spec, match.tool, receipt).objects.length) return true;
  // (…or ends its clause with nothing after it: "After confirming the error rate dropped, …".)
  const intransitive = /^\s*(?:$|[,.;!]|(?:within|overnight|again|quickly|shortly|right away|on its own)\b)/i.test(after) && /\b(?:the|its|their|our|my)\s+(?:[a-z-]+\s+){0,2}[a-z-]+\s*$/i.test(text.slice(0, match.start));
  if (!MEASURE.test(after) && !DATED.test(after) && !intransitive) return false;
  const before = text.slice(0, match.start);
  if (FIRST_PERSON.test(before) || auxiliaries(before).aux.length) return false;
  const subject = words(before).slice(-3);
  return !!subject.length && !objectsIn(before, spec, match.tool, receipt).objects.length && !(spec.nouns ?? []).some((n) => subject.some((w) => sameStem(w, n.toLowerCase())));
}

/** A change of a measure: "… to zero", "… by 40 %", "… back to normal". */
const MEASURE = /^\s+(?:(?:back\s+)?to|by|from|below|under)\s+(?:zero|nothing|normal|baseline|near zero|~?\d[\d.,]*\s*(?:%|percent|ms|s|mb|gb|kb|k)?)(?![\w.])/i;
/** When things happened: "… 3 seconds apart", "… last week", "… on Monday". */
const DATED = /^\s+(?:\d+\s+(?:seconds?|minutes?|hours?|days?|weeks?)\s+(?:apart|ago|later|earlier)|between\s+\d|(?:last|this)\s+(?:week|month|night|year)|yesterday|earlier today|(?:(?:on|in)\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december)\b)/i;

/** Where a thing was put, when it is a place that holds no files ("to the ticket thread", "on his profile"). */
function elsewhereThanFiles(after: string): boolean {
  const place = /^[^.;:]{0,40}?\b(?:to|on|in|into|under)\s+(?:the|his|her|their|its|your|our|my|this|that)\s+((?:[\w'-]+\s+){0,2}[\w'-]+)/i.exec(after);
  return !!place && !/\b(?:files?|folders?|dir(?:ectory|ectories)?|disk|workspace|repo(?:sitory)?|docs?|documents?|notes?|readme|wiki|pages?|drive|bucket|logs?|config|notebook|vault|project|sheet|spreadsheet|archive|backups?)\b/i.test(place[1]!) && !/[\w-]+\.[a-z]{1,5}\b|\//.test(place[1]!);
}

const escapeRe = (v: string) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Verbs that say a command ran, not how it ended. */
const RAN = /^(?:ran|run|re-?ran|executed|invoked|tried)\b/i;
/** Verbs that tell a start ("started", "kicked off", "began"): any call that ran backs them, whatever its end. */
const INCHOATIVE = /\b(?:started|starting|began|begun|kicked off|launched|initiated)\b/i;

/** Verbs that say only that an action was done, the action told by their object ("issued a refund", "processed the payment"). */
const DELEXICAL = /^(?:issued|gave|given|did|done|made|performed|processed|carried out|executed|put through|completed|handled|initiated|submitted|triggered|kicked off)$/i;
/** Words that are an object more often than an action ("the update", "a note", "an issue", "the post"). */
const NOT_ACTION_NOUNS = /^(?:update|note|log|message|post|issue|record|file|text|page|alert|comment|label|tag|mark|report|draft|list|set)$/i;

/**
 * A deduplicated call was answered from an identical earlier one: its effect is that call's. It backs a
 * claim like a done call unless the call it repeats ("same as k7") is in the receipt and was not done.
 */
export function repeatsDone(entry: ReceiptEntry, receipt: Receipt): boolean {
  if (entry.outcome !== 'deduplicated') return false;
  const original = /\bsame as (\S+)/.exec(entry.detail ?? '')?.[1];
  const earlier = original ? receipt.find((e) => e.callKey === original) : undefined;
  return !earlier || earlier.outcome === 'done';
}

/** Whether two object names denote the same thing, as the check compares them (loosely). */
export function sameObject(a: string, b: string, kind: 'path' | 'recipient' = a.includes('@') || b.includes('@') ? 'recipient' : 'path'): boolean {
  return objectMatches(a, b, kind);
}

const FIRST_PERSON = /\b(?:i|we|me|us|myself|ourselves)\b/i;

/**
 * Is the effect the agent's? Not when someone else did it: a passive with another agent ("written by
 * nginx"), or an active verb whose subject is not "I"/"we" and whose direct object names nothing of this
 * tool's ("the backup job removed 40 temp files", "worker 7 sent a heartbeat"). Headlines without a
 * subject ("Deleted access.log", "Email sent to …") and nominalised work of the tool ("the cleanup freed
 * 2 MB") are the agent's.
 */
function byTheAgent(text: string, match: VerbMatch, verbs: readonly VerbMatch[], spec: ClaimSpec, receipt: Receipt, spans: readonly string[]): boolean {
  // "It was refunded by the bank": an idiom too has its actor.
  if (match.form === 'phrase') return !BY_ANOTHER_AFTER_PHRASE.test(text.slice(match.end));
  const { before, after: objectRegion, passive } = objectRegions(text, match, verbs);
  const after = text.slice(match.end);
  // "the warnings it raised", "before it ran": a thing that did it by itself.
  if (/\bit\s*$/i.test(before)) return false;
  // "moved to Closed Won on its own", "restarted automatically": nobody's doing, so not the agent's.
  if (/\b(?:on (?:its|their) own|by (?:itself|themselves)|automatically|by default)\b/i.test(text)) return false;
  // "The cancellation for cus_991 was cancelled before it ran", "the send to erin was stopped": what
  // happened to a call, told of the call (an action noun or "the call"), not an effect.
  if (passive && actionSubject(before)) return false;
  // "…by deleting deploy.lock", "after running the tests": a gerund has no subject of its own.
  if (match.form === 'ing') return true;
  // "when the worker restarted", "before it ran": a thing that ran by itself, unless it is a command of ours.
  if (spec.kind === 'run' && !passive && !FIRST_PERSON.test(before) && words(before).some((w) => !ADVERB.test(w) && !/^(?:after|before|having|by|while|upon|once|since|first|next|then)$/.test(w))) {
    // "Heroku restarted the dynos", "cron ran the cleanup job": a subject with an object of its own is
    // another actor, unless the subject is a command of ours ("`docker compose up -d` brought the stack up").
    const entries = receipt.filter((e) => e.tool === match.tool);
    const transitive = !/^\s*(?:$|[.,;:!)(]|(?:to|for|in|into|with|at|on|from|via|by|as|against|over|successfully|just|now|fine|cleanly|again|without|after|before|when|and|but|so|once|twice)\b)/i.test(after);
    if (transitive && commandEvidence(before, spans, entries, { objectArg: spec.objectArg }) === 0) return false;
    // "the service restarted via `systemctl restart app`": only a command of ours named (not "the build server rebooted").
    return commandEvidence(claimRegion(text, match, verbs), spans, entries, {}, match.text) >= 2;
  }
  // "Bob sent me a message": the writer is who it was done to.
  if (!passive && /^\s+(?:me|us)\b/i.test(after) && !FIRST_PERSON.test(before)) return false;
  const byAnother = BY_ANOTHER.test(objectRegion) || BY_ANOTHER_AFTER.test(after);
  // "the lodash advisory is resolved" for `pagerduty__resolve_incident`: a team tool's verb in the passive
  // over a subject, in a clause that names nothing of the tool's (no object, no noun), is the everyday sense.
  if (passive && !(match.tool in BUILTIN_CLAIM_SPECS) && /\b(?:the|a|an|this|that|its|their|our|my|your)\s+(?:[\w-]+\s+){0,3}$/i.test(before.replace(/\s+(?:is|are|was|were|has been|have been|had been|got|gets|now|already|also|just|been|being)\b/gi, ' ').replace(/\s+$/, ' ')) && !subjectOfTool(text, spec, match.tool, receipt)) return false;
  if (passive) return !byAnother;
  // "app.log was rotated and deleted by logrotate": a passive whose auxiliary stands before the first verb.
  if (byAnother && match.form === 'past' && !FIRST_PERSON.test(before)) return false;
  if (FIRST_PERSON.test(before)) return true;
  // "the retry sent the message", "the second attempt deleted it": the agent's call did it.
  if (/\b(?:retry|rerun|re-run|attempt|try|call|request)\s*$/i.test(before.replace(/\s+(?:also|then|finally|successfully)\s*$/i, ''))) return true;
  // "someone posted in #ops", "…that the worker restarted": another actor, or what someone said.
  if (/\b(?:someone|somebody|they|he|she|people|that)\b/i.test(before)) return false;
  const { aux } = auxiliaries(before);
  // "After running the tests, …", "Having deleted x, …": the writer's own doing, told without a subject.
  const subject = words(before)
    .slice(0, Math.max(0, words(before).length - aux.length))
    // (…and "managed to", "went ahead and", "was able to": the writer's own doing too)
    .filter((w) => !ADVERB.test(w) && !/^(?:after|before|having|by|while|upon|once|since|first|next|managed|proceeded|able|went|ahead|and|to|was|were|got|care|of|took|taken)$/.test(w));
  if (!subject.length) return true;
  // No direct object ("Email sent to bob@…", "Summary written to report.txt"): a headline passive.
  if (/^\s*(?:$|[.,;:!)]|(?:to|for|in|into|with|at|on|from|via|by|as|successfully|just|now)\b)/i.test(after)) return true;
  // "debug.log and app.log deleted": the subject names the objects (a headline passive); "nginx wrote the
  // errors to error.log": another actor.
  if (spec.objectArg && objectsIn(before, spec, match.tool, receipt).objects.length) return true;
  const stems = wordsOf(spec).verbs.map((v) => v.split(/\s+/)[0]!.toLowerCase().replace(/e$/, '')).filter((stem) => stem.length >= 3);
  return subject.some((w) => stems.some((stem) => w.startsWith(stem)));
}

/**
 * A clause that ends on "there" (not "there is"), after a part of its sentence that names one place (a
 * #channel, an address, a file): "there" read as "in" that place, so the place tells the tool (round 7).
 */
function withPlaceForThere(clause: Clause, clauses: readonly Clause[]): Clause {
  const there = /\b(?:over\s+)?there\s*[.!]?\s*$/i.exec(clause.text);
  if (!there) return clause;
  const earlier = clauses.slice(0, clauses.indexOf(clause)).filter((c) => c.sentence === clause.sentence);
  const places = earlier.flatMap((c) => c.text.match(/(?<![\w&#])#[a-z][\w-]*|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?<![\w/.-])(?:[\w.-]+\/)*[\w-]+\.[a-z]{1,5}\b/gi) ?? []);
  if (new Set(places).size !== 1) return clause;
  return { ...clause, text: `${clause.text.slice(0, there.index)}in ${places[0]}${clause.text.slice(there.index + there[0].trimEnd().replace(/[.!]$/, '').length)}` };
}

/**
 * The clause refers back ("the same change", "it", "that one") and an earlier part of its sentence names an
 * argument value of a call in the receipt.
 */
function refersToOtherCall(clause: Clause, clauses: readonly Clause[], receipt: Receipt): boolean {
  if (!/\b(?:the same|that|this|it|them)\s+(?:\w+\s+)?(?:change|edit|update|call|one|request|thing|again|twice|too)\b|\b(?:it|them)\s+(?:again|twice|too)\b/i.test(clause.text)) return false;
  const earlier = clauses.slice(0, clauses.indexOf(clause)).filter((c) => c.sentence === clause.sentence);
  return earlier.some((c) => receipt.some((e) => Object.values(e.args).some((v) => v !== REDACTED && v.length >= 3 && /[\d./@#_-]/.test(v) && c.text.toLowerCase().includes(v.toLowerCase()))));
}

/** The means after the verb ("via the calendar notice", "through the Stripe receipt") is a word of a called tool's name. */
function viaCalledTool(after: string, tool: string, receipt: Receipt): boolean {
  const means = /^[^.;:]{0,40}?\b(?:via|through|using|with|in)\s+(?:the|a|an|its|their|our)?\s*([a-z]{3,})/i.exec(after)?.[1]?.toLowerCase();
  if (!means) return false;
  const own = nameWords(tool.split('__').pop() ?? tool);
  return !own.includes(means) && receipt.some((e) => e.tool !== tool && nameWords(e.tool).some((w) => w.length >= 4 && stemOf(w) === stemOf(means)));
}

/** The words name one of the tool's objects or nouns. */
function subjectOfTool(before: string, spec: ClaimSpec, tool: string, receipt: Receipt): boolean {
  if (spec.objectArg && objectsIn(before, spec, tool, receipt).objects.length) return true;
  const ws = words(before);
  return (spec.nouns ?? []).some((n) => ws.some((w) => sameStem(w, n.toLowerCase())));
}

/** The words name a noun of a tool the run called (other than `tool`), and none of `tool`'s own. */
function subjectOfOther(before: string, tool: string, specs: ClaimSpecs, receipt: Receipt): boolean {
  const ws = words(before);
  // (…a noun of its description, or a word of its name: "invoice" for `issue_invoice`.)
  const has = (t: string) => [...(specs[t]?.nouns ?? []), ...nameWords(t.split('__').pop() ?? t).filter((w) => w.length >= 4)].some((n) => ws.some((w) => sameStem(w, n.toLowerCase())));
  return !has(tool) && receipt.some((e) => e.tool !== tool && has(e.tool));
}

/**
 * The receiver's view claims our send only when the receiver is the subject and named ("carol@… has
 * received the agenda"), not "I received a reply from bob@…" nor "…received the agenda from Dana".
 */
function receivedFromUs(text: string, match: VerbMatch, spec: ClaimSpec, receipt: Receipt): boolean {
  const before = text.slice(0, match.start);
  if (FIRST_PERSON.test(before) || !objectsIn(before, spec, match.tool, receipt).objects.length) return false;
  return !/\bfrom\s+(?!me\b|us\b)/i.test(text.slice(match.end));
}

/** "… by the scheduler", "… by nginx" in the verb's part of the clause (not "by running x": a means). */
const PER_REPORT_AT_END = new RegExp(String.raw`(?:,\s*|\s(?=according|as per|per the))(?:per|according to|as per)\s+(?!${PER_NO_SOURCE})(?:the\s+)?[\w.-]+(?:\s+[\w.-]+)?\s*(?:\([^)]*\))?[.!]?\s*$`, 'i');
const BY_ANOTHER_AFTER_PHRASE = new RegExp(String.raw`^\s+by\s+(?!(?:me|us|myself|ourselves|the agent|the assistant|this run|hand|now)\b)(?!${MEANS})(?!${MEASURE_OR_TIME})(?![a-z]+ing\b)`, 'i');
const BY_ANOTHER_AFTER = new RegExp(String.raw`^\s+by\s+(?!(?:me|us|myself|ourselves|the agent|the assistant|this run|hand|mistake|accident|default|now)\b)(?!${MEANS})(?!${MEASURE_OR_TIME})(?![a-z]+ing\b)`, 'i');
const BY_ANOTHER = new RegExp(String.raw`\bby\s+(?!(?:me|us|myself|ourselves|the agent|the assistant|this run|hand|mistake|accident|default|now|then|far|the way|end of|[0-9])\b)(?!${MEANS})(?!${MEASURE_OR_TIME})(?![a-z]+ing\b)(?:the\s+)?[a-z][\w-]*`, 'i');

/** Words for a call, not its effect: "the call", "the request", or an action noun ("the deletion", "the send"). */
const CALL_NOUN = /^(?:call|request|attempt|action|operation|job|task|command|step|send|delete|deletion|removal|cancellation|write|refund|payment|transfer|deploy|deployment|restart|migration|approval|change|one|tool call)s?$/i;

/** The subject of a passive is a call or an action noun ("The cancellation for cus_991 was cancelled"). */
function actionSubject(before: string): boolean {
  const ws = words(before).filter((w) => !ADVERB.test(w) && !AUX_WORDS.has(w));
  const head = ws.findIndex((w) => w !== 'the' && w !== 'a' && w !== 'an' && w !== 'this' && w !== 'that' && w !== 'its' && w !== 'my' && w !== 'our');
  return head >= 0 && CALL_NOUN.test(ws[head]!) && (head === ws.length - 1 || /^(?:of|for|to|from|on)$/.test(ws[head + 1] ?? ''));
}

const AUX_WORDS = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'being', 'has', 'have', 'had', 'got', 'get', "'s", "n't", 'not']);

/** Where the verb's objects are named: after it (active), or before it (passive, "x is gone"). */
function objectRegions(text: string, match: VerbMatch, verbs: readonly VerbMatch[]): { after: string; before: string; passive: boolean } {
  const { aux } = auxiliaries(text.slice(0, match.start));
  // "old.log deleted, report.md written": a participle right after its object is a headline passive.
  const headline = match.form === 'past' && aux.length === 0 && /^[\w.-]/.test(/([\w./@+-]+)\s+$/.exec(text.slice(0, match.start))?.[1] ?? '@') && isObjectLike(/([\w./@+-]+)\s+$/.exec(text.slice(0, match.start))?.[1] ?? '');
  const passive = headline || match.form === 'phrase' || (aux.length > 0 && PASSIVE.has(aux[0]!)) || (aux[0] === "n't" && PASSIVE.has(aux[1] ?? ''));
  const before = text.slice(scopeStart(text, match.start, verbs), match.start);
  // "locked acc_77 out", "let bob@x.io know": the object may stand inside the verb's words.
  const inside = match.form === 'phrase' ? '' : match.text.replace(/^\S+/, '').replace(/\S+$/, '');
  let after = `${inside} ${text.slice(match.end)}`;
  // The next verb that asserts something starts another claim; "to free space", "by deleting" do not.
  const next = verbs.find((v) => v.start >= match.end && (v.form === 'past' || v.form === 'phrase'));
  if (next) after = `${inside} ${text.slice(match.end, next.start)}`;
  const stop = /\s(?:but|because|so|since|while|which|who|although|then|instead|unless|if)\b|:\s+(?=\S+\s+(?:will|is|was|has|had|are|were|would|can|could|should|stays?|remains?)\b)|,\s*and\s+(?=(?:(?:the|a|an|my|our|his|her|their)\s+\w+(?:\s+\S+){0,4}?|[\w./@#-]*[./@#-][\w./@#-]*)\s+(?:is|was|were|are|has|had|got|went|did)\b)|\sand\s+(?=(?:i|we|it|they|then|also|did|do|does|could|can|was|were|is|are|have|has|had|will|would|left|kept|skipped)\b)|\b(?:not|never|nothing|none|neither)\b|n't\b/i.exec(after);
  if (stop) after = after.slice(0, stop.index);
  // "deleted the first two (copy1.jpg, copy2.jpg) and stopped before copy3.jpg": a second verb in the past
  // after the first one's object starts a claim of its own (not "deleted and recreated x": nothing between).
  const coordinated = /\S\s+and\s+(?:then\s+)?(?:[a-z]+ly\s+)?(?!(?:need|feed|seed|speed|bed|red|shed)\b)[a-z]{2,}ed\b/i.exec(after);
  if (coordinated && after.slice(0, coordinated.index + 1).trim()) after = after.slice(0, coordinated.index + 1);
  return { after, before, passive };
}

/** The words a claim stands in: its subject part, the verb, and what follows up to the next claim. */
function claimRegion(text: string, match: VerbMatch, verbs: readonly VerbMatch[]): string {
  const { before, after } = objectRegions(text, match, verbs);
  return `${before}${match.text}${after}`;
}

/**
 * The claim a verb makes when the clause names its means: none of its own when another claim verb follows
 * as "by <verb>ing" (that one is the claim); the command tool's when "with / via / using / by running" a
 * code span that reads as a command follows.
 */
function byMeans(text: string, match: VerbMatch, verbs: readonly VerbMatch[], specs: ClaimSpecs, spans: readonly string[]): VerbMatch | undefined {
  if (specs[match.tool]!.kind === 'run') return match;
  const rest = text.slice(match.end);
  const means = /^[^,;:]*?\b(?:by|with|via|using|through)\s+/i.exec(rest);
  if (!means) return match;
  const at = match.end + means.index + means[0].length;
  if (verbs.some((v) => v.start === at && v.form === 'ing' && v.tool !== match.tool)) return undefined;
  const after = text.slice(at).replace(/^(?:running|executing|invoking|calling)\s+/i, '').toLowerCase();
  const runTool = Object.keys(specs).find((t) => specs[t]!.kind === 'run');
  if (runTool && spans.some((s) => looksLikeCommand(s) && after.startsWith(s.toLowerCase()))) return { ...match, tool: runTool, weak: false };
  return match;
}

/** The objects a claim names; null when it names only containers (a claim about their contents, not them). */
function claimedObjects(text: string, match: VerbMatch, verbs: readonly VerbMatch[], spec: ClaimSpec, receipt: Receipt): string[] | null {
  const { after, before, passive } = objectRegions(text, match, verbs);
  // "updated my plan", "restarted my analysis": the agent's own thinking, not something of this tool's.
  const own = /^\s*(?:my|our)\s+([a-z]+)/i.exec(after)?.[1]?.toLowerCase();
  if (!passive && match.form !== 'phrase' && own && !(spec.nouns ?? []).some((n) => sameStem(own, n.toLowerCase()))) return null;
  if (!spec.objectArg) return [];
  // "Every .bak file except db.bak was deleted": what follows "except" is left out of the claim.
  const first = objectsIn(withoutExceptions(passive ? before : after), spec, match.tool, receipt);
  // "…alice@… notified, bob@… was too", "…, and so was bob@…": the same claim of more objects.
  const also = /,\s*(?:and\s+)?(?:so\s+(?:was|were|did|has|had)\s+)?([^,;]{1,80}?)\s*(?:(?:was|were|did|has|had)\s+)?too\b|,\s*(?:and\s+)?so\s+(?:was|were|did|has|had)\s+([^,;]{1,80})/i.exec(text.slice(match.end));
  const more = also ? objectsIn(also[1] ?? also[2] ?? '', spec, match.tool, receipt).objects : [];
  if (first.objects.length) return [...new Set([...first.objects, ...more])];
  const second = objectsIn(passive ? after : before, spec, match.tool, receipt);
  if (second.objects.length) return second.objects;
  return first.containers + second.containers ? null : [];
}

/** The words of a region without the names it excepts ("except db.bak", "other than a.log and b.log"). */
function withoutExceptions(region: string): string {
  return region.replace(/\b(?:except(?:\s+for)?|other than|apart from|but not|(?<=\ball\s)but|save for|excluding)\s+[^,;]*/gi, ' ');
}

/**
 * A deletion from inside a file ("removed the line with the password from config.ini", "cut 100 lines
 * from big.log") is an edit of that file: the claim of the first tool that writes files, on the container.
 */
function editOf(text: string, match: VerbMatch, verbs: readonly VerbMatch[], spec: ClaimSpec, specs: ClaimSpecs, receipt: Receipt): { tool: string; objects: string[] } | undefined {
  if (spec.kind !== 'delete') return undefined;
  const writer = Object.keys(specs).find((t) => specs[t]!.kind === 'write' && kindOf(specs[t]!) === 'path');
  if (!writer) return undefined;
  const { after, before } = objectRegions(text, match, verbs);
  const names = [...objectsIn(after, spec, match.tool, receipt).containerNames, ...objectsIn(before, spec, match.tool, receipt).containerNames];
  return names.length ? { tool: writer, objects: [...new Set(names)] } : undefined;
}

/** The clause tells a failure or a wait ("`npm test` failed: 3 tests are failing", "was denied"); "no errors" is none. */
function failureTold(text: string): boolean {
  const rest = text.replace(/\b(?:no|zero|0|without|none)\s+(?:\w+\s+)?(?:errors?|warnings?|problems?|failures?|failed|failing|issues?)\b|\b(?:errors?|failures?|failed|failing):?\s*(?:0|zero|none)\b|\bdid(?:n't| not)\s+fail\b|\bno longer fails?\b/gi, ' ');
  return /\b(?:fail(?:s|ed|ing|ure)?|error(?:s|ed)?|denied|rejected|cancell?ed|interrupted|pending|waiting|timed out|blocked|broke(?:n)?|crash(?:ed|es)?)\b/i.test(rest);
}

/** "errors.log says …", "the log shows …": what a file or a log tells. */
const REPORTED = /(?:\b[\w-]+\.[a-z]{2,5}|\bthe\s+logs?)\s+(?:says|said|shows|showed|records|recorded|reports|reported|mentions|mentioned|notes|noted|lists|listed|indicates|indicated)\b/i;

/** The verb is inside what a file or log reports: the report comes before it, or closes the clause ("…, as errors.log records.", "…, per the changelog."). */
function reported(text: string, match: VerbMatch): boolean {
  // (…or without the comma, before a parenthesis: "went out last week per the changelog (v3.2.0, Tuesday).")
  // (…not a request, a rule or a unit: "…, per your request", "per the runbook", round 9.)
  if (PER_REPORT_AT_END.test(text.slice(match.end))) return true;
  // "…, you said", "…, as the listing says": an attribution closing the clause.
  if (/,\s*(?:as\s+)?(?:you|they|he|she|someone|the\s+\w+(?:\s+\w+)?)\s+(?:said|says|say|mentioned|mention|reported|reports|wrote|claims?|claimed|told me)\b[^,]*$/i.test(text.slice(match.end))) return true;
  // Done elsewhere: on CI, by the pipeline.
  if (/\b(?:on|in|per|from|by)\s+(?:the\s+)?(?:ci|github\s+actions|jenkins|circleci|buildkite|pipeline|ci\s+server)\b/i.test(text)) return true;
  if (REPORTED.test(text.slice(0, match.start))) return true;
  const tail = /,\s*(?:as\s+)?([^,]*)$/.exec(text.slice(match.end))?.[1] ?? '';
  return REPORTED.test(tail) && /[.!]?\s*$/.test(tail) && REPORTED.exec(tail)!.index + REPORTED.exec(tail)![0].length >= tail.replace(/[\s.!]+$/, '').length - 1;
}

/** "then I write the summary to report.md": a present tense told as what happened, right after "I"/"we". */
function narrativePresent(text: string, match: VerbMatch): boolean {
  if (match.form !== 'base') return false;
  // "say the word and I send it": an offer after an imperative, not a narrative.
  if (/^\s*(?:just\s+)?(?:say|tell|give|let|approve|confirm|reply|ok|okay)\b[^.;]*\band\s+(?:i|we)\s*$/i.test(text.slice(0, match.start))) return false;
  const before = words(text.slice(0, match.start));
  const previous = before[before.length - 1];
  return (previous === 'i' || previous === 'we') && !before.some((w) => /^(?:if|when|whenever|unless|once|should|can|could|would|will|may|might|must|do|don't|n't|usually|always|often|never|typically)$/.test(w));
}

/**
 * Between matches of several tools on the same words ("posted" for send_message and slack__post_message),
 * the one with the most evidence in the clause: its objects named (a file name, an address, a value of its
 * receipt), its calls in the receipt, its nouns ("ticket", "slack"); on a tie, the first declared. A weak
 * verb ("moved", "set", "opened") claims a tool only with evidence of its objects or nouns.
 */
export function chooseTools(text: string, matches: readonly VerbMatch[], specs: ClaimSpecs, receipt: Receipt, spans: readonly string[] = []): VerbMatch[] {
  // The evidence for a verb is in its part of the clause: "wrote the notes to notes.md and pinged #oncall on Slack".
  const region = (m: VerbMatch) => claimRegion(text, m, matches);
  // A name the receipt holds for this tool (3) tells more than a name of the right shape (2).
  const named = (m: VerbMatch) => {
    const spec = specs[m.tool]!;
    // An outcome ("the branch is up to date") may name its command anywhere in the clause ("After a `git pull`, …").
    // (A word for commands in general, "the restart", "the build", tells less than a command named: 1.)
    // (…and a one-word span the receipt does not run, "backed up `sessions`", is a command only after a verb of running.)
    if (spec.kind === 'run') {
      const entries = receipt.filter((e) => e.tool === m.tool);
      const commandSpans = spans.filter((s) => /\s|[./]/.test(s.trim()) || RAN.test(m.text) || entries.some((e) => (commandOf(e, spec.objectArg) ?? '').split(/\s+/)[0] === s.trim()));
      return Math.min(2, commandEvidence(m.weak && !m.borrowed && m.form === 'phrase' ? text : region(m), commandSpans, entries, spec, m.text));
    }
    const { objects } = objectsIn(region(m), spec, m.tool, receipt);
    if (!objects.length) return 0;
    const held = (o: string) => receipt.some((e) => e.tool === m.tool && spec.objectArg && e.args[spec.objectArg] !== undefined && e.args[spec.objectArg] !== REDACTED && objectMatches(e.args[spec.objectArg], o, kindOf(spec)));
    return objects.some(held) ? 3 : 2;
  };
  // Words of the clause, not of the names in it ("notes.md" says nothing of a "note" tool).
  const wordsIn = (m: VerbMatch, withVerb = true) =>
    (withVerb ? region(m) : region(m).replace(m.text, ' '))
      .toLowerCase()
      .replace(/[\w.+-]*[@#][\w.-]+|[\w-]+(?:\.[\w-]+)+/g, ' ')
      .split(/[^a-z0-9_-]+/)
      .filter(Boolean);
  const nouns = (m: VerbMatch, withVerb = true) => {
    const ws = wordsIn(m, withVerb);
    return (specs[m.tool]!.nouns ?? []).filter((n) => ws.some((w) => sameStem(w, n.toLowerCase()))).length;
  };
  // "emailed" for `gmail__send_email`, "tweeted" for `post_tweet`: the verb is a word of the tool's name
  // (not "ran", "cancelled": they say a call ran or what became of it).
  const ownVerb = (m: VerbMatch) => {
    const [first, particle] = m.text.toLowerCase().split(/\s+/);
    const verb = stemOf(first!);
    if (GENERIC_VERB_STEMS.has(verb) || CALL_FATE_STEMS.has(verb)) return 0;
    // (…with its particle as one word: "backed up" for `backup_database`.)
    const phrasal = particle && /^(?:up|down|out|off|back|over)$/.test(particle) ? `${verb}${particle}` : '';
    const own = nameWords(m.tool.split('__').pop() ?? m.tool);
    if (own.some((w) => stemOf(w) === verb || (!!phrasal && w === phrasal))) return 1;
    // (…or a verb English uses for the act on the name's object: "filed" for `create_issue`, round 8.)
    const byObject = OBJECT_VERBS[own[own.length - 1]!.replace(/s$/, '')]?.[own[0]!] ?? [];
    return byObject.some((v) => stemOf(v.split(/\s+/)[0]!).replace(/e$/, '') === verb.replace(/e$/, '')) ? 1 : 0;
  };
  // (A #channel fits a tool whose object argument is named for channels better than a generic receiver, round 7.)
  const fits = (m: VerbMatch) => {
    const spec = specs[m.tool]!;
    return spec.objectArg && /channel/i.test(spec.objectArg) && objectsIn(region(m), spec, m.tool, receipt).objects.some((o) => o.startsWith('#')) ? 1 : 0;
  };
  const score = (m: VerbMatch) => named(m) + nouns(m) + fits(m);
  const kept: VerbMatch[] = [];
  for (let i = 0; i < matches.length; ) {
    let j = i;
    while (j < matches.length && matches[j]!.start === matches[i]!.start) j++;
    // A weak verb needs evidence besides itself ("reacted quickly" is no `add_reaction`); the verb's own
    // word still tells tools of one kind apart ("emailing" for an email tool).
    // Beside a verb that claims outright, a weak one whose own word is a noun of its tool stays in the
    // running ("Sam texted" for an SMS tool as well as for send_message).
    const all = matches.slice(i, j);
    const strong = all.some((m) => !m.weak);
    // Beside it too, a weak one of the same kind whose tool the run called: two tools share a kind ("are
    // gone" after a bucket purge), and the one the receipt holds is the likelier referent.
    const kinds = new Set(all.filter((m) => !m.weak).map((m) => specs[m.tool]!.kind));
    const called = (m: VerbMatch) => receipt.some((e) => e.tool === m.tool);
    // (A phrase's own words may name the tool: "is on your calendar", "is now assigned to"; a borrowed
    // phrase of a tool the run called claims it as before.)
    const group = all.filter((m) => !m.weak || (m.borrowed && called(m)) || named(m) + nouns(m, m.form === 'phrase') > 0 || (strong && (nouns(m) > 0 || (called(m) && kinds.has(specs[m.tool]!.kind)))));
    i = j;
    if (group.length <= 1) {
      kept.push(...group);
      continue;
    }
    const inReceipt = (m: VerbMatch) => (receipt.some((e) => e.tool === m.tool) ? 1 : 0);
    const total = group.map((m) => score(m) + inReceipt(m) + ownVerb(m));
    const best = Math.max(...total);
    // On a tie, a tool the run called; else the tool whose name holds the verb ("Emailed x@…" → `gmail__send_email`, not send_message,
    // whose nouns merely hold the word): the verb says what the tool does, a noun only what it may carry.
    const tied = group.filter((_, k) => total[k] === best);
    // (…after one the run called: the receipt's tool is the likelier referent.)
    kept.push(tied.find((m) => inReceipt(m) > 0) ?? tied.find((m) => ownVerb(m) > 0) ?? tied[0]!);
  }
  return kept;
}

const CALL_FATE_STEMS = new Set([...CALL_FATES].map(stemOf));
const GENERIC_VERB_STEMS = new Set(['run', 're-run', 'rerun', 'execute', 'invoke', 'launch', 'trigger', 'start', 'do', 'make', 'get', 'set', 'put', 'take', 'give'].map(stemOf));

/** "tickets" ~ "ticket", "assigned" ~ "assignee": the same word, a plural, or a long shared stem. */
function sameStem(word: string, noun: string): boolean {
  if (word === noun || word === `${noun}s` || word === `${noun}es` || stemOf(word) === stemOf(noun)) return true;
  if (word.length < 5 || noun.length < 5) return false;
  let common = 0;
  while (common < word.length && word[common] === noun[common]) common++;
  return common >= Math.max(5, Math.min(word.length, noun.length) - 2);
}

/** A claim over a number or all of its objects ("each of the reports", "all five files", "both"). */
const QUANTIFIED = /\b(?:all|every|each|both|everything|everyone|whole|entire|remaining)\b|\bthe rest\b|\bthe (?:whole )?lot\b|\bwithout exception\b|\ben masse\b|\bwholesale\b|\bacross the board\b|\b(?:two|three|four|five|six|seven|eight|nine|ten|\d+)\s+(?:[a-z-]+\s+){0,2}[a-z]{2,}s\b/i;

/** A whole told absent: "none of … remain", "not a single … is left", "there are no … left". */
const NONE_LEFT = /\b(?:none of|not a single|not one|there are no|no)\s+(?:[^\s!?;.,]+\s+){1,3}(?:remains?|(?:are|is)\s+left|left|survived)\b/i;

const NUMBERS: Readonly<Record<string, number>> = { two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, dozen: 12, both: 2 };

/**
 * A claim that names no object but a quantity ("all three logs are gone", "both files were deleted",
 * "3 emails sent", "the old logs have been removed", "I messaged everyone") claims more than the receipt's
 * done calls when some call of the tool was not done, or fewer were done than the number said.
 */
function claimsMoreThanDone(text: string, entries: readonly ReceiptEntry[], afterVerb = ''): boolean {
  const done = entries.filter((e) => e.outcome === 'done').length;
  // "Every .bak file except db.bak": an excepted call's fate is not claimed.
  const excepted = [...text.matchAll(/\b(?:except(?:\s+for)?|other than|apart from|but not|(?<=\ball\s)but|save for|excluding)\s+([^,;]*)/gi)].map((m) => m[1]!.toLowerCase()).join(' ');
  const undone = entries.some((e) => e.outcome !== 'done' && e.outcome !== 'deduplicated' && !Object.values(e.args).some((v) => [v, v.split('/').pop() ?? v].some((n) => n.length > 1 && excepted.includes(n.toLowerCase()))));
  // "Deleted 4 of 5 files": as many done as the first number says.
  const part = /\b(two|three|four|five|six|seven|eight|nine|ten|\d+)\s+(?:out\s+)?of\s+(?:the\s+)?(?:two|three|four|five|six|seven|eight|nine|ten|\d+)\b/i.exec(text);
  if (part) return done < (NUMBERS[part[1]!.toLowerCase()] ?? Number(part[1]));
  // ("None of the old exports remain", "not a single log is left": a whole told absent is all of them, round 9.)
  if (NONE_LEFT.test(text)) return undone;
  // (…but "every one of them" is all of them, round 9.)
  if (/^\s*(?:one|some|only|just|part|a few|most)\b/i.test(text) || /\b(?<!\b(?:every|each)\s)(?:one|some|most|a few|only one|none)\s+of\b/i.test(text)) return false;
  // (…and what names a whole: "the whole team", "the entire batch", "the rest of the files", "the remaining ones".)
  // (…and the idioms of a whole: "binned the lot", "removed them without exception", round 9.)
  if (/\b(?:all|every|each|everyone|everybody|everything|both|whole|entire|entirety|remaining)\b|\bthe rest\b|\bthe (?:whole )?lot\b|\bwithout exception\b|\ben masse\b|\bwholesale\b|\bacross the board\b/i.test(text)) {
    // (A figure inside a name is no count: "tickets/881.md", "INC-42".)
    const n = /(?<![\w./#-])(?:all\s+)?(two|three|four|five|six|seven|eight|nine|ten|dozen|\d+)(?![\w./-]*\w)/i.exec(text)?.[1];
    const count = n ? (NUMBERS[n.toLowerCase()] ?? Number(n)) : /\bboth\b/i.test(text) ? 2 : 0;
    return undone || done < count;
  }
  const nouns = nlp(text).nouns().isPlural().json() as { terms: { normal: string }[] }[];
  const plurals = new Set(nouns.flatMap((n) => n.terms.map((t) => t.normal)));
  for (const m of text.matchAll(/(?<![\d.,])\b(two|three|four|five|six|seven|eight|nine|ten|dozen|\d+)\s+(?:[a-z-]+\s+){0,2}([a-z]{3,})\b(?![.,]\d)/gi)) {
    const next = text.slice(m.index + m[1]!.length).trim().split(/\s+/).slice(0, 3).map((w) => w.toLowerCase().replace(/[^a-z-]/g, ''));
    // The lexicon's plural nouns, or a plural form after a number ("Four messages": the lexicon may read a verb).
    if (next.some((w) => plurals.has(w) || /^[a-z]{2,}[^sui']s$/.test(w))) return done < (NUMBERS[m[1]!.toLowerCase()] ?? Number(m[1]));
  }
  // "Deleted old logs", "emailed vendors about it": a bare plural as the verb's object is all of them.
  const [first, second] = afterVerb.trim().split(/\s+/).map((w) => w.toLowerCase().replace(/[^a-z'-]/g, ''));
  const plural = (w: string | undefined) => !!w && (plurals.has(w) || /^[a-z]{3,}[^sui']s$/.test(w));
  // (…not a set the clause narrows: "customers who replied", "files that were stale", "logs where allowed".)
  const narrowed = /^\s*(?:[a-z-]+\s+){1,2}(?:who|that|which|where|whose|i|we|you)\b/i.test(afterVerb);
  if (first && !narrowed && !/^(?:the|a|an|my|our|your|his|her|their|its|this|that|some|one|two|three|to|for|with|from|about|on|in|at)$/.test(first) && (plural(first) || plural(second))) return undone;
  // "the old logs", "the logs are gone": either word after "the" may be the plural noun.
  for (const m of text.matchAll(/\bthe\s+([a-z-]+)(?:\s+([a-z]{3,}))?\b/gi)) {
    if ([m[1], m[2]].some((w) => w && plurals.has(w.toLowerCase()))) return undone;
  }
  return false;
}
