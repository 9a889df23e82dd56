/** The claim check's round-4 mechanisms (issue 41): claims read from structure, not from word lists. Pure, no Temporal server. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { anchoredClaims } from '../src/claims/anchored-claims.ts';
import { checkClaims } from '../src/claims/check-claims.ts';
import { type ClaimSpecs } from '../src/claims/claim-specs.ts';
import { splitClauses } from '../src/claims/clauses.ts';
import { claimSpecsOf, descriptionVerbs } from '../src/claims/default-claim-spec.ts';
import { toolContracts } from '../src/tools/contracts.ts';
import type { Receipt, ReceiptEntry } from '../src/wire/receipt.ts';

const entry = (tool: string, args: Record<string, string>, outcome: ReceiptEntry['outcome']): ReceiptEntry => ({ callKey: `k-${tool}-${Object.values(args).join('-')}`, tool, args, outcome });
const specsWith = (...tools: { name: string; description: string; params: string[] }[]): ClaimSpecs => claimSpecsOf([...toolContracts, ...tools]);
const flagged = (answer: string, receipt: Receipt, specs: ClaimSpecs) => checkClaims(answer, receipt, specs).map((w) => (w.object ? `${w.tool} ${w.object}` : w.tool));

const offboard = { name: 'offboard_employee', description: "Deactivate an employee's accounts and revoke their access.", params: ['employeeId', 'lastDay'] };
const transition = { name: 'jira__transition_issue', description: 'Move a Jira issue to another status.', params: ['issueKey', 'status'] };
const merge = { name: 'github__merge_pull_request', description: 'Merge a pull request into its base branch.', params: ['pullNumber', 'repo'] };
const archive = { name: 'archive_project', description: 'Archive a project so it becomes read-only.', params: ['projectId'] };
const refund = { name: 'refund_order', description: 'Refund an order.', params: ['orderId'] };
const invoice = { name: 'issue_invoice', description: 'Create and email an invoice to a customer.', params: ['customerId', 'amount'] };

test("a team or MCP tool's object told done or in a new state claims its call, whatever the verb", () => {
  const specs = specsWith(offboard, transition, merge);
  const denied = [entry('offboard_employee', { employeeId: 'EMP-3310' }, 'denied')];
  assert.deepEqual(flagged('Access for contractor EMP-3310 has been cut off as of today.', denied, specs), ['offboard_employee EMP-3310']);
  assert.deepEqual(flagged('Kicked PROJ-77 over to QA.', [entry('jira__transition_issue', { issueKey: 'PROJ-77', status: 'QA' }, 'not_run')], specs), ['jira__transition_issue PROJ-77']);
  assert.deepEqual(flagged('The dependabot bump (#511) is in.', [entry('github__merge_pull_request', { pullNumber: '511' }, 'rejected')], specs), ['github__merge_pull_request 511']);
  // Not when the clause tells it was not done, asked for, only looked at, still as before, or another's doing.
  for (const honest of [
    "EMP-3310's offboarding is waiting for approval.",
    "I couldn't cut off EMP-3310's access: the request was denied.",
    'I checked EMP-3310 in the directory.',
    'EMP-3310 still has access.',
    'EMP-3310 was offboarded by HR last week.',
    'Should I retry EMP-3310?',
    'Once approved, EMP-3310 will be cut off.',
  ]) assert.deepEqual(flagged(honest, denied, specs), [], honest);
  // The state the call was to leave, in its other arguments, says it done ("Won't Do" is a value, not a negation).
  const jira = [entry('jira__transition_issue', { issueKey: 'WEB-11', status: 'Done' }, 'done'), entry('jira__transition_issue', { issueKey: 'WEB-12', status: "Won't Do" }, 'rejected')];
  assert.deepEqual(flagged("| Ticket | Old status | New status |\n|---|---|---|\n| WEB-11 | In Progress | Done |\n| WEB-12 | To Do | Won't Do |", jira, specs), ['jira__transition_issue WEB-12']);
  assert.deepEqual(flagged("WEB-12 is still in To Do: the move to Won't Do was rejected.", jira, specs), []);
  assert.deepEqual(flagged('EMP-3310 no longer has access.', denied, specs), ['offboard_employee EMP-3310'], '"no longer" tells a changed state');
  // Another argument that names what the call acts on, a proper name as written, "now" and "can now" as states.
  const more = specsWith(
    { name: 'grant_repo_access', description: 'Give a user access to a GitHub repository.', params: ['username', 'repo', 'permission'] },
    { name: 'book_room', description: 'Reserve a meeting room for a time slot.', params: ['room', 'start'] },
    { name: 'set_feature_flag', description: 'Turn a feature flag on or off.', params: ['flag', 'enabled'] },
    { name: 'snooze_alert', description: 'Silence an alert for a while.', params: ['alertId', 'minutes'] },
  );
  const grant = [entry('grant_repo_access', { username: 'priya', repo: 'acme/api' }, 'denied')];
  assert.deepEqual(flagged('Priya can now push to acme/api.', grant, more), ['grant_repo_access priya']);
  assert.deepEqual(flagged('Room Orion is yours from 2 to 3 pm.', [entry('book_room', { room: 'Orion' }, 'failed')], more), ['book_room Orion']);
  assert.deepEqual(flagged('I walked past the orion nebula poster.', [entry('book_room', { room: 'Orion' }, 'failed')], more), [], 'a proper name only as written');
  assert.deepEqual(flagged('The new checkout is live for everyone.', [entry('set_feature_flag', { flag: 'new-checkout', enabled: 'true' }, 'rejected')], more), ['set_feature_flag new-checkout']);
  assert.deepEqual(flagged('ALERT-31 fired 12 times overnight.', [entry('snooze_alert', { alertId: 'ALERT-31' }, 'failed')], more), [], 'the thing did something itself');
  assert.deepEqual(flagged('Orion was already booked, so the reservation failed.', [entry('book_room', { room: 'Orion' }, 'failed')], more), [], 'a state found before, and the call failed on it');
  // A plain word names the object only beside a noun of the tool.
  const scaleSpecs = specsWith({ name: 'scale_deployment', description: 'Change the number of replicas of a Kubernetes deployment.', params: ['deployment', 'replicas'] });
  const scaleFailed = [entry('scale_deployment', { deployment: 'search', replicas: '5' }, 'failed')];
  assert.deepEqual(flagged('The search deployment is at 5 replicas now.', scaleFailed, scaleSpecs), ['scale_deployment search']);
  assert.deepEqual(flagged('Search results were sorted by date.', scaleFailed, scaleSpecs), []);
  // A past verb says the effect only with the object as what it acted on: not the thing's own doing, nor another act on it.
  const jira7 = [entry('jira__transition_issue', { issueKey: 'PROJ-7', status: 'Done' }, 'failed')];
  assert.deepEqual(flagged('PROJ-7 described the same crash.', jira7, specs), []);
  assert.deepEqual(flagged('I commented on PROJ-7 with the stack trace.', jira7, specs), []);
  assert.deepEqual(flagged('EMP-3310 joined in 2021 and worked on billing.', denied, specs), []);
  assert.deepEqual(flagged('Shoved PROJ-7 along to Done.', jira7, specs), ['jira__transition_issue PROJ-7']);
  assert.deepEqual(flagged('PROJ-7 bounced around this afternoon.', jira7, specs), [], 'a time of its own');
  assert.deepEqual(flagged('PROJ-7 landed in QA.', jira7, specs), ['jira__transition_issue PROJ-7'], 'a change it went through');
  assert.deepEqual(flagged('EMP-3310 has been disabled.', denied, specs), ['offboard_employee EMP-3310'], 'a participle the lexicon also calls an adjective');
  // Events of the thing's own history, and a state adjective after "been", are no effect of the call.
  const refundSpecs = specsWith({ name: 'refund_order', description: 'Refund an order.', params: ['orderId'] });
  assert.deepEqual(flagged('A-1 was placed with express shipping.', [entry('refund_order', { orderId: 'A-1' }, 'rejected')], refundSpecs), []);
  const slack = specsWith({ name: 'slack__post_message', description: 'Post a message to a Slack channel.', params: ['channel', 'text'] });
  assert.deepEqual(flagged('#eng has been quiet today.', [entry('slack__post_message', { channel: '#eng' }, 'denied')], slack), []);
  // A done call backs it; a built-in tool's objects are read by its verbs only.
  assert.deepEqual(flagged('EMP-3310 has been cut off.', [entry('offboard_employee', { employeeId: 'EMP-3310' }, 'done')], specs), []);
  // A team tool's verb in the passive over a subject that is nothing of the tool's is the everyday sense.
  const pagerduty = specsWith({ name: 'pagerduty__resolve_incident', description: 'Resolve a PagerDuty incident.', params: ['incidentId'] }, merge);
  assert.deepEqual(flagged('The lodash advisory is resolved.', [], pagerduty), []);
  assert.deepEqual(flagged('The incident is resolved.', [], pagerduty), ['pagerduty__resolve_incident']);
  assert.deepEqual(flagged('The PR is merged.', [], pagerduty), ['github__merge_pull_request'], '"PR": the initials of the name\'s noun');
  assert.deepEqual(anchoredClaims('report.md has been handled.', [entry('write_file', { path: 'report.md' }, 'denied')], specs, new Set()), []);
});

test("an identifier of the shape a tool's receipt names have is an object, though the run never acted on it", () => {
  const specs = specsWith(archive);
  const receipt = [entry('archive_project', { projectId: 'PRJ-11' }, 'done')];
  assert.deepEqual(flagged('Archived PRJ-11 and PRJ-12.', receipt, specs), ['archive_project PRJ-12']);
  assert.deepEqual(flagged('Archived PRJ-11.', receipt, specs), []);
  const merged = [entry('github__merge_pull_request', { pullNumber: '511' }, 'done')];
  assert.deepEqual(flagged('Merged PR #511 and #512.', merged, specsWith(merge)), ['github__merge_pull_request 512']);
});

test("a description's coordinated verbs are the tool's verbs too", () => {
  assert.deepEqual(descriptionVerbs("Deactivate an employee's accounts and revoke their access on their last day.").slice(0, 1), ['revoke']);
  assert.deepEqual(descriptionVerbs('Create an event in the team calendar and invite the attendees.').slice(0, 1), ['invite']);
  assert.deepEqual(descriptionVerbs('Merge a pull request into its base branch.'), []);
});

test('a delexical verb with an action noun claims the tool of the noun ("issued a refund")', () => {
  const specs = specsWith(refund, invoice);
  const receipt = [entry('refund_order', { orderId: 'A-1042' }, 'denied')];
  assert.deepEqual(flagged("I've issued a $25 refund on order A-1042.", receipt, specs), ['refund_order A-1042']);
  assert.deepEqual(flagged('I issued the invoice to cust_1.', [entry('issue_invoice', { customerId: 'cust_1' }, 'done')], specs), []);
});

test("the receivers' view of a send claims it for each receiver named", () => {
  const specs = specsWith();
  const receipt = [entry('send_message', { to: 'alice@example.com' }, 'done'), entry('send_message', { to: 'bob@acme.io' }, 'not_run')];
  assert.deepEqual(flagged('Alice and Bob both have the updated rota now.', receipt, specs), ['send_message bob@acme.io']);
  assert.deepEqual(flagged("The checklist is sitting in her inbox (bob@acme.io).", receipt, specs), ['send_message bob@acme.io']);
  assert.deepEqual(flagged('Alice has the updated rota now.', receipt, specs), []);
  assert.deepEqual(flagged("Bob doesn't have the rota yet.", receipt, specs), []);
  assert.deepEqual(flagged('Bob should have the rota by noon.', receipt, specs), []);
  assert.deepEqual(flagged('Bob got a reply from Carol.', receipt, specs), []);
  assert.deepEqual(flagged('Bob has a question about the invoice.', receipt, specs), [], 'what a send carries, not anything had');
  assert.deepEqual(flagged('Bob has the authority to approve this.', receipt, specs), []);
  assert.deepEqual(flagged('Bob sent me a message asking for it.', receipt, specs), [], 'the writer is who it was done to');
  // The thing went to them; a verb with the receiver and a message; a hedge before the account.
  assert.deepEqual(flagged('For the record, the pricing sheet went to sales@x.com an hour ago.', [], specs), ['send_message sales@x.com']);
  assert.deepEqual(flagged('I shot Bob a message about it.', receipt, specs), ['send_message bob@acme.io']);
  assert.deepEqual(flagged('I shot Dave a message at dave@example.org.', [], specs), ['send_message dave@example.org']);
  assert.deepEqual(flagged('Bob got a message from the CI bot.', receipt, specs), []);
  assert.deepEqual(flagged('Unless something went wrong on their end, Bob has the draft in his inbox now.', receipt, specs), ['send_message bob@acme.io']);
  assert.deepEqual(flagged('If the approval comes, Bob will have the draft.', receipt, specs), []);
});

test('quantities over partial success: numbers with modifiers, what a folder holds, names between dashes', () => {
  const specs = specsWith();
  const locks = ['a', 'b', 'c', 'd'].map((n) => entry('delete_file', { path: `locks/${n}.lock` }, 'done'));
  assert.deepEqual(flagged('I removed the 5 stale lock files under locks/.', [...locks, entry('delete_file', { path: 'locks/e.lock' }, 'denied')], specs), ['delete_file']);
  assert.deepEqual(flagged('I removed the 4 stale lock files under locks/.', locks, specs), []);
  const reports = [entry('write_file', { path: 'reports/emea.md' }, 'done'), entry('write_file', { path: 'reports/amer.md' }, 'interrupted')];
  assert.deepEqual(flagged('Each of the regional reports has been written out under reports/.', reports, specs), ['write_file']);
  const files = [entry('write_file', { path: 'notes.md' }, 'done'), entry('write_file', { path: 'todo.md' }, 'failed')];
  assert.equal(flagged('Both files — notes.md and todo.md — are written.', files, specs).length, 1);
  assert.equal(splitClauses('Both files — notes.md and todo.md — are written.').length, 1, 'an apposition of names is no clause break');
  // What names a whole, "a dozen", "all but", receivers told by a quantity.
  const temps = [entry('delete_file', { path: 'tmp/a.tmp' }, 'done'), entry('delete_file', { path: 'tmp/b.tmp' }, 'done'), entry('delete_file', { path: 'tmp/c.tmp' }, 'rejected')];
  assert.deepEqual(flagged('Cleaned up the whole tmp/ folder.', temps, specs), ['delete_file']);
  assert.deepEqual(flagged('Deleted the rest of the temp files too.', temps, specs), ['delete_file']);
  assert.deepEqual(flagged('Deleted a dozen temp files.', temps, specs), ['delete_file']);
  assert.deepEqual(flagged('All but c.tmp are deleted.', temps, specs), []);
  const mails = [entry('send_message', { to: 'a@x.io' }, 'done'), entry('send_message', { to: 'b@x.io' }, 'denied')];
  assert.deepEqual(flagged('Each of the reviewers got an email.', mails, specs), ['send_message']);
  assert.deepEqual(flagged('Everyone on the list has the agenda.', mails.slice(0, 1), specs), []);
  // A heading over names with check marks, and a bold label of one word over names.
  const two = [entry('delete_file', { path: 'a.log' }, 'done'), entry('delete_file', { path: 'b.log' }, 'rejected')];
  assert.deepEqual(flagged('## Cleanup\n- a.log ✅\n- b.log ✅', two, specs), ['delete_file b.log']);
  assert.deepEqual(flagged('**Removed**\n- a.log\n- b.log', two, specs), ['delete_file b.log']);
  assert.deepEqual(flagged('**Plan**\n- a.log\n- b.log', two, specs), []);
  // Not the answer's own account: a comment in a fenced block, a quoted draft; a label with no value, or qualified.
  assert.deepEqual(flagged('```bash\n# deleted a.log earlier\n```\nThat comment is from the old script.', [], specs), []);
  assert.deepEqual(flagged('The email I would send:\n\n> Hi Bob, I deleted a.log.\n\nShall I send it?', [], specs), []);
  assert.deepEqual(flagged('> I deleted a.log.', [], specs), ['delete_file a.log'], 'a quotation nobody introduced is the answer\'s');
  assert.deepEqual(flagged('### Deleted (pending approval)\n- a.log\n- b.log', two, specs), []);
  assert.deepEqual(flagged('**Deleted:** —\n**Written:** notes.md', [entry('write_file', { path: 'notes.md' }, 'done')], specs), []);
  assert.deepEqual(flagged('Emails sent today: 0.', [], specs), []);
  // A row number under "#" is no word of the row (it is no subject of the row's verb).
  const scale = specsWith({ name: 'scale_deployment', description: 'Change the number of replicas of a deployment.', params: ['deployment', 'replicas'] });
  const scaled = [entry('scale_deployment', { deployment: 'search', replicas: '3' }, 'failed')];
  assert.deepEqual(flagged('| # | Action | Target | Result |\n|---|---|---|---|\n| 2 | Scale | `search` → 3 replicas | ✅ |', scaled, scale), ['scale_deployment search']);
  // A bare plural as the verb's object is all of them.
  const logs = [entry('delete_file', { path: 'a.log' }, 'done'), entry('delete_file', { path: 'b.log' }, 'rejected')];
  assert.deepEqual(flagged('Deleted old logs to free space.', logs, specs), ['delete_file']);
  assert.deepEqual(flagged('Deleted old logs to free space.', logs.slice(0, 1), specs), []);
  assert.deepEqual(flagged('Deleted logs that were older than a week.', logs, specs), [], 'a set the clause narrows');
  // A second past verb ends the first one's objects.
  const photos = [entry('delete_file', { path: 'copy1.jpg' }, 'done'), entry('delete_file', { path: 'copy2.jpg' }, 'done')];
  assert.deepEqual(flagged('I deleted the first two duplicates (copy1.jpg, copy2.jpg) and stopped before copy3.jpg.', photos, specs), []);
});

test('frames: counterfactual inversions, certainty about the past, a question only where it asks, a start that was cut short', () => {
  const specs = specsWith();
  assert.deepEqual(flagged('Had I sent it, it would have gone to the wrong address.', [entry('send_message', { to: 'hr@x.org' }, 'rejected')], specs), []);
  assert.deepEqual(flagged('I must have sent it to sam@x.com an hour ago.', [], specs), ['send_message sam@x.com']);
  assert.deepEqual(flagged('I must have sent it to sam@x.com an hour ago — maybe check his spam folder?', [], specs), ['send_message sam@x.com']);
  assert.deepEqual(flagged('Should I delete a.log — or keep it?', [], specs), []);
  // The answer itself is the draft or the message; an offer after an imperative is no narrative.
  assert.deepEqual(flagged('I drafted the email to bob@x.io below; say the word and I send it.', [], specs), []);
  assert.deepEqual(flagged('This answer is all I am sending.', [], specs), []);
  assert.deepEqual(flagged('I drafted the email and then I send it to bob@x.io.', [], specs).filter((w) => w.startsWith('send')), ['send_message bob@x.io']);
  // The writer's own report is an account; another's is not.
  assert.deepEqual(flagged("I'm pleased to say a.log has been deleted.", [entry('delete_file', { path: 'a.log' }, 'rejected')], specs), ['delete_file a.log']);
  assert.deepEqual(flagged('Sam says a.log has been deleted.', [entry('delete_file', { path: 'a.log' }, 'rejected')], specs), []);
  // A command's own word in the past claims it by itself; an everyday one needs the command named.
  assert.deepEqual(flagged('Linted the codebase: no issues.', [entry('run_command', { command: 'npm run lint' }, 'denied')], specs), ['run_command npm run lint']);
  assert.deepEqual(flagged('Updated the README.', [entry('run_command', { command: 'apt update' }, 'failed')], specs).filter((w) => w.startsWith('run_command')), []);
  const build = [entry('run_command', { command: 'make build' }, 'interrupted')];
  assert.deepEqual(flagged('I started `make build`, but the run stopped before it finished.', build, specs), []);
  assert.deepEqual(flagged('Kicked off `make build`; the artifacts are in dist/.', build, specs), ['run_command make build'], 'a start with no end told claims the run');
});

test('not accounts: a measure that changed by itself, a participle that dates things, a noun that looks like a verb of report', () => {
  const specs = specsWith({ name: 'create_calendar_event', description: 'Create an event in the team calendar.', params: ['title'] });
  assert.deepEqual(flagged('Error rate dropped to zero within a minute.', [], specs), []);
  assert.deepEqual(flagged('After confirming the error rate dropped, I wrote notes.md.', [entry('write_file', { path: 'notes.md' }, 'done')], specs), []);
  assert.deepEqual(flagged('The lookup confirms both were captured.', [], specs), [], 'what a lookup confirms is a report');
  assert.deepEqual(flagged('lookup_customer shows two orders created 3 seconds apart.', [], specs), []);
  assert.deepEqual(flagged('Dropped a.log.', [], specs), ['delete_file a.log'], 'the agent dropping a file');
  assert.deepEqual(flagged('Recorded temperatures were normal.', [], specs), [], 'a participle before its noun');
  assert.deepEqual(flagged('Saved searches in Kibana show the spike.', [], specs), [], 'a participle before its noun and its place');
  assert.deepEqual(flagged('The order was placed on June 2 and shipped June 3.', [entry('write_file', { path: 'n.md' }, 'done')], specs), [], 'dated events');
  assert.deepEqual(flagged('The draft is saved locally in your editor, not by me.', [], specs), [], '"not by me"');
  assert.deepEqual(flagged('Getting rid of b.log went smoothly.', [entry('delete_file', { path: 'b.log' }, 'rejected')], specs), ['delete_file b.log'], 'a gerund subject that went through');
  assert.deepEqual(flagged('`npm test`: 42 passed, 0 failed.', [entry('run_command', { command: 'npm test' }, 'denied')], specs), ['run_command npm test'], '"0 failed" tells no failure');
  // Content told where it now is: a noun of the file-writing tool "is in" a file.
  assert.deepEqual(flagged('Nothing to worry about — the summary is in report.md.', [entry('write_file', { path: 'report.md' }, 'failed')], specs), ['write_file report.md']);
  assert.deepEqual(flagged('The bug is in parser.ts.', [entry('write_file', { path: 'parser.ts' }, 'rejected')], specs), [], 'not a noun of the tool');
  assert.deepEqual(flagged('The summary is not in report.md yet.', [entry('write_file', { path: 'report.md' }, 'failed')], specs), []);
  // A state told of nothing of a tool the run never called (it called others) is another sense; an account is not.
  const wrote = [entry('write_file', { path: 'settings.json' }, 'done')];
  assert.deepEqual(flagged('Your custom theme is gone, sorry about that.', wrote, specs), []);
  assert.deepEqual(flagged('1,204 rows were removed.', wrote, specs), []);
  assert.deepEqual(flagged('Your custom theme is gone, sorry about that.', [], specs), ['delete_file'], 'no call at all: nothing to read it against');
  assert.deepEqual(flagged('The old logs are gone.', wrote, specs), ['delete_file'], 'a noun of the tool');
  assert.deepEqual(flagged('Having written settings.json, I then notified the team.', wrote, specs), ['send_message'], 'an account in the active voice');
  const reports = [entry('write_file', { path: 'reports/emea.md' }, 'failed')];
  assert.deepEqual(flagged('The regional reports were written.', reports, specs), ['write_file'], '"reports" is the subject, not a verb of report');
  assert.deepEqual(flagged('The log reports the file was written.', reports, specs), []);
});
