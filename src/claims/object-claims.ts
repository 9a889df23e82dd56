/**
 * Claims in words no tool's family knows ("Shredded debug.log", "debug.log was zapped"): a clause that does
 * something, in the past, to an object a tool's call did not do. The verb comes from the `compromise`
 * lexicon (any past or perfect verb); verbs that only look at, keep or propose a thing claim nothing. Pure.
 */
import nlp from 'compromise';
import type { Receipt } from '../wire/receipt.ts';
import { isObjectLike, objectsIn } from './claim-objects.ts';
import type { ClaimSpecs } from './claim-specs.ts';

/** Verbs that say nothing was done to the object: reading, finding, keeping, asking, planning, trying. */
const NO_EFFECT = new Set(
  (
    'be have do get go come see look read check inspect examine review view open scan search grep find notice spot ' +
    'keep leave skip ignore spare preserve retain hold try attempt ask request propose suggest plan prepare draft queue ' +
    'want need mean intend expect wait confirm verify note mention say tell report show list count measure compare ' +
    'locate identify detect discover analyse analyze investigate consider decide choose pick select mark flag approve ' +
    'reject deny fail cancel stop interrupt block refuse decline hit reach touch use call name find follow include exclude ' +
    'contain hold own receive get understand know think believe assume guess recall remember forget lose miss'
  ).split(/\s+/),
);

export interface ObjectClaim {
  tool: string;
  object: string;
  /** The verb that makes the claim. */
  verb: string;
}

/**
 * The clause's past or perfect verbs (not negated, no modal, no failure told) whose object is one that a
 * tool's receipt holds but did not do: each such object once, for the tool that holds it. Tools with a
 * claim already in the clause (`claimed`) are left to the check's own reading.
 */
export function objectClaims(text: string, receipt: Receipt, specs: ClaimSpecs, claimed: ReadonlySet<string>): ObjectClaim[] {
  const undone = receipt.filter((e) => e.outcome !== 'done' && e.outcome !== 'deduplicated' && !claimed.has(e.tool) && specs[e.tool]?.objectArg && specs[e.tool]?.kind !== 'run');
  if (!undone.length) return [];
  if (/\b(?:not|never|no|nothing|couldn't|could not|didn't|did not|wasn't|was not|weren't|unable|failed|rejected|denied|declined|cancell?ed|interrupted|pending|waiting|skipped|if|unless|once|would|could|should|will|might|may|can)\b|n't\b|\?/i.test(text)) return [];
  const named = new Map<string, ObjectClaim>();
  for (const e of undone) {
    const spec = specs[e.tool]!;
    const value = e.args[spec.objectArg!];
    if (!value || named.has(`${e.tool}\u0000${value}`)) continue;
    if (!objectsIn(text, spec, e.tool, [e]).objects.some((o) => o.toLowerCase().includes(value.toLowerCase()) || value.toLowerCase().includes(o.toLowerCase()))) continue;
    const verb = effectVerb(text);
    if (verb) named.set(`${e.tool}\u0000${value}`, { tool: e.tool, object: value, verb });
  }
  return [...named.values()];
}

/** The clause's first past or perfect verb that does something, told by the agent or with no subject. */
function effectVerb(text: string): string | undefined {
  const verbs = nlp(text).verbs().json() as { text: string; verb?: { grammar?: { tense?: string }; infinitive?: string; auxiliary?: string } }[];
  for (const v of verbs) {
    const root = v.verb?.infinitive?.toLowerCase() ?? '';
    if (!root || NO_EFFECT.has(root) || v.verb?.grammar?.tense !== 'PastTense') continue;
    const at = text.indexOf(v.text.replace(/[.!,;:]+$/, '').split(/\s+/).pop() ?? '');
    const before = text.slice(0, Math.max(0, at)).toLowerCase();
    // Someone else's doing ("nginx rotated app.log") is no claim: only "I"/"we", a passive, the objects
    // themselves ("a.log and b.log zapped"), or no subject at all.
    const subject = before.replace(/^.*(?:[:;,]|\band\b)\s*/, '').trim();
    if (subject && !/\b(?:i|we)\b/.test(subject) && !/(?:was|were|has been|have been|is|are|got)\s*$/.test(subject) && !subject.split(/\s*(?:,|\band\b)\s*/).every((w) => isObjectLike(w))) continue;
    return v.text.trim();
  }
  return undefined;
}
