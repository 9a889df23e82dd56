/**
 * Verb families for a tool's own verb: the verb in its name (`suspend_account`, `jira__transition_issue`,
 * `issue_refund`) and the other ways English says it ("locked out", "signed off on", "bounced"). A tool
 * whose verb names no claim kind (suspend, approve, merge, acknowledge, scale…) is still checked: its name
 * verb and that verb's family read as claims of it, with evidence of its objects or nouns. Plain data,
 * sandbox-safe.
 */

/** Base verb → the other verbs (and phrases, `*` for one to three words) that say the same. */
export const VERB_FAMILIES: Readonly<Record<string, readonly string[]>> = {
  suspend: ['disable', 'deactivate', 'lock * out', 'lock out', 'lock', 'block', 'ban', 'freeze', 'pause'],
  disable: ['deactivate', 'turn off', 'switch off', 'suspend'],
  enable: ['activate', 'turn on', 'switch on', 'reactivate'],
  approve: ['sign off on', 'sign off', 'okay', 'greenlight', 'green-light', 'accept', 'authorize', 'authorise', 'clear'],
  reject: ['decline', 'deny', 'turn down'],
  restore: ['recover', 'roll back', 'revert', 'bring back', 'reinstate'],
  rollback: ['roll back', 'revert'],
  rotate: ['regenerate', 'replace', 'renew', 'cycle', 'reissue', 'refresh'],
  revoke: ['invalidate', 'disable', 'kill'],
  acknowledge: ['ack', 'accept', 'take'],
  resolve: ['close', 'fix', 'settle'],
  scale: ['resize', 'scale up', 'scale down', 'scale out', 'bump'],
  merge: ['land', 'squash', 'squash-merge', 'merge in'],
  cancel: ['terminate', 'end', 'call off', 'stop', 'discontinue'],
  archive: ['shelve', 'retire', 'put away'],
  mute: ['silence', 'snooze', 'quiet', 'suppress', 'hush'],
  unmute: ['unsilence', 'unsnooze', 'resume'],
  turn: ['turn on', 'turn off', 'switch on', 'switch off', 'enable', 'disable', 'flip', 'toggle'],
  toggle: ['turn on', 'turn off', 'switch on', 'switch off', 'enable', 'disable', 'flip'],
  unpublish: ['take * down', 'take down', 'take * offline', 'pull', 'retract', 'unlist'],
  fulfill: ['ship', 'complete', 'dispatch'],
  reindex: ['rebuild', 'refresh', 'reindex'],
  rebuild: ['reindex', 'regenerate', 'recreate'],
  comment: ['reply', 'respond', 'note', 'leave * comment', 'add * comment', 'post * comment'],
  issue: ['give', 'grant', 'hand out', 'send', 'apply'],
  grant: ['give', 'issue', 'hand out', 'allow'],
  restart: ['bounce', 'reboot', 'cycle', 'kick', 'power-cycle', 'recycle'],
  reboot: ['restart', 'bounce', 'power-cycle'],
  invite: ['add', 'bring in', 'loop in'],
  book: ['reserve', 'schedule', 'set up', 'put * in the calendar', 'put * on the calendar'],
  schedule: ['book', 'set up', 'plan', 'put * on the calendar'],
  transfer: ['move', 'send', 'wire'],
  pay: ['settle', 'clear', 'cover', 'pay off'],
  refund: ['reimburse', 'credit back', 'pay back', 'give * back', 'return'],
  assign: ['give', 'hand', 'hand off', 'route'],
  transition: ['move', 'set', 'mark', 'change', 'advance', 'put'],
  tag: ['label', 'mark'],
  label: ['tag', 'mark'],
  upload: ['put', 'push', 'copy', 'store'],
  publish: ['post', 'put out', 'release', 'make * public', 'push live'],
  post: ['publish', 'share', 'put out'],
  tweet: ['post', 'publish'],
  charge: ['bill', 'debit'],
  block: ['ban', 'blacklist', 'blocklist', 'deny'],
  unblock: ['unban', 'allow', 'whitelist', 'allowlist'],
  purge: ['clear', 'flush', 'invalidate', 'wipe'],
  flush: ['clear', 'purge', 'empty'],
  kill: ['terminate', 'stop', 'end'],
  stop: ['halt', 'shut down', 'kill', 'terminate'],
  terminate: ['kill', 'end', 'stop', 'shut down'],
  start: ['launch', 'spin up', 'boot', 'bring * up', 'fire up'],
  provision: ['spin up', 'set up', 'create', 'stand up'],
  trigger: ['kick off', 'start', 'launch', 'fire'],
  submit: ['file', 'send in', 'hand in', 'put in'],
  request: ['ask', 'ask for', 'ask * to', 'invite'],
  renew: ['extend', 'refresh'],
  reset: ['clear', 'wipe', 'zero'],
  unsubscribe: ['remove', 'opt * out', 'take * off'],
  subscribe: ['sign * up', 'add', 'enroll', 'enrol'],
  promote: ['move', 'push', 'ship'],
  escalate: ['raise', 'bump', 'hand * up'],
  close: ['resolve', 'shut'],
  reopen: ['open * again', 'revive'],
  ship: ['send', 'dispatch', 'mail'],
  sms: ['text', 'message'],
  text: ['sms', 'message'],
  email: ['mail', 'write to', 'e-mail'],
  notify: ['alert', 'tell', 'let * know', 'inform', 'ping'],
  page: ['alert', 'ping', 'call'],
};

