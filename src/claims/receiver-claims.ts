/**
 * The receiver's view of a send: "Alice and Bob both have the updated rota now", "lena@… got the
 * explanation", "the checklist is sitting in her inbox (maria@…)". A clause whose named receivers hold
 * the thing claims that a send tool delivered it to them. Pure.
 */
import type { Receipt } from '../wire/receipt.ts';
import type { ClaimSpecs } from './claim-specs.ts';
import { kindOf, objectMatches, objectsIn } from './claim-objects.ts';

export interface ReceiverClaim {
  tool: string;
  objects: string[];
  verb: string;
}

/** The receivers, then a verb of having and a thing had: "… both have the …", "… got an …", "… received the …". */
const HAVE = /(?:^|\s)(?:(?:both|all|each|now|already|just|finally)\s+)*(has|have|got|received|now has|now have)\s+(?:(?:both|all)\s+)?(?:the|a|an|their|his|her|your|our|my|its)\s+[a-z]/i;
/** The thing is where the receiver reads it: "is sitting in her inbox", "landed in their inboxes". */
const INBOX = /\b(?:is|are)\s+(?:now\s+)?(?:\w+\s+)?in\s+(?:his|her|their|your|its|the)\s+(?:\w+\s+)?inbox(?:es)?\b/i;
/** Not an account: a negation, a modal, a condition or a hope. */
const NOT_SAID = /\b(?:not|never|no|nobody|neither|nor|should|would|could|will|might|may|must|can|if|unless|once|when|whether|hopefully|probably|maybe|expect|soon|yet)\b|n't\b/i;

/** The send claims of receivers holding the thing, beside the tools the clause's verbs already claim (`claimed`). */
export function receiverClaims(text: string, receipt: Receipt, specs: ClaimSpecs, claimed: ReadonlySet<string>): ReceiverClaim[] {
  const have = HAVE.exec(text);
  const inbox = have ? null : INBOX.exec(text);
  const found = have ?? inbox;
  if (!found) return [];
  // The receivers are the subject ("Alice and Bob both have"), or anywhere for an inbox ("… in her inbox (maria@…)").
  const subject = have ? text.slice(Math.max(0, text.lastIndexOf(':', found.index) + 1), found.index) : text;
  const after = text.slice(found.index + found[0].length);
  if (NOT_SAID.test(have ? subject : text.slice(0, found.index)) || /\bfrom\s+(?!me\b|us\b)/i.test(after) || /\b(?:i|we)\b/i.test(have ? subject : '')) return [];
  for (const [tool, spec] of Object.entries(specs)) {
    if (spec.kind !== 'send' || claimed.has(tool) || kindOf(spec) !== 'recipient') continue;
    const { objects } = objectsIn(subject, spec, tool, receipt);
    const held = objects.filter((o) => receipt.some((e) => e.tool === tool && spec.objectArg && objectMatches(e.args[spec.objectArg], o, 'recipient')));
    if (held.length) return [{ tool, objects: held, verb: found[0].trim() }];
  }
  return [];
}
