/**
 * How an answer claims a tool's effect (a tool contract's `claims`), and the built-in side-effect tools'
 * claims. Plain data, and nothing that imports more: the contracts and the workflow import it (each run
 * evaluates the workflow's modules anew); the derivation of a spec for a tool that states none, with its
 * word lists, is `claimSpecsOf` in default-claim-spec.ts, on the worker's side.
 */
import type { ClaimKind } from './claim-kinds.ts';

/**
 * How an answer claims a tool's effect. Declared on the tool's contract (`claims`); a tool that declares
 * none gets a default from its name, description and argument names (default-claim-spec.ts).
 * - `kind`: what the tool does (claim-kinds.ts): every verb, idiom and action noun of that kind's family
 *   reads as a claim of this tool ("shipped", "dispatched", "has gone out" for `send`).
 * - `verbs`: more base forms ("clean up", "get rid of"); their inflections are derived (deleted, deletes,
 *   deleting; cleaned up; got rid of). Only the first word of a phrase is inflected; `*` stands for one to
 *   three words ("let * know"). A word ending in "ed" is taken as it is (a past form).
 * - `weakVerbs`: verbs that claim this tool's effect only with evidence of it in the clause (one of its
 *   objects, a value of its receipt, one of its nouns): "locked acc_77 out" for a `suspend_account`.
 * - `weakKind`: the kind's verbs claim this tool only with such evidence too (defaults derived from a
 *   tool's name set it: its name's verb claims it outright, the rest of its kind's family needs evidence).
 * - `phrases`: fixed words that state the effect ("gone", "no longer exists"), matched as they are.
 * - `objectArg`: the argument naming what the call acts on (`path`, `to`); the claim is then checked per
 *   object the answer names. Without it only "was any call of this tool done" is checked.
 * - `objectKind`: how objects look in prose: `path` (file names), `recipient` (addresses, @handles,
 *   #channels), `name` (only the values the receipt holds). Defaults from the argument's name.
 * - `nouns`: words that tell this tool's claims from another's of the same kind ("ticket", "slack").
 * - `exceptions`: other senses of the verbs, as regular expressions (case-insensitive) matched where the
 *   verb starts (they may look behind): "saved you 2 MB" is not a write.
 * - `containers`: words after which a name is where the effect happened, not its object: "removed a line
 *   from notes.txt" deletes no file. A claim whose only names are containers is no claim of this tool.
 */
export interface ClaimSpec {
  kind?: ClaimKind;
  verbs?: readonly string[];
  weakVerbs?: readonly string[];
  weakKind?: boolean;
  phrases?: readonly string[];
  exceptions?: readonly string[];
  containers?: readonly string[];
  objectArg?: string;
  objectKind?: 'path' | 'recipient' | 'name';
  nouns?: readonly string[];
}

/** Tool name → its claim spec. */
export type ClaimSpecs = Readonly<Record<string, ClaimSpec>>;

/** The built-in side-effect tools' claims (for their contracts). */
export const BUILTIN_CLAIM_SPECS = {
  delete_file: { kind: 'delete', objectArg: 'path', objectKind: 'path', nouns: ['file', 'files', 'log', 'logs'] },
  send_message: { kind: 'send', objectArg: 'to', objectKind: 'recipient', nouns: ['email', 'message', 'note', 'mail'] },
  write_file: { kind: 'write', objectArg: 'path', objectKind: 'path', nouns: ['file', 'note', 'notes', 'draft', 'report', 'summary'] },
  run_command: { kind: 'run', nouns: ['command', 'script', 'shell', 'migration', 'tests', 'build'] },
} as const satisfies ClaimSpecs;

/** The top-level argument names of a zod object schema (`shape`), or none. */
export function paramsOf(input: unknown): string[] {
  const shape = (input as { shape?: unknown } | undefined)?.shape;
  return shape && typeof shape === 'object' ? Object.keys(shape) : [];
}
