/**
 * What a tool does, as an answer claims it: the kinds of effect (delete, send, write, run, pay, create,
 * deploy, publish, update) with a broad family of verbs, idioms and action nouns for each. A tool declares
 * its kind (`claims.kind`), or gets one from its name and description (default-claim-spec.ts); the check
 * then reads every word of the family as a claim of that tool. Plain data, sandbox-safe.
 */

/** Every kind of effect a tool's claims may name. */
export const CLAIM_KINDS = ['delete', 'send', 'write', 'run', 'pay', 'create', 'deploy', 'publish', 'update'] as const;
/** What a tool does, as an answer claims it: its `claims.kind` (each kind's verbs, idioms and action nouns are in `KIND_WORDS`). */
export type ClaimKind = (typeof CLAIM_KINDS)[number];

export interface KindWords {
  /** Base forms (inflected by the check); `*` stands for one to three words ("let * know"). */
  verbs: readonly string[];
  /**
   * Verbs of everyday English that claim this kind only with evidence in the clause: one of the tool's
   * objects, a value of its receipt, or one of its nouns ("moved OPS-12 to done", not "moved on").
   */
  weakVerbs?: readonly string[];
  /** Fixed words stating the effect ("is history", "went out"). */
  phrases?: readonly string[];
  /** Fixed words stating an outcome that claims this kind only with evidence in the clause ("the tests pass"). */
  weakPhrases?: readonly string[];
  /** The action as a noun ("the deletion of x", "the email to y"): with a completion ("was carried out") a claim. */
  actionNouns?: readonly string[];
  /** Other senses of the words, as regular expressions matched where the word starts. */
  exceptions?: readonly string[];
  /** Words after which a name is where the effect happened, not its object ("a line from notes.txt"). */
  containers?: readonly string[];
}

/** Words that say an action named by a noun is done: "the deletion of x was carried out". */
export const COMPLETIONS = [
  'was carried out',
  'has been carried out',
  'carried out',
  'was completed',
  'has been completed',
  'is complete',
  'complete',
  'completed',
  'is done',
  'was done',
  'done',
  'succeeded',
  'was successful',
  'went through',
  'has gone through',
  'is through',
  'are through',
  'went out',
  'has gone out',
  'is out',
  'was issued',
  'has been issued',
  'is finished',
  'finished',
  'was performed',
  'has been performed',
  'performed',
] as const;

