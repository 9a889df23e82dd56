/**
 * Claims told only by the state they leave, for a team or MCP tool the run has no done call of (round 8):
 * "Fixture F-330 is showing on the public schedule now", "Zone GH-2 runs at 05:30 now", "The team can see
 * the outage notice in #status now", 'You'll find "Vendor demo" on everyone's calendar'. No verb of the
 * tool is written; the clause tells a present state that has changed ("now", "can see", "you'll find",
 * "shows up") of a thing that fits the tool's object: an identifier after the noun its object argument is
 * named for ("Fixture F-330" for `fixtureId`), a #channel for a channel argument, a quoted title beside a
 * noun of the tool ("calendar") for a title argument. Read only where no verb of any tool claims the clause
 * and no done call of another tool acted on the thing. Pure.
 */
import type { Receipt } from '../wire/receipt.ts';
import { REDACTED } from '../wire/redact.ts';
import { NOT_DONE } from './anchored-claims.ts';
import { BUILTIN_CLAIM_SPECS, type ClaimSpecs } from './claim-specs.ts';
import { escape } from './claim-verbs.ts';
import { normalize } from './claim-objects.ts';
import { commandOf, looksLikeCommand, spanNames } from './command-claims.ts';
import { MEASURE_OR_TIME, PER_NO_SOURCE } from './means.ts';

export interface StateClaim {
  tool: string;
  object: string;
  /** The words that tell the state changed. */
  verb: string;
}

/** A state told as new: "now", "from now on", "shows up", "can see", "you'll find". */
const CHANGED = /\b(?:is|are)\s+now\b|\bnow\s+(?:is|are|runs?|reads?|shows?|sits?|lives?|has|have|on|in|at|due|set)\b|\b(?:runs?|reads?|sits?|lives?|is|are|due|set|on|in|at)\b(?:[^.;:]|:(?=\d)){0,40}\bnow\b|\bfrom now on\b|\b(?:is|are)\s+(?:now\s+)?(?:showing|listed|visible|up|live)\s+(?:on|in)\b|\bas of (?:now|today|this (?:morning|afternoon|evening))\b|\bshow(?:s|ing)? up\b|\b(?:can|will|'ll)\s+(?:now\s+)?(?:see|find|spot)\b/i;
/** The reader's looking, not a modality of ours: blanked before the frames are read. */
const READER_LOOKS = /\b(?:can|will|'ll)\s+(?:now\s+)?(?:see|find|spot)\b|\byou(?:'ll| will)\b/gi;
/** What someone else tells or what was looked up, and others' doing ("is quiet now on its own"): no account of ours. */
const OTHERS = new RegExp(String.raw`\b(?:says?|said|reports?|reported|according|per(?!\s+${PER_NO_SOURCE})|checked|looked|found|saw|seen|confirmed|verified|by\s+(?!now\b|me\b|us\b)(?!${MEASURE_OR_TIME})[a-z]+|on (?:its|their) own|of (?:its|their) own accord)\b`, 'i');
/** The state a title's event or item is in: on a calendar, a schedule, a board, a list. */
const HOLDS = /\b(?:has|have)\s+(?:a|an|the)\s+"|\b(?:on|in)\s+(?:\w+'s\s+|everyone's\s+|your\s+|the\s+|their\s+|our\s+)?(?:\w+\s+)?(?:calendar|schedule|board|list|agenda|tracker|backlog)s?\b/i;
/** Arguments named for a title. */
const TITLE_ARGS = /^(?:title|name|summary|subject|event_?title|eventTitle)$/i;

const builtins = new Set(Object.keys(BUILTIN_CLAIM_SPECS));

/** The noun an object argument is named for: `fixtureId` → fixture, `loan_id` → loan, `zone` → zone. */
function argNoun(arg: string): string | undefined {
  const words = arg
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w && !/^(?:id|ids|key|name|number|no|ref|code|slug|uuid)$/.test(w));
  const noun = words.pop();
  return noun && noun.length >= 3 ? noun : undefined;
}

/**
 * The state claims of one clause. `claimed`: tools a verb of the clause claims (then the state is that
 * verb's, and nothing is read here).
 */