/** Words that begin a tool's name without being its action (`get_`, `list_`: read-only; `do_`, `handle_`: say nothing). */
export const NOT_ACTIONS = new Set(['get', 'list', 'read', 'fetch', 'search', 'find', 'query', 'lookup', 'look', 'show', 'describe', 'check', 'view', 'do', 'handle', 'manage', 'process', 'api', 'tool', 'my', 'the', 'new', 'v1', 'v2']);

/** Nouns of a tool's name that are no verb of their own: "issue", "order", "file" are; "tweet", "sms" are verbs of theirs. */
export const NOT_DENOMINAL = new Set(['issue', 'order', 'file', 'files', 'page', 'project', 'record', 'contact', 'message', 'post', 'book', 'charge', 'list', 'report', 'update', 'note', 'log', 'process', 'request', 'event', 'ticket', 'task', 'table', 'change', 'plan', 'schedule', 'test', 'account', 'user', 'customer', 'server', 'service', 'key', 'status', 'state', 'object', 'item', 'entry', 'row', 'field', 'value', 'data', 'content', 'channel', 'team', 'member', 'group', 'role', 'access', 'deploy', 'release', 'build', 'job', 'run', 'task', 'step', 'card', 'board', 'label', 'tag', 'time', 'date', 'meeting', 'payment', 'refund', 'funds', 'fund', 'money', 'subscription', 'coupon', 'discount', 'backup', 'database', 'table', 'document', 'doc', 'folder', 'directory', 'dir', 'bucket', 'email', 'mail', 'text', 'chat']);

/**
 * Verbs that also tell what became of a call ("the send was cancelled before approval", "the run was
 * stopped"): as a tool's own verb (`cancel_subscription`) they claim it only with evidence of its objects.
 */
export const CALL_FATES = new Set(['cancel', 'approve', 'reject', 'deny', 'stop', 'block', 'interrupt', 'fail', 'retry', 'pause', 'resume', 'abort', 'queue', 'skip', 'hold', 'wait']);

/**
 * Verbs English uses for an act on a common business object, keyed by what the object IS (round 8, kind 2):
 * "Scheduled "Offsite planning"" for `gcal__create_event`, "Logged a bug" for `create_issue`, "Landed #1020"
 * for `merge_pull_request`, "Dropped APT-4500" for `cancel_appointment`. A closed list of objects; each
 * entry by the name verb's act (`create`, `cancel`, `merge`, …, `*` for any). Read by `defaultClaimSpec` as
 * verbs that need evidence of the tool in the clause.
 */
