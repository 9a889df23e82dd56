/**
 * The claim spec of a tool that states none (a user-defined or MCP tool): its kind from the words of its
 * name, then of its description; the argument naming its object from the argument names; its nouns (what
 * tells its claims from another tool's of the same kind) from both. Pure, sandbox-safe.
 */
import { KIND_CUES, KIND_PRECEDENCE, type ClaimKind } from './claim-kinds.ts';
import type { ClaimSpec } from './claim-specs.ts';

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
const RECIPIENT_ARGS = /^(?:to|cc|recipients?|channel|channel_id|address|email|phone|user|username)$/i;
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

/** The kind named first by the tool's name, else by its description; ties go to the more specific kind. */
export function kindFrom(name: string, description = ''): ClaimKind | undefined {
  for (const words of [nameWords(name), nameWords(description).slice(0, 12)]) {
    const stems = words.map(stem);
    const found = KIND_PRECEDENCE.filter((k) => KIND_CUES[k].some((cue) => stems.includes(cue) || words.includes(cue)));
    if (found.length) return found[0];
  }
  return undefined;
}

/** A default claim spec for a tool with side effects; none for a read-only tool or one whose kind nothing tells. */
export function defaultClaimSpec(tool: ToolFacts): ClaimSpec | undefined {
  if (tool.readOnly) return undefined;
  const kind = kindFrom(tool.name, tool.description);
  if (!kind) return undefined;
  const params = tool.params ?? [];
  const objectArg = params.find((p) => OBJECT_ARGS.test(p)) ?? (kind === 'run' ? undefined : params[0]);
  const cues = new Set<string>(KIND_CUES[kind]);
  const nouns = [...new Set([...nameWords(tool.name), ...nameWords(tool.description ?? '')].map(stem))].filter((w) => w.length > 2 && !STOP.has(w) && !cues.has(w));
  return {
    kind,
    ...(objectArg && kind !== 'run' ? { objectArg, objectKind: RECIPIENT_ARGS.test(objectArg) ? 'recipient' : /^(?:path|file|filename|file_path|filepath)$/i.test(objectArg) ? 'path' : 'name' } : {}),
    nouns,
  };
}
