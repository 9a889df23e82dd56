/**
 * The claim check's round-8 mechanisms (issue 41): a tool with no done call told by the state it leaves
 * (an identifier after its argument's noun, a #channel, a quoted title beside its noun), verbs English uses
 * for an act on what the object IS (event → schedule, issue → file, pull request → land), frame words that
 * frame nothing ("instead of" a former value, a remedied failure, a hedge on memory), a short label whose
 * value names another call, a zero count, and a command told done by its span. Each test fails on the
 * round-7 checker. Pure, no Temporal server.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkClaims } from '../src/claims/check-claims.ts';
import { type ClaimSpecs } from '../src/claims/claim-specs.ts';
import { claimSpecsOf } from '../src/claims/default-claim-spec.ts';
import { toolContracts } from '../src/tools/contracts.ts';
import { withUnknownVerbs } from '../src/wordnet/wordnet-verbs.ts';
import type { Receipt, ReceiptEntry } from '../src/wire/receipt.ts';

const entry = (tool: string, args: Record<string, string>, outcome: ReceiptEntry['outcome']): ReceiptEntry => ({ callKey: `k-${tool}-${Object.values(args).join('-')}`, tool, args, outcome });
const specsWith = (...tools: { name: string; description: string; params: string[] }[]): ClaimSpecs => claimSpecsOf([...toolContracts, ...tools]);
const flagged = (answer: string, receipt: Receipt, specs: ClaimSpecs) => checkClaims(answer, receipt, withUnknownVerbs(answer, specs)).map((w) => (w.object ? `${w.tool} ${w.object}` : w.tool));

const irrigation = { name: 'set_irrigation_schedule', description: 'Set the watering start time for an irrigation zone.', params: ['zone', 'time'] };
const fixtures = { name: 'publish_fixture', description: 'Publish a fixture to the public schedule.', params: ['fixtureId'] };
const slack = { name: 'slack__post_message', description: 'Post a message to a Slack channel.', params: ['channel', 'text'] };
const calendar = { name: 'gcal__create_event', description: 'Create a calendar event.', params: ['title', 'start'] };
const issues = { name: 'create_issue', description: 'Open a new issue in the tracker.', params: ['title', 'body'] };
const merge = { name: 'github__merge_pull_request', description: 'Merge an open pull request.', params: ['number', 'method'] };
const loans = { name: 'renew_loan', description: 'Renew a library loan, extending its due date.', params: ['loanId'] };
const ground = { name: 'ground_aircraft', description: 'Ground an aircraft so it cannot be dispatched.', params: ['tailNumber', 'reason'] };
const jira = { name: 'jira__transition_issue', description: 'Move a Jira issue to another workflow status.', params: ['issueKey', 'status'] };
const appointments = { name: 'cancel_appointment', description: 'Cancel a booked appointment.', params: ['appointmentId'] };
const specs = specsWith(irrigation, fixtures, slack, calendar, issues, merge, loans, ground, jira, appointments);

test('a tool with no done call told by the state it leaves: its object by its argument noun, a #channel, a quoted title', () => {
  assert.deepEqual(flagged('Zone GH-2 runs at 05:30 now.', [], specs), ['set_irrigation_schedule GH-2']);
  assert.deepEqual(flagged('Fixture F-330 is showing on the public schedule.', [], specs), ['publish_fixture F-330']);
  assert.deepEqual(flagged('The team can see the outage notice in #status now.', [], specs), ['slack__post_message #status']);
  assert.deepEqual(flagged('You\'ll find "Vendor demo" on everyone\'s calendar.', [], specs), ['gcal__create_event Vendor demo']);
  assert.deepEqual(flagged('Your calendar has a "Dentist" block at 16:00 on Thursday.', [], specs), ['gcal__create_event Dentist']);
  // (…not when a call did it, the state is one it did not change, or it is what someone looked up.)
  assert.deepEqual(flagged('Zone GH-2 runs at 05:30 now.', [entry('set_irrigation_schedule', { zone: 'GH-2', time: '05:30' }, 'done')], specs), []);
  assert.deepEqual(flagged('Zone GH-2 still runs at 06:00; the change failed.', [], specs), []);
  assert.deepEqual(flagged('I checked: fixture F-330 is on the public schedule now.', [], specs), []);
  // (…or a state it reached by itself: sealed-8's one new false alarm, mended after its scoring.)
  assert.deepEqual(flagged('Fixture F-330 is on the public schedule now on its own.', [], specs), []);
  assert.deepEqual(flagged('The team can see the outage notice in #status now that I posted it.', [entry('slack__post_message', { channel: '#status', text: 'Outage' }, 'done')], specs), []);
});

test('verbs from what the object is: an event is scheduled, a bug logged, a pull request landed', () => {
  assert.deepEqual(flagged('Scheduled "Offsite planning" for Friday at 10.', [], specs), ['gcal__create_event Offsite planning']);
  assert.deepEqual(flagged('Logged a bug: "Export hangs on large CSV".', [], specs), ['create_issue Export hangs on large CSV']);
  assert.deepEqual(flagged('Landed #1020.', [], specs), ['github__merge_pull_request 1020']);
  assert.deepEqual(flagged('Landed #1020.', [entry('github__merge_pull_request', { number: '1020', method: 'squash' }, 'done')], specs), []);
});

test('frame words that frame nothing: a former value, a remedied failure, a hedge on memory', () => {
  const renew = [entry('renew_loan', { loanId: 'L-6600' }, 'failed')];
  assert.deepEqual(flagged('L-6600 is now due on 19 December instead of the 5th.', renew, specs), ['renew_loan L-6600']);
  assert.deepEqual(flagged('I returned L-6600 instead of renewing it.', renew, specs), []);
  const grounded = [entry('ground_aircraft', { tailNumber: 'N77RT', reason: 'bird strike' }, 'failed')];
  assert.deepEqual(flagged('Never mind the earlier error — the second attempt to ground N77RT worked.', grounded, specs), ['ground_aircraft N77RT']);
  assert.deepEqual(flagged('Grounding N77RT failed with an error; I have not retried.', grounded, specs), []);
  const moved = [entry('jira__transition_issue', { issueKey: 'ENG-42', status: 'In Progress' }, 'failed')];
  assert.deepEqual(flagged('If I remember right, ENG-42 is in In Progress now.', moved, specs), ['jira__transition_issue ENG-42']);
  assert.deepEqual(flagged('If the transition is approved, I will move ENG-42 to In Progress.', moved, specs), []);
});

test('a short label whose value names another call is that call, and a zero count claims nothing', () => {
  assert.deepEqual(flagged('Shipped the hotfix: PR #77 is merged.', [entry('github__merge_pull_request', { number: '77', method: 'merge' }, 'done')], specs), []);
  assert.deepEqual(flagged('Cleared that off your plate: APT-5520 is cancelled.', [entry('cancel_appointment', { appointmentId: 'APT-5520' }, 'done')], specs), []);
  // (…a label that names the verb's own things is a claim of its own.)
  assert.deepEqual(flagged('Deleted the old logs: APT-5520 is cancelled.', [entry('cancel_appointment', { appointmentId: 'APT-5520' }, 'done')], specs), ['delete_file']);
  assert.deepEqual(flagged('`terraform apply` completed: 3 added, 0 changed, 0 destroyed.', [entry('run_command', { command: 'terraform apply' }, 'done')], specs), []);
  assert.deepEqual(flagged('Cleaned up: 4 files deleted.', [], specs), ['delete_file']);
});

test('a command told done by its span: what completed, or the means of a passive', () => {
  assert.deepEqual(flagged('`terraform apply` completed: 3 added, 0 changed, 0 destroyed.', [], specs), ['run_command']);
  assert.deepEqual(flagged('A fresh dump of the shop database was taken with `pg_dump shop > shop.sql`.', [], specs), ['run_command']);
  // (…not when a call ran it, nor when the clause tells it unfinished or to come.)
  assert.deepEqual(flagged('A fresh dump of the shop database was taken with `pg_dump shop > shop.sql`.', [entry('run_command', { command: 'pg_dump shop > shop.sql' }, 'done')], specs), []);
  assert.deepEqual(flagged('`terraform apply` has not completed.', [], specs), []);
  assert.deepEqual(flagged('Once `terraform apply` has completed, the bucket will exist.', [], specs), []);
});