export const KIND_WORDS: Readonly<Record<ClaimKind, KindWords>> = {
  delete: {
    verbs: ['delete', 'remove', 'erase', 'wipe', 'wipe out', 'purge', 'clean up', 'clean out', 'clear out', 'clear', 'free', 'free up', 'get rid of', 'trash', 'bin', 'nuke', 'discard', 'unlink', 'destroy', 'scrap', 'reclaim', 'prune', 'drop', 'ditch', 'toss', 'shred', 'zap', 'axe', 'junk', 'expunge', 'obliterate'],
    weakVerbs: ['take * out', 'take out', 'tidy up', 'tidy', 'throw * away', 'throw away', 'do away with', 'clear away'],
    phrases: ['gone', 'is history', 'are history', 'is no more', 'are no more', 'no longer exists', 'no longer exist', 'no longer there', 'no longer present', 'no longer in the workspace',
      // A whole told absent (round 9): "none of the old exports remain", "not a single log is left" — every call of the tool claimed.
      'none of * remain', 'none of * remains', 'none of * are left', 'none of * is left', 'none of * survived', 'not a single * is left', 'not a single * remains', 'not one * is left', 'not one * remains', 'there are no * left', 'no * are left', 'no * remain'],
    actionNouns: ['deletion', 'removal', 'cleanup', 'clean-up', 'purge'],
    exceptions: [
      // "has gone out to #release", "gone quiet": another sense of "gone".
      'gone\\s+(?:out|through|quiet|down|up|over|by|back|into|to|well|ahead|on|off|live|stale|missing|wrong|bad|cold|silent|dark|red|green|smoothly|fine|unnoticed|unanswered)\\b',
      // "the memory was freed", "freed the lock": not files.
      '(?<=\\b(?:memory|lock|locks|port|slot|slots|connection|connections|worker|thread|handle|handles)\\s+(?:was|were|is|are|got|has been|have been)\\s+)freed',
      'free(?:d|s)?\\s+(?:up\\s+)?(?:the\\s+)?(?:memory|lock|port|slot|thread|connection|handle|worker)s?\\b',
      // "the timeout cleared", "cleared after the restart": a condition clearing, not a file.
      'clear(?:ed|s)?\\s+(?:after|on its own|up\\b)',
      // "dropped carol a line", "dropped the ball".
      'drop(?:ped|s)?\\s+(?:\\S+\\s+){0,2}(?:a\\s+)?(?:line|note)\\b',
    ],
    containers: ['from', 'in', 'inside', 'within', 'out of'],
  },
  send: {
    verbs: ['send', 'email', 'e-mail', 'mail', 'message', 'notify', 'post', 'ping', 'page', 'text', 'forward', 'inform', 'alert', 'contact', 'reach out to', 'loop in', 'loop * in', 'deliver', 'let * know', 'ship', 'dispatch', 'fire off', 'drop * a line', 'drop a line to', 'drop a note to', 'broadcast', 'relay', 'cc', 'share * with', 'reply to', 'tell', 'brief', 'warn', 'write to', 'push * out to', 'send word to', 'write back to', 'get back to', 'give * a heads-up', 'give * a shout', 'give * a call', 'give * a ring'],
    phrases: ['went out', 'gone out', 'is on its way', 'are on their way', 'landed in'],
    // The receiver's view, with the receiver named: "carol@… has received the agenda", "dan@… got it".
    weakPhrases: ['is in the loop', 'are in the loop', 'is now in the loop', 'are now in the loop', 'has received', 'have received', 'received', 'has got', 'have got', 'got it', 'has now received', 'have now received'],
    actionNouns: ['email', 'e-mail', 'message', 'note', 'notification', 'alert', 'reply', 'heads-up', 'update'],
    // "let me know if…" asks the user; it tells no one anything.
    exceptions: [
      'let\\s+(?:me|us)\\s+know',
      'tell(?:s)?\\s+(?:me|us)\\b',
      // "written to report.md": a write; "wrote to the customer", "wrote to bob@…": a send.
      'wr(?:ite|ites|ote|itten|iting)\\s+to\\s+(?!(?:the\\s+|our\\s+|your\\s+)?(?:customer|client|vendor|team|user|owner|support|manager|them|him|her|you|me|us|everyone|[\\w.+-]+@|@|#)\\w*)',
    ],
  },
  write: {
    verbs: ['write', 'save', 'store', 'record', 'log', 'persist', 'jot down', 'jot * down', 'note down', 'write down', 'write up', 'put together', 'create', 'update', 'overwrite', 'append', 'edit', 'modify', 'draft', 'add * to', 'truncate', 'file * away', 'capture', 'write out'],
    // Placing content (with the file named): "dumped the results into results.csv", "put the findings in findings.md".
    weakVerbs: ['put', 'dump', 'paste', 'place', 'insert', 'copy', 'stash', 'enter', 'pour', 'export'],
    // "copied the error from debug.log into this answer": what it came from is no object of the write.
    containers: ['from', 'out of'],
    // What a file now holds is what was written to it: "notes.txt now has the summary", "app.log is empty
    // now" (when the clause names the file).
    weakPhrases: ['lives in', 'live in', 'now lives in', 'sits in', 'is saved in', 'now has', 'now holds', 'now contains', 'now reads', 'now says', 'now lists', 'is empty now', 'is now empty', 'are empty now', 'are now empty'],
    actionNouns: ['write', 'save'],
    exceptions: [
      // "saved you 2 MB", "saves time": space or time saved, not a file.
      'sav(?:e|es|ed|ing)\\s+(?:(?:you|me|us)\\s+)?(?:(?:about|around|roughly|over|nearly|almost|some|another)\\s+)?(?:\\d|space|disk|room|time|a lot)',
      // "errors.log was last updated at 02:00": a description of the file, not something done to it.
      '(?<=\\blast\\s+)(?:updated|modified|written|saved|edited|changed)',
      '(?:updated|modified|created|written|saved|edited)\\s+(?:at|on)\\s+\\d',
    ],
  },
  run: {
    // What a command did ("restarted", "migrated"): a claim of it; that one ran ("ran", "executed"): only
    // with evidence of a command (a code span, a call the clause names by what it does, "the tests").
    verbs: ['restart', 'reboot', 'install', 'reinstall', 'migrate', 'compile', 'compress', 'redeploy'],
    weakVerbs: ['run', 're-run', 'rerun', 'execute', 'invoke', 'launch', 'kick off', 'trigger', 'start', 'build', 'rebuild', 'apply', 'drop', 'truncate', 'give * a spin', 'spin up', 'bring * up', 'flush', 'seed', 'bump', 'format', 'rotate', 'pull', 'clear', 'clean', 'test', 'lint', 'dump', 'back up', 'bounce', 'typecheck'],
    phrases: ['has been run', 'have been run', 'was run', 'were run'],
    // The outcome of a command as a state ("the tests pass", "lint is clean"): a claim that it ran.
    weakPhrases: ['pass', 'passes', 'passed', 'passing', 'all green', 'is green', 'are green', 'green', 'is clean', 'are clean', 'cleanly', 'succeeded', 'successfully', 'up to date', 'healthy', 'no errors', 'no problems', 'no warnings', 'zero errors', 'zero type errors', 'compiles', 'works', 'worked', 'came back', 'is up', 'are up', 'wrapped up', 'went fine', 'ran fine', 'is happy', 'are happy', 'no complaints', 'is back up', 'are back up', 'is back online', 'back up and running', 'without a warning', 'without warnings', 'without errors'],
    actionNouns: ['restart', 'reboot', 'migration', 'build', 'rebuild', 'install', 'installation', 'test run'],
    exceptions: ['built\\s+(?:into|in|on|around|for|with)\\b', '(?:run|ran|runs|running)\\s+(?:out|into|low|short|late|across|over|to\\s+(?:about\\s+)?\\d|the\\s+numbers|a\\s+(?:risk|fever))\\b', 'runs?\\s+of\\b'],
  },
  pay: {
    verbs: ['pay', 'refund', 'reimburse', 'charge', 'credit', 'transfer', 'wire', 'pay back', 'pay out'],
    phrases: ['money back', 'money has been returned', 'money was returned', 'has been refunded', 'was refunded'],
    actionNouns: ['refund', 'payment', 'transfer', 'reimbursement', 'payout'],
  },
  create: {
    verbs: ['create', 'open', 'file', 'log', 'raise', 'add', 'book', 'schedule', 'set up', 'register'],
    weakVerbs: ['make', 'put in'],
    // "The runbook page is now in Notion", "the sync is on your calendar": it exists where the tool makes it.
    phrases: ['is now in', 'is now on', 'are now in', 'is on your calendar', 'is in your calendar', 'now exists'],
    actionNouns: [],
  },
  deploy: {
    verbs: ['deploy', 'roll out', 'release', 'ship', 'promote', 'push * to', 'redeploy'],
    phrases: ['is live', 'is now live', 'are live', 'went live', 'is up on', 'is running on'],
    exceptions: ['is\\s+up\\s+to\\s+date'],
    actionNouns: ['deploy', 'deployment', 'release', 'rollout', 'roll-out'],
  },
  publish: {
    verbs: ['publish', 'post', 'release', 'push live', 'put live'],
    phrases: ['is live', 'is now live', 'went live', 'is published', 'is up'],
    actionNouns: ['publication'],
    exceptions: ['is\\s+up\\s+(?:to\\s+date|and\\s+running|for\\s+review)'],
  },
  update: {
    verbs: ['update', 'transition', 'assign', 'reassign', 'mark', 'resolve', 'reopen', 'rename', 'label', 'tag', 'edit', 'modify'],
    weakVerbs: ['move', 'set', 'close', 'change', 'switch', 'put'],
    phrases: ['is now assigned to', 'is assigned to', 'is marked as', 'is now marked as', 'is now in', 'is now set to'],
    actionNouns: [],
  },
};