export const OBJECT_VERBS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  event: { create: ['schedule', 'book', 'set up', 'put * on * calendar', 'add * to * calendar', 'pencil in', 'pencil * in', 'block out', 'slot in', 'slot * in'], cancel: ['call off', 'drop', 'scrap', 'axe', 'pull'] },
  meeting: { create: ['schedule', 'book', 'set up', 'arrange', 'put * on * calendar', 'pencil in', 'pencil * in'], schedule: ['set up', 'arrange', 'pencil in', 'pencil * in'], cancel: ['call off', 'drop', 'scrap', 'axe'] },
  appointment: { create: ['schedule', 'book', 'set up', 'make'], book: ['make', 'set up'], cancel: ['call off', 'drop', 'scrap', 'axe', 'scratch'], reschedule: ['move', 'push', 'shift', 'bump'] },
  booking: { create: ['book', 'reserve'], cancel: ['call off', 'drop', 'scrap', 'release'] },
  reservation: { create: ['book', 'reserve'], cancel: ['call off', 'drop', 'scrap', 'release'] },
  issue: { create: ['file', 'log', 'open', 'raise', 'report', 'submit', 'flag'], close: ['resolve', 'shut', 'wrap up'] },
  bug: { create: ['file', 'log', 'open', 'raise', 'report', 'submit', 'flag'] },
  ticket: { create: ['file', 'log', 'open', 'raise', 'submit', 'cut'], close: ['resolve', 'shut', 'wrap up'] },
  incident: { create: ['open', 'declare', 'raise', 'log', 'file'], resolve: ['close', 'wrap up'] },
  request: { merge: ['land', 'ship', 'merge in', 'squash', 'get * in'], approve: ['sign off on', 'okay', 'lgtm'] },
  loan: { renew: ['extend', 'roll over', 'push * back', 'push back'] },
  subscription: { cancel: ['end', 'stop', 'drop', 'terminate'], renew: ['extend', 'roll over'] },
  membership: { cancel: ['end', 'drop', 'terminate'], renew: ['extend'] },
  invoice: { create: ['bill', 'invoice', 'raise', 'issue', 'send'], send: ['bill', 'invoice', 'issue'] },
  record: { update: ['point', 'repoint', 're-point'] },
  price: { update: ['reprice', 'mark down', 'mark * down', 'mark up', 'mark * up', 'drop', 'cut', 'lower', 'raise'], set: ['reprice', 'mark down', 'mark * down', 'drop', 'cut', 'lower', 'raise'] },
  schedule: { set: ['move', 'shift', 'change', 'push', 'bring * forward'], update: ['move', 'shift', 'change', 'push'] },
  order: { cancel: ['call off', 'drop', 'scrap', 'void'], fulfill: ['ship', 'send out', 'dispatch'] },
  payment: { refund: ['reverse', 'give * back', 'send * back', 'return'] },
  task: { create: ['add', 'log', 'put * on'], complete: ['tick off', 'check off', 'finish', 'close'] },
  user: { disable: ['lock out', 'lock * out', 'deactivate', 'suspend', 'block', 'cut off'], delete: ['remove', 'offboard', 'drop'] },
  account: { disable: ['lock out', 'lock * out', 'deactivate', 'suspend', 'block', 'cut off'], delete: ['remove', 'close', 'offboard'] },
};

/** Other nouns for the same business object (round 8): a "bug" is an issue, a "hold" an event, a "PR" a pull request. */
export const OBJECT_NOUNS: Readonly<Record<string, readonly string[]>> = {
  issue: ['bug', 'ticket'],
  event: ['meeting', 'invite', 'hold', 'block'],
  appointment: ['slot', 'visit', 'booking'],
  meeting: ['invite', 'hold'],
  pull: ['pr'],
  loan: ['checkout'],
  invoice: ['bill'],
};