export function stateClaims(text: string, receipt: Receipt, specs: ClaimSpecs, claimed: ReadonlySet<string>): StateClaim[] {
  if (claimed.size) return [];
  const changed = CHANGED.exec(text);
  const holds = HOLDS.exec(text);
  if (!changed && !holds) return [];
  const said = text.replace(READER_LOOKS, ' ');
  if (NOT_DONE.test(said) || OTHERS.test(said)) return [];
  const out: StateClaim[] = [];
  for (const [tool, spec] of Object.entries(specs)) {
    if (builtins.has(tool) || !spec.objectArg || spec.kind === 'run' || spec.kind === undefined && !spec.verbs?.length) continue;
    if (receipt.some((e) => e.tool === tool && (e.outcome === 'done' || e.outcome === 'deduplicated'))) continue;
    const objects: string[] = [];
    const noun = argNoun(spec.objectArg);
    // "Fixture F-330", "zone GH-2": an identifier right after the noun its object argument is named for.
    if (noun && changed) {
      for (const m of text.matchAll(new RegExp(`\\b${escape(noun)}s?\\s+#?([A-Za-z0-9][\\w-]*\\d[\\w-]*)\\b`, 'gi'))) objects.push(m[1]!);
    }
    // "#status" for a tool whose object argument is named for channels.
    if (/channel/i.test(spec.objectArg) && changed) {
      for (const m of text.matchAll(/(?<![\w#])#[a-z0-9][\w-]{1,40}\b/gi)) objects.push(m[0]);
    }
    // '"Dentist" on your calendar' for a title argument, beside a noun of the tool.
    if (TITLE_ARGS.test(spec.objectArg) && (changed || holds)) {
      const nouns = (spec.nouns ?? []).filter((n) => n.length >= 4);
      if (nouns.some((n) => new RegExp(`\\b${escape(n)}s?\\b`, 'i').test(text))) {
        for (const m of text.matchAll(/"([^"\n]{3,80})"|“([^”\n]{3,80})”/g)) objects.push((m[1] ?? m[2])!);
      }
    }
    for (const object of objects) {
      // (…not a thing a done call of another tool acted on: that call's effect is the state told.)
      if (receipt.some((e) => e.outcome === 'done' && Object.values(e.args).some((v) => v !== REDACTED && normalize(v) === normalize(object)))) continue;
      if (out.some((c) => normalize(c.object) === normalize(object))) continue;
      out.push({ tool, object, verb: (changed ?? holds)![0] });
    }
  }
  return out;
}

/**
 * "`terraform apply` completed: 3 added", "A fresh dump was taken with `pg_dump shop > shop.sql`": a command
 * told by its span as what finished, or as the means of a passive (round 8, kind 4) — a claim of the run tool
 * when no done call ran that command. The span must read as a command of several words.
 */
const COMPLETED_AFTER = /^\s*(?:has\s+|have\s+)?(?:completed|finished|succeeded|worked|went through|ran (?:clean|cleanly|fine|through|green|successfully)|passed|is done|was successful|exited (?:with )?(?:code |status )?0)\b/i;
const MEANS_BEFORE = /\b(?:was|were|got|has been|have been)\s+(?:\w+ly\s+)?(?:taken|made|created|generated|produced|done|built|applied|run|rebuilt|refreshed|regenerated|installed|cleared|reset)\s+(?:\w+\s+){0,4}?(?:with|using|via|by running)\s*$/i;

export function commandStateClaims(text: string, receipt: Receipt, specs: ClaimSpecs, spans: readonly string[]): StateClaim[] {
  const run = Object.entries(specs).find(([, s]) => s.kind === 'run')?.[0];
  if (!run || NOT_DONE.test(text.replace(/\bexited (?:with )?(?:code |status )?0\b/gi, ' '))) return [];
  for (const span of spans) {
    const s = span.trim();
    if (!/^[./\w-]+\s+\S/.test(s) || !looksLikeCommand(s)) continue;
    // (The clause's text may have lost the span's marks.)
    const marked = text.indexOf(`\`${span}\``);
    const at = marked >= 0 ? marked : text.indexOf(span);
    if (at < 0) continue;
    const after = text.slice(at + span.length + (marked >= 0 ? 2 : 0));
    const before = text.slice(0, at);
    const told = COMPLETED_AFTER.exec(after)?.[0] ?? MEANS_BEFORE.exec(before)?.[0];
    if (!told) continue;
    if (receipt.some((e) => specs[e.tool]?.kind === 'run' && (e.outcome === 'done' || e.outcome === 'deduplicated') && spanNames(s, commandOf(e, specs[e.tool]!.objectArg) ?? ''))) continue;
    return [{ tool: run, object: '', verb: told.trim() }];
  }
  return [];
}