/** When a tool's name or description names several kinds, the most specific wins (earlier here). */
export const KIND_PRECEDENCE: readonly ClaimKind[] = ['pay', 'deploy', 'publish', 'send', 'delete', 'run', 'update', 'create', 'write'];

/** Words of tool names and descriptions that tell the kind (their stems: "refunds" → "refund"). */
export const KIND_CUES: Readonly<Record<ClaimKind, readonly string[]>> = {
  delete: ['delete', 'remove', 'erase', 'purge', 'destroy', 'drop', 'unlink', 'wipe', 'trash', 'archive'],
  send: ['send', 'email', 'mail', 'message', 'notify', 'post', 'ping', 'sms', 'text', 'chat', 'reply', 'forward', 'notification', 'alert'],
  write: ['write', 'save', 'store', 'upload', 'put', 'append', 'edit', 'patch', 'file'],
  run: ['run', 'execute', 'exec', 'invoke', 'command', 'shell', 'script', 'sql', 'query', 'job', 'build', 'restart', 'trigger'],
  pay: ['pay', 'payment', 'refund', 'charge', 'transfer', 'payout', 'invoice', 'reimburse'],
  create: ['create', 'open', 'add', 'new', 'schedule', 'book', 'register', 'insert', 'make'],
  deploy: ['deploy', 'release', 'rollout', 'rollback', 'promote', 'ship'],
  publish: ['publish', 'blog', 'article'],
  update: ['update', 'set', 'move', 'transition', 'assign', 'change', 'close', 'resolve', 'rename', 'label', 'mark', 'status'],
};
