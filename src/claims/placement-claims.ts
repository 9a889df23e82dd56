/**
 * Claims told by where a thing was put (round 6): "Dropped a summary into #incident-204", "I did drop one to
 * quinn@…", "the full writeup landed in writeup.md", 'put "Storage review" on the calendar'. A verb of
 * placing says only that something went somewhere; the place says which tool did it — a #channel or an
 * address is a send's receiver, a file a write's path, a calendar a create's event (named by its quoted
 * title). The tool is the one whose objects fit the place: a tool the run called first, then one whose
 * object argument is named for that shape ("channel" for a #channel), then the first declared. Pure.
 */
import type { Receipt } from '../wire/receipt.ts';
import type { ClaimSpecs } from './claim-specs.ts';
import { NOT_DONE } from './anchored-claims.ts';
import { kindOf, objectsIn } from './claim-objects.ts';
import { causedByAnother, datedHistory, quoted, sharedOtherSubject, stoppedBefore } from './event-frames.ts';

export interface PlacementClaim {
  tool: string;
  object: string;
  /** The verb of placing, as written (or the state it leaves, "is in"). */
  verb: string;
  /** Told by the state a placing leaves ("the summary is in report.md"), not by a verb of placing. */
  state?: boolean;
}

/** A verb of placing told done ("dropped", "did drop", "landed"), the thing, a preposition, then the place. */
const PLACED =
  /\b((?:did\s+)?(?:drop|put|place|land|park|stick|pop|toss|slip|jot|paste|dump|stash|tuck|slot|leave)|dropped|placed|landed|parked|stuck|popped|tossed|slipped|jotted|pasted|dumped|stashed|tucked|slotted|left)\s+((?:[^\s.;:!?]+\s+){0,6}?)(into|in|to|on|onto)\s+((?:the\s+|a\s+|an\s+|their\s+|our\s+|your\s+)?\S+(?:\s+\S+){0,3})/gi;
/** What makes the part before the verb no account: a negation, modality, a plan, a condition, a request. */
const NOT_TOLD = /\b(?:not|never|no|will|would|could|can|should|shall|may|might|must|going to|gonna|want|plan|about to|ready to|if|unless|whether|once|please|let me|i'll|we'll|try|tried|asked)\b|n't\b|\?/i;

/** The placement claims of one clause, with the verbs they were read from. */
export function placementClaims(text: string, receipt: Receipt, specs: ClaimSpecs): PlacementClaim[] {
  const out: PlacementClaim[] = [];
  for (const m of text.matchAll(PLACED)) {
    const verb = m[1]!;
    // (A bare base form is an imperative or a plan — "Drop me a line", "put it on the calendar?" — unless "did" tells it done;
    // "put" and "left" are past forms too, after a subject.)
    const base = !/ed$|^(?:stuck|left|did\s)/i.test(verb) && !/^put$/i.test(verb);
    const before = text.slice(0, m.index);
    if (base || NOT_TOLD.test(before) || NOT_TOLD.test(m[2]!)) continue;
    if (/^put$/i.test(verb) && !/\b(?:i|we|and|just|also|then|have|has|had)\s*$/i.test(before) && before.trim() !== '') continue;
    // (Not another's doing: "landed in archive.md when the sync ran", "the sync job dropped it into x", last week's.)
    const start = m.index;
    const end = start + verb.length;
    if (causedByAnother(text, start, end, true) || datedHistory(text, start, end) || sharedOtherSubject(text, start) || stoppedBefore(text, start) || quoted(text, start, end)) continue;
    // (A transitive verb of placing is the writer's when the clause has no other subject before it.)
    if (!/^landed$/i.test(verb) && /\b(?:he|she|they|someone|somebody|[Tt]he\s+\w+(?:\s+\w+)?|[A-Z][a-z]+)\s+(?:\w+\s+)?$/.test(before.replace(/^[^:]*:\s*/, '')) && !/\b(?:i|we)\b/i.test(before)) continue;
    const place = m[4]!;
    const claim = fitting(place, m[2]!, receipt, specs);
    if (claim) out.push({ ...claim, verb });
  }
  // '"Budget sync" is on the calendar': a titled event told where it now is, the same as put there.
  for (const m of text.matchAll(ON_CALENDAR)) {
    if (NOT_TOLD.test(text.slice(0, m.index)) || NOT_TOLD.test(m[0]) || causedByAnother(text, m.index, m.index + m[0].length, true) || datedHistory(text, m.index, m.index + m[0].length)) continue;
    const claim = fitting('the calendar', m[1]!, receipt, specs);
    if (claim) out.push({ ...claim, verb: m[2]! });
  }
  // "the summary is in report.md", "your notes are under notes/today.md": content told where it now is, the
  // state a placing leaves — a write of the file by the tool whose nouns hold the content's noun (round 4's
  // reading, one mechanism with the verbs of placing since round 7).
  const placed = IS_PLACED.exec(text);
  if (placed && !NOT_DONE.test(text.slice(0, placed.index)) && !/\b(?:not|never|no longer)\b|n't\b/i.test(text)) {
    const noun = placed[1]!.toLowerCase().replace(/s$/, '');
    const claim = fitting(text.slice(placed.index + placed[0].length), '', receipt, specs, (tool) => specs[tool]!.kind === 'write' && (specs[tool]!.nouns ?? []).some((n) => n.toLowerCase().replace(/s$/, '') === noun), true);
    if (claim) out.push({ ...claim, verb: placed[0].trim(), state: true });
  }
  return out;
}

