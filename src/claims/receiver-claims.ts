/**
 * The receiver's view of a send: "Alice and Bob both have the updated rota now", "lena@… got the
 * explanation", "the checklist is sitting in her inbox (maria@…)", "the pricing sheet went to sales@…"; and a
 * verb with the receiver and a message as its objects ("shot Dave a message", "gave #eng a heads-up"). A
 * clause whose named receivers got the thing claims that a send tool delivered it to them. Pure.
 */
import nlp from 'compromise';
import type { Receipt } from '../wire/receipt.ts';
import { KIND_WORDS } from './claim-kinds.ts';
import type { ClaimSpecs } from './claim-specs.ts';
import { kindOf, objectMatches, objectsIn } from './claim-objects.ts';

export interface ReceiverClaim {
  tool: string;
  objects: string[];
  verb: string;
}

/** The receivers, then a verb of having and a thing had: "… both have the …", "… got an …", "… received the …". */
const HAVE = /(?:^|\s)(?:(?:both|all|each|now|already|just|finally)\s+)*(has|have|got|received|now has|now have)\s+(?:(?:both|all)\s+)?(?:the|a|an|their|his|her|your|our|my|its)\s+((?:[\w'-]+\s+){0,2}[\w'-]+)/i;
/** What a send carries: a message, or a document of some kind (what a reader would say someone "has" after a send). */
const SENT_THINGS = /^(?:e-?mails?|messages?|notes?|mail|memo|notifications?|alerts?|heads-up|reminders?|invites?|invitations?|reports?|summary|summaries|drafts?|agenda|rota|schedule|links?|files?|updates?|notes|checklists?|contracts?|details|invoices?|slides|deck|minutes|documents?|docs?|attachments?|explanation|answer|reply|replies|instructions|credentials|itinerary|quote|proposal|numbers|figures|results|announcement|newsletter|digest|recap|write-?up|brief|briefing|plan|timeline|apology|confirmation|receipt|code|password|key|offer|letter)$/i;
/** The thing is where the receiver reads it: "is sitting in her inbox", "landed in their inboxes". */
const INBOX = /\b(?:is|are)\s+(?:now\s+)?(?:\w+\s+)?in\s+(?:his|her|their|your|its|the)\s+(?:\w+\s+)?inbox(?:es)?\b/i;
/** Not an account: a negation, a modal, a condition or a hope. */
const NOT_SAID = /\b(?:not|never|no|nobody|neither|nor|should|would|could|will|might|may|must|can|if|unless|once|when|whether|hopefully|probably|maybe|expect|soon|yet)\b|n't\b/i;

/** The thing went to them: "the pricing sheet went to sales@…", "…made it to bob@…". */
const WENT = /\b(?:went|has gone|have gone|made it|got through)\s+(?:over\s+|out\s+)?to\s+/i;
/** A verb in the past, then the receiver, then a message: "shot Dave a message", "gave #eng a heads-up". */
const SEND_NOUNS = (KIND_WORDS.send.actionNouns ?? []).filter((n) => n !== 'update' && n !== 'reply' && n !== 'call');
const DITRANSITIVE = new RegExp(`\\b([a-z]+)\\s+((?:[\\w.+-]+@[\\w.-]+|#[\\w-]+|[A-Z][a-z]+|the team|everyone)(?:\\s+(?:and|&)\\s+(?:[\\w.+-]+@[\\w.-]+|#[\\w-]+|[A-Z][a-z]+))?)\\s+(?:a|an)\\s+(?:(?:quick|short|brief|friendly|final|polite)\\s+)?(?:${SEND_NOUNS.map((n) => n.replace(/[-]/g, '\\-')).join('|')})\\b`);
/** Verbs that take a message in, not out. */
const TAKING = /^(?:got|received|had|saw|read|found|asked|owe|owed|owes|left)$/i;
/** A subordinate clause first ("Unless something went wrong on their end, …"): the claim is the main clause after it. */
const LEADING_HEDGE = /^\s*(?:unless|if|once|when|since|as|after|although|though|assuming)\b[^,]*,\s*/i;

/** The send claims of receivers holding the thing, beside the tools the clause's verbs already claim (`claimed`). */
export function receiverClaims(whole: string, receipt: Receipt, specs: ClaimSpecs, claimed: ReadonlySet<string>, verbs: readonly { start: number; end: number }[] = []): ReceiverClaim[] {
  // "Unless something went wrong on their end, kim@… has the draft": a hedge, then the account.
  const text = whole.replace(LEADING_HEDGE, '');
  const offset = whole.length - text.length;
  const went = WENT.exec(text);
  // "Invoice INV-12 went out to billing@…": a claim verb of some tool on the same words says it already.
  if (went && verbs.some((v) => v.start < offset + went.index + went[0].length && v.end > offset + went.index)) return [];
  if (went) return receivers(text.slice(went.index + went[0].length), text.slice(0, went.index), went[0], receipt, specs, claimed);
  const given = DITRANSITIVE.exec(text);
  if (given && !TAKING.test(given[1]!) && (/ed$/.test(given[1]!) || nlp(given[1]!).has('#PastTense'))) {
    // "shot Dave a message at dave@…": the address may follow the message.
    const at = /^\s*(?:at|on|via|to|\()\s*([\w.+-]+@[\w-]+(?:\.[\w-]+)+|#[\w-]+)/i.exec(text.slice(given.index + given[0].length))?.[1] ?? '';
    return receivers(`${given[2]!} ${at}`, text.slice(0, given.index), given[0], receipt, specs, claimed);
  }
  const have = HAVE.exec(text);
  const inbox = have ? null : INBOX.exec(text);
  // (…the thing had is what a send carries: not "has a question", "have the same manager".)
  if (have && !have[2]!.split(/\s+/).some((w) => SENT_THINGS.test(w))) return [];
  const found = have ?? inbox;
  if (!found) return [];
  // The receivers are the subject ("Alice and Bob both have"), or anywhere for an inbox ("… in her inbox (maria@…)").
  const subject = have ? text.slice(Math.max(0, text.lastIndexOf(':', found.index) + 1), found.index) : text;
  const after = text.slice(found.index);
  if (NOT_SAID.test(have ? subject : text.slice(0, found.index)) || /\bfrom\s+(?!me\b|us\b)/i.test(after) || /\b(?:i|we)\b/i.test(have ? subject : '')) return [];
  return receivers(subject, '', found[0], receipt, specs, claimed);
}

/** The send claim of the receivers named in `names` (held by the receipt, or of a receiver's shape), unless the words before deny or hedge it. */
function receivers(names: string, before: string, verb: string, receipt: Receipt, specs: ClaimSpecs, claimed: ReadonlySet<string>): ReceiverClaim[] {
  if (NOT_SAID.test(before) || /\byou\b/i.test(before)) return [];
  // A send verb of the clause already claims it ("has gone out to #release").
  const senders = Object.entries(specs).filter(([, spec]) => spec.kind === 'send' && kindOf(spec) === 'recipient');
  if ([...claimed].some((tool) => specs[tool]?.kind === 'send')) return [];
  // The tool whose receipt holds the receivers; else the first that takes receivers of their shape (built-in tools first).
  for (const heldOnly of [true, false]) {
    for (const [tool, spec] of senders) {
      const { objects } = objectsIn(names, spec, tool, receipt);
      const held = objects.filter((o) => (!heldOnly && /@|^#/.test(o)) || receipt.some((e) => e.tool === tool && spec.objectArg && objectMatches(e.args[spec.objectArg], o, 'recipient')));
      if (held.length) return [{ tool, objects: held, verb: verb.trim() }];
    }
  }
  // "Each of the three reviewers got an email", "Everyone on the list has the agenda": receivers told by a
  // quantity, not by name — a claim of the send tool the run called (no object; the quantity is checked).
  if (/\b(?:all|every|each|both|everyone|everybody|whole|entire|(?:two|three|four|five|six|seven|eight|nine|ten|\d+)\s+(?:[a-z-]+\s+)?[a-z]+s)\b/i.test(names)) {
    const called = senders.find(([tool]) => receipt.some((e) => e.tool === tool));
    if (called) return [{ tool: called[0], objects: [], verb: verb.trim() }];
  }
  return [];
}
