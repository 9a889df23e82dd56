/**
 * The claim check's round-9 mechanisms (issue 41): frames that apply only where they govern the mention. An
 * amount or a time after "by" is no actor and a request after "per" no source; "you" frames only as the one
 * who acts, not as the one served or asked; a consequence told after "so" frames only when it says something
 * of the act itself. Each test fails on the round-8 checker (dfb4840). Pure, no Temporal server.
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

const loans = { name: 'renew_loan', description: 'Renew a library loan, extending its due date.', params: ['loanId'] };
const appointments = { name: 'cancel_appointment', description: 'Cancel a booked appointment.', params: ['appointmentId'] };
const jira = { name: 'jira__transition_issue', description: 'Move a Jira issue to another workflow status.', params: ['issueKey', 'status'] };
const specs = specsWith(loans, appointments, jira);

test('an amount or a time after "by" is no actor; a request or a rule after "per" is no source', () => {
  const renew = [entry('renew_loan', { loanId: 'L-771' }, 'failed')];
  assert.deepEqual(flagged('L-771 got pushed back by two weeks.', renew, specs), ['renew_loan L-771']);
  assert.deepEqual(flagged('L-771 was extended by a week.', renew, specs), ['renew_loan L-771']);
  // (…an actor after "by" is still another's doing.)
  assert.deepEqual(flagged('L-771 was extended by the librarian.', renew, specs), []);
  const move = [entry('jira__transition_issue', { issueKey: 'ENG-9', status: 'Done' }, 'failed')];
  assert.deepEqual(flagged('ENG-9 is now in Done, per the runbook.', move, specs), ['jira__transition_issue ENG-9']);
  assert.deepEqual(flagged('Per your request, ENG-9 sits in Done now.', move, specs), ['jira__transition_issue ENG-9']);
  // (…a record or a service after "per" still reports.)
  assert.deepEqual(flagged('ENG-9 is now in Done, per the board.', move, specs), []);
});

test('"you" frames only as the one who acts: not as the reader who asked ("as you asked", "just as you wanted")', () => {
  const cancel = [entry('cancel_appointment', { appointmentId: 'APT-88' }, 'rejected')];
  assert.deepEqual(flagged('As you asked, APT-88 is off the books.', cancel, specs), ['cancel_appointment APT-88']);
  assert.deepEqual(flagged('APT-88 — off the books, just as you wanted.', cancel, specs), ['cancel_appointment APT-88']);
  const renew = [entry('renew_loan', { loanId: 'L-771' }, 'failed')];
  assert.deepEqual(flagged('L-771 is good for two more weeks — I know you wanted that.', renew, specs), ['renew_loan L-771']);
  // (…the reader as the one who acts, or who is to act, still frames.)
  assert.deepEqual(flagged('You took APT-88 off the books yourself, as you wanted.', cancel, specs), []);
  assert.deepEqual(flagged('You can take APT-88 off the books yourself.', cancel, specs), []);
  assert.deepEqual(flagged('APT-88 is for you to call off, as you asked.', cancel, specs), []);
});

test('a whole told by "every one of them" or "the lot" claims every call, as "all" does', () => {
  const shots = [entry('delete_file', { path: 'shots/a.png' }, 'done'), entry('delete_file', { path: 'shots/b.png' }, 'rejected'), entry('delete_file', { path: 'shots/c.png' }, 'done')];
  assert.deepEqual(flagged('I deleted the old screenshots, every one of them.', shots, specs), ['delete_file']);
  assert.deepEqual(flagged('Binned the lot.', shots, specs), ['delete_file']);
  // (…"one of" alone is a part, and a whole of the done calls is backed.)
  assert.deepEqual(flagged('Deleted one of the screenshots.', shots, specs), []);
  assert.deepEqual(flagged('Binned the lot.', shots.filter((e) => e.outcome === 'done'), specs), []);
});

test('a whole told absent ("none of … remain", "not a single … is left") claims every deletion', () => {
  const shots = [entry('delete_file', { path: 'shots/a.png' }, 'done'), entry('delete_file', { path: 'shots/b.png' }, 'rejected')];
  assert.deepEqual(flagged('None of the old screenshots remain.', shots, specs), ['delete_file']);
  assert.deepEqual(flagged('Not a single old screenshot is left.', shots, specs), ['delete_file']);
  // (…backed when every call was done; not a claim when the absence is of something else or the act is denied.)
  assert.deepEqual(flagged('None of the old screenshots remain.', shots.slice(0, 1), specs), []);
  assert.deepEqual(flagged('I have no retries left.', shots, specs), []);
  assert.deepEqual(flagged('None of the screenshots were deleted, so both remain.', shots, specs), []);
});

test('the noun of the object before its identifier is no imperative: "Loan L-771: extended" is an account', () => {
  const renew = [entry('renew_loan', { loanId: 'L-771' }, 'failed')];
  assert.deepEqual(flagged('Loan L-771: extended to the 30th.', renew, specs), ['renew_loan L-771']);
  assert.deepEqual(flagged('Loan L-771: good till the 30th.', renew, specs), ['renew_loan L-771']);
  // (…a verb before it is still a task told to the reader.)
  assert.deepEqual(flagged('Renew L-771 when you can.', renew, specs), []);
});

test('a word of retention frames the mention only when told of it, not of another thing beside it', () => {
  const cancel = [entry('cancel_appointment', { appointmentId: 'APT-88' }, 'rejected')];
  assert.deepEqual(flagged('APT-88 is off the books, still in time for the refund window.', cancel, specs), ['cancel_appointment APT-88']);
  const move = [entry('jira__transition_issue', { issueKey: 'ENG-9', status: 'Done' }, 'failed')];
  assert.deepEqual(flagged('ENG-9 sits in Done and its comments remain visible.', move, specs), ['jira__transition_issue ENG-9']);
  // (…told of it — its subject, the head of its phrase, a name coordinated with it, or its object — it frames.)
  assert.deepEqual(flagged('APT-88 is still on the books.', cancel, specs), []);
  assert.deepEqual(flagged('The APT-88 booking is still on the books.', cancel, specs), []);
  assert.deepEqual(flagged('APT-88 and APT-89 are both still booked.', cancel, specs), []);
  assert.deepEqual(flagged('I kept the Friday slot, APT-88, on the books.', cancel, specs), []);
});

test('a draft frames only an act it comes before: for a tool that writes, the draft is what it writes', () => {
  const write = [entry('write_file', { path: 'plan.md', content: 'Plan' }, 'failed')];
  assert.deepEqual(flagged('Your draft is safe in plan.md now.', write, specs), ['write_file plan.md']);
  assert.deepEqual(flagged('plan.md has the draft of the plan.', write, specs), ['write_file plan.md']);
  // (…"still a draft", and a draft beside a failure, still frame.)
  assert.deepEqual(flagged('plan.md is still a draft.', write, specs), []);
  assert.deepEqual(flagged('The draft for plan.md is ready, but the write failed.', write, specs), []);
});

test('a negation of an obstacle to the act asserts it: "didn\'t hesitate to", "nothing stopped me from", "took no time"', () => {
  const del = [entry('delete_file', { path: 'old.log' }, 'rejected')];
  assert.deepEqual(flagged("I didn't hesitate to delete old.log.", del, specs), ['delete_file old.log']);
  assert.deepEqual(flagged('Nothing stopped me from deleting old.log.', del, specs), ['delete_file old.log']);
  assert.deepEqual(flagged('Deleting old.log took no time at all.', del, specs), ['delete_file old.log']);
  assert.deepEqual(flagged("There's no doubt old.log is gone.", del, specs), ['delete_file old.log']);
  assert.deepEqual(flagged('No sooner had you asked than I deleted old.log.', del, specs), ['delete_file old.log']);
  assert.deepEqual(flagged("It's not that I didn't delete old.log — I did.", del, specs), ['delete_file old.log']);
  assert.deepEqual(flagged("I couldn't resist deleting old.log.", del, specs), ['delete_file old.log']);
  // (…a negation of the act itself still negates it.)
  assert.deepEqual(flagged("I didn't delete old.log.", del, specs), []);
  assert.deepEqual(flagged('Something stopped me from deleting old.log: you declined.', del, specs), []);
});

test('"should" or "must" with "already" anywhere in the part is an expectation of what is done, not a plan', () => {
  const send = [entry('send_message', { to: 'mo@lattice.io', text: 'Invoice' }, 'rejected')];
  assert.deepEqual(flagged('mo@lattice.io should have the invoice already.', send, specs), ['send_message mo@lattice.io']);
  // (…advice to the reader is still advice.)
  assert.deepEqual(flagged('You should email mo@lattice.io, since they already asked.', send, specs), []);
});

test('a name asked and answered at once ("APT-88? Squared away.") is a label and its value, not a question', () => {
  const cancel = [entry('cancel_appointment', { appointmentId: 'APT-88' }, 'rejected')];
  assert.deepEqual(flagged('APT-88? Squared away.', cancel, specs), ['cancel_appointment APT-88']);
  // (…a question with a verb of its own still asks, and the answer may frame.)
  assert.deepEqual(flagged('Cancelled APT-88? No — it was rejected.', cancel, specs), []);
  assert.deepEqual(flagged('APT-88? Still on the books, sadly.', cancel, specs), []);
});

test('an ellipsis that tells the act done ("…, so I did", "…, which I did") asserts the verb a modal or a request governed', () => {
  const del = [entry('delete_file', { path: 'old.log' }, 'rejected')];
  assert.deepEqual(flagged('I needed to delete old.log, so I did.', del, specs), ['delete_file old.log']);
  assert.deepEqual(flagged('You asked me to delete old.log, which I did.', del, specs), ['delete_file old.log']);
  // (…not a denial, nor a "did" with a verb of its own.)
  assert.deepEqual(flagged("I wanted to delete old.log, but I didn't.", del, specs), []);
  assert.deepEqual(flagged('I needed to delete old.log, so I did ask you first.', del, specs), []);
});

test('"could finally" / "can at last" tells an ability reached, the act done — unless a condition follows', () => {
  const del = [entry('delete_file', { path: 'old.log' }, 'rejected')];
  assert.deepEqual(flagged('I could finally delete old.log.', del, specs), ['delete_file old.log']);
  assert.deepEqual(flagged('I can finally say old.log is gone.', del, specs), ['delete_file old.log']);
  assert.deepEqual(flagged('I could finally delete old.log once you approve.', del, specs), []);
  assert.deepEqual(flagged('I could delete old.log if you approve.', del, specs), []);
});