/** A thing's noun, then "is in" a place: "the summary is now in", "your notes are under". */
const IS_PLACED = /\b(?:the|your|my|our|their|his|her)\s+(?:[a-z-]+\s+)?([a-z]+)\s+(?:is|are)\s+(?:now\s+|all\s+|safely\s+)?(?:in|at|under|inside)\s+/i;

/** A quoted title, then a state of being on a calendar ("is on the calendar", "is now in everyone's calendar"). */
const ON_CALENDAR = /(["“][^"”]{2,60}["”])\s+((?:is|are|has been|have been)\s+(?:now\s+)?(?:on|in)\s+(?:the\s+|your\s+|our\s+|their\s+|everyone's\s+|[\w-]+'s\s+)?(?:\w+\s+)?calendars?)\b/gi;

/** The tool whose objects fit the place, and the object it names. */
function fitting(place: string, thing: string, receipt: Receipt, specs: ClaimSpecs, only?: (tool: string) => boolean, anywhere = false): { tool: string; object: string } | undefined {
  const candidates: { tool: string; object: string; score: number; order: number }[] = [];
  let order = 0;
  for (const [tool, spec] of Object.entries(specs)) {
    order++;
    if (!spec.objectArg || (only && !only(tool))) continue;
    const called = receipt.some((e) => e.tool === tool) ? 2 : 0;
    const kind = kindOf(spec);
    if ((spec.kind === 'send' && kind === 'recipient') || (spec.kind === 'write' && kind === 'path')) {
      // (The place itself, at the head of what follows the preposition: not an object further on.)
      const object = objectsIn(place, spec, tool, receipt).objects[0];
      if (!object || (!anywhere && place.indexOf(object) > 12)) continue;
      // (A #channel fits an argument named for channels; an address one named for mail or receivers.)
      const named = (object.startsWith('#') && /channel/i.test(spec.objectArg)) || (object.includes('@') && /mail|^to$|recipient/i.test(spec.objectArg)) ? 1 : 0;
      candidates.push({ tool, object, score: called + named, order });
    } else if (spec.kind === 'create' && kind === 'name' && /^(?:the\s+|a\s+|our\s+|your\s+|their\s+)?(?:\w+\s+)?calendar\b/i.test(place) && (spec.nouns ?? []).some((n) => /^(?:calendar|event|meeting)s?$/i.test(n))) {
      const title = /["“']([^"”']{2,60})["”']/.exec(thing)?.[1];
      // (A tool of the calendar itself before one of meetings or events.)
      if (title) candidates.push({ tool, object: title, score: called + ((spec.nouns ?? []).some((n) => /^calendars?$/i.test(n)) || /calendar/i.test(tool) ? 1 : 0), order });
    }
  }
  candidates.sort((a, b) => b.score - a.score || a.order - b.order);
  return candidates[0];
}
