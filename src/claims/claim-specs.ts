/**
 * How an answer claims a tool's effect (a tool contract's `claims`), and the built-in side-effect tools'
 * claims. Plain data: the contracts import it; the claim check (check-claims.ts) reads it.
 */

/**
 * How an answer claims a tool's effect. Declared on the tool's contract (`claims`).
 * - `verbs`: base forms ("delete", "clean up", "get rid of"); their inflections are derived (deleted,
 *   deletes, deleting; cleaned up; got rid of). Only the first word of a phrase is inflected; `*` stands
 *   for one to three words ("let * know"). A word ending in "ed" is taken as it is (a past form).
 * - `phrases`: fixed words that state the effect ("gone", "no longer exists"), matched as they are.
 * - `objectArg`: the argument naming what the call acts on (`path`, `to`); the claim is then checked per
 *   object the answer names. Without it only "was any call of this tool done" is checked.
 * - `objectKind`: how objects look in prose: `path` (file names), `recipient` (addresses, @handles,
 *   #channels). Defaults from the argument's name. Values from the receipt are recognised either way.
 * - `exceptions`: other senses of the verbs, as regular expressions (case-insensitive) matched where the
 *   verb starts (they may look behind): "saved you 2 MB" is not a write.
 * - `containers`: words after which a name is where the effect happened, not its object: "removed a line
 *   from notes.txt" deletes no file. A claim whose only names are containers is no claim of this tool.
 */
export interface ClaimSpec {
  verbs: readonly string[];
  phrases?: readonly string[];
  exceptions?: readonly string[];
  containers?: readonly string[];
  objectArg?: string;
  objectKind?: 'path' | 'recipient';
}

/** Tool name → its claim spec. */
export type ClaimSpecs = Readonly<Record<string, ClaimSpec>>;

/** The built-in side-effect tools' claims (for their contracts). */
export const BUILTIN_CLAIM_SPECS = {
  delete_file: {
    verbs: ['delete', 'remove', 'erase', 'wipe', 'purge', 'clean up', 'clear out', 'free', 'free up', 'get rid of', 'trash', 'discard', 'unlink'],
    phrases: ['gone', 'no longer exists', 'no longer there', 'no longer present', 'no longer in the workspace'],
    containers: ['from', 'in', 'inside', 'within', 'out of'],
    objectArg: 'path',
    objectKind: 'path',
  },
  send_message: {
    verbs: ['send', 'email', 'e-mail', 'message', 'notify', 'post', 'ping', 'text', 'forward', 'inform', 'alert', 'contact', 'reach out to', 'deliver', 'let * know'],
    // "let me know if…" asks the user; it tells no one anything.
    exceptions: ['let\\s+(?:me|us)\\s+know'],
    objectArg: 'to',
    objectKind: 'recipient',
  },
  write_file: {
    verbs: ['write', 'save', 'create', 'update', 'overwrite', 'append', 'edit', 'modify', 'draft'],
    exceptions: [
      // "saved you 2 MB", "saves time": space or time saved, not a file.
      'sav(?:e|es|ed|ing)\\s+(?:(?:you|me|us)\\s+)?(?:(?:about|around|roughly|over|nearly|almost|some|another)\\s+)?(?:\\d|space|disk|room|time|a lot)',
      // "errors.log was last updated at 02:00": a description of the file, not something done to it.
      '(?<=\\blast\\s+)(?:updated|modified|written|saved|edited|changed)',
      '(?:updated|modified|created|written|saved|edited)\\s+(?:at|on)\\s+\\d',
    ],
    objectArg: 'path',
    objectKind: 'path',
  },
} as const satisfies ClaimSpecs;

/** The claim specs of a tool set: each contract's own `claims`, else the built-in ones for its name. */
export function claimSpecsOf(contracts: readonly { name: string; readOnly?: boolean; claims?: ClaimSpec }[]): ClaimSpecs {
  const builtin: Readonly<Record<string, ClaimSpec>> = BUILTIN_CLAIM_SPECS;
  const specs: Record<string, ClaimSpec> = {};
  for (const c of contracts) {
    const spec = c.claims ?? builtin[c.name];
    if (spec) specs[c.name] = spec;
  }
  return specs;
}
