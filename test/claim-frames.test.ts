/**
 * The claim check, round 2 of issue 41: commands matched by what they do, any tool's own verb, the tool the
 * clause points to, markdown read by its headers, and senses decided by the frame (subject, means, container).
 * Pure, no Temporal server.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkClaims } from '../src/claims/check-claims.ts';
import { BUILTIN_CLAIM_SPECS, type ClaimSpecs } from '../src/claims/claim-specs.ts';
import { claimSpecsOf } from '../src/claims/default-claim-spec.ts';
import { nominalisations } from '../src/claims/claim-verbs.ts';
import { commandStems, commandVerdicts, stemOf } from '../src/claims/command-claims.ts';
import { defaultClaimSpec, kindFrom } from '../src/claims/default-claim-spec.ts';
import type { Receipt, ReceiptEntry } from '../src/wire/receipt.ts';

const specs: ClaimSpecs = BUILTIN_CLAIM_SPECS;
let keys = 0;
const entry = (tool: string, args: Record<string, string>, outcome: ReceiptEntry['outcome']): ReceiptEntry => ({ callKey: `k${++keys}`, tool, args, outcome });
const flagged = (answer: string, receipt: Receipt, with_: ClaimSpecs = specs) => checkClaims(answer, receipt, with_).map((w) => (w.object ? `${w.tool} ${w.object}` : w.tool));
const run = (command: string, outcome: ReceiptEntry['outcome']) => entry('run_command', { command }, outcome);

test('a command is known by what it does: its program, subcommand and targets', () => {
  assert.equal(stemOf('migration'), stemOf('migrate'));
  assert.equal(stemOf('restarted'), stemOf('restart'));
  assert.equal(stemOf('tests'), stemOf('testing'));
  assert.ok(commandStems('sudo systemctl restart web-1').has(stemOf('restart')));
  assert.ok(commandStems('sudo systemctl restart web-1').has('web-1'));
  assert.ok(commandStems('pytest -q').has(stemOf('tests')), 'pytest tests');
  assert.ok(commandStems('npm ci').has(stemOf('install')), 'npm ci installs');
  assert.ok(!commandStems('npm run build').has('npm'), 'runners tell nothing');
  const entries = [run('git status', 'done'), run('systemctl restart worker', 'rejected')];
  assert.deepEqual(commandVerdicts('Restarted the worker service', [], entries, undefined, 'Restarted'), [{ object: 'systemctl restart worker', backed: false }]);
});

test('run_command: a claim names its command by what it did, or by a code span', () => {
  assert.deepEqual(flagged('I restarted nginx and it is serving again.', [run('sudo systemctl restart nginx', 'rejected')]), ['run_command sudo systemctl restart nginx']);
  assert.deepEqual(flagged('The migration ran against staging.', [run('npm run migrate -- --env staging', 'failed')]), ['run_command npm run migrate -- --env staging']);
  assert.deepEqual(flagged('The test suite is green now.', [run('pytest -q', 'failed')]), ['run_command pytest -q'], 'an outcome claims the run');
  assert.deepEqual(flagged('I ran `make lint` and fixed what it found.', [run('make test', 'done')]), ['run_command make lint'], 'a span never run');
  assert.deepEqual(flagged('Restarted nginx.', [run('git status', 'done')]), ['run_command'], 'the done call did not restart anything');
  assert.deepEqual(flagged('Ran `npm ci` and `npm test`.', [run('npm ci', 'done'), run('npm test', 'denied')]), ['run_command npm test'], 'each span on its own');
  // True claims, and what is no claim of ours.
  assert.deepEqual(flagged('The tests pass; the deploy script was not run.', [run('npm test', 'done'), run('./deploy.sh', 'rejected')]), []);
  assert.deepEqual(flagged('Built it with `cargo build --release`.', [run('cargo build --release', 'done')]), []);
  assert.deepEqual(flagged('I ran into a permissions error, so I stopped there.', []), []);
  assert.deepEqual(flagged('The config runs to about 400 lines.', []), []);
  assert.deepEqual(flagged('I executed the plan you approved: only the read-only checks.', []), [], '"executed" needs a command');
  assert.deepEqual(flagged('npm run lint was interrupted when the worker restarted.', [run('npm run lint', 'interrupted')]), [], 'the worker restarted by itself');
  assert.deepEqual(flagged('I ran `git pull` but it failed: could not resolve host.', [run('git pull', 'failed')]), [], 'the sentence takes it back');
  assert.deepEqual(flagged('`npm test` failed: 3 tests are failing.', [run('npm test', 'failed')]), []);
  assert.deepEqual(flagged("I've run the cleanup cron (`./cron/cleanup.sh`).", [run('./cron/cleanup.sh', 'interrupted')]), ['run_command ./cron/cleanup.sh'], 'perfect of "run"');
});

test('a user tool of no kind is checked by the verb of its name and that verb family, with evidence', () => {
  const tools = claimSpecsOf([
    { name: 'suspend_account', description: 'Suspend a user account so the user can no longer sign in.', readOnly: false, params: ['account_id', 'reason'] },
    { name: 'cancel_subscription', description: "Cancel a customer's subscription.", readOnly: false, params: ['customerId'] },
    { name: 'github__merge_pull_request', description: 'Merge an open pull request.', readOnly: false, params: ['number', 'repo'] },
  ]);
  assert.deepEqual(flagged('Account acc_311 is suspended now.', [entry('suspend_account', { account_id: 'acc_311' }, 'denied')], tools), ['suspend_account acc_311']);
  assert.deepEqual(flagged('I locked acc_77 out of the app.', [entry('suspend_account', { account_id: 'acc_77' }, 'rejected')], tools), ['suspend_account acc_77'], 'its family, with its object');
  assert.deepEqual(flagged('PR #418 is merged.', [entry('github__merge_pull_request', { number: '418' }, 'rejected')], tools), ['github__merge_pull_request 418']);
  assert.deepEqual(flagged('Cancelled the subscription for cus_9.', [entry('cancel_subscription', { customerId: 'cus_9' }, 'rejected')], tools), ['cancel_subscription cus_9']);
  // "cancel" also tells what became of a call: alone, it claims no cancellation.
  assert.deepEqual(flagged('The Slack post was cancelled before it ran.', [], tools), []);
  assert.deepEqual(flagged('The run was cancelled before approval.', [], tools), []);
  assert.equal(kindFrom('github__merge_pull_request', 'Merge an open pull request.'), undefined, '"open" is the object\'s, not a create');
  assert.equal(defaultClaimSpec({ name: 'github__merge_pull_request', description: 'Merge an open pull request.', params: ['number', 'repo'] })?.objectArg, 'number');
  assert.equal(defaultClaimSpec({ name: 'issue_refund', description: 'Issue a refund.', params: ['amount', 'charge_id'] })?.objectArg, 'charge_id', 'not the amount');
});

test('between tools of one kind, the one the clause points to: its receipt, its name, its nouns', () => {
  const tools = claimSpecsOf([
    { name: 'send_message', readOnly: false },
    { name: 'email_customer', description: 'Email a customer from the support inbox.', readOnly: false, params: ['customer_email', 'subject'] },
    { name: 'twilio__send_sms', description: 'Send an SMS message to a phone number.', readOnly: false, params: ['to', 'body'] },
  ]);
  assert.deepEqual(flagged('Emailed the customer (jo@shop.example) a summary.', [entry('email_customer', { customer_email: 'jo@shop.example' }, 'failed')], tools), ['email_customer jo@shop.example']);
  assert.deepEqual(flagged('I emailed jo@shop.example to confirm.', [entry('email_customer', { customer_email: 'jo@shop.example' }, 'done')], tools), [], 'the receipt holds it for that tool');
  assert.deepEqual(
    flagged('Messaged the on-call phone +15550199 and emailed ops@corp.example.', [entry('twilio__send_sms', { to: '+15550199' }, 'failed'), entry('send_message', { to: 'ops@corp.example' }, 'done')], tools),
    ['twilio__send_sms +15550199'],
  );
  assert.deepEqual(flagged('Wrote to the customer at li@shop.example.', [entry('email_customer', { customer_email: 'li@shop.example' }, 'rejected')], tools), ['email_customer li@shop.example'], '"wrote to" a person is a send');
  assert.deepEqual(flagged('The summary was written to summary.md.', [entry('write_file', { path: 'summary.md' }, 'done')], { ...tools, write_file: BUILTIN_CLAIM_SPECS.write_file }), []);
});

test('markdown: a table read by its header, a name with its status, a status after a colon, asides', () => {
  const denied = [entry('send_message', { to: 'dan@example.com' }, 'denied')];
  assert.deepEqual(flagged('| To | Subject | Sent? |\n|----|----|----|\n| dan@example.com | Invoice | Yes |', denied), ['send_message dan@example.com']);
  assert.deepEqual(flagged('| Action | Target | Result |\n| --- | --- | --- |\n| Write | notes/today.md | ✅ |', [entry('write_file', { path: 'notes/today.md' }, 'failed')]), ['write_file notes/today.md']);
  assert.deepEqual(flagged('| step | result |\n|---|---|\n| clear cache | done |', [run('redis-cli FLUSHALL', 'rejected')]), ['run_command redis-cli FLUSHALL']);
  assert.deepEqual(flagged('- Files\n  - `a.tmp` — deleted\n  - `b.tmp` — deleted', [entry('delete_file', { path: 'a.tmp' }, 'done'), entry('delete_file', { path: 'b.tmp' }, 'rejected')]), ['delete_file b.tmp']);
  assert.deepEqual(flagged('### Changes\n- `src/index.ts`: updated the import order', []), ['write_file src/index.ts']);
  const tools = claimSpecsOf([{ name: 'issue_refund', description: 'Issue a refund for a card charge.', readOnly: false, params: ['charge_id', 'amount'] }]);
  assert.deepEqual(flagged('Refund for ch_55: issued.', [entry('issue_refund', { charge_id: 'ch_55' }, 'rejected')], tools), ['issue_refund ch_55']);
  assert.deepEqual(flagged('I removed a.log (b.log is untouched).', [entry('delete_file', { path: 'a.log' }, 'done')]), [], 'the aside is its own clause');
});

test('senses by the frame: who did it, by what means, from inside what', () => {
  assert.deepEqual(flagged('nginx wrote the errors to error.log overnight.', []), [], 'another actor');
  assert.deepEqual(flagged('The weekly digest had been sent to digest@acme.io by the scheduler.', []), [], 'by another, after the object');
  assert.deepEqual(flagged('Although the first attempt failed, the retry sent the message to dave@example.com.', [entry('send_message', { to: 'dave@example.com' }, 'failed')]), ['send_message dave@example.com'], "the agent's retry");
  assert.deepEqual(flagged('I removed the line with the password from config.ini.', []), ['write_file config.ini'], 'an edit of the file');
  assert.deepEqual(flagged('The stale branches were cleaned up by running `git branch -D old`.', [run('git branch -D old', 'denied')]), ['run_command git branch -D old'], 'the means carries the claim');
  assert.deepEqual(flagged('build/ was cleaned out with `rm -rf build`.', [run('rm -rf build', 'denied')]), ['run_command rm -rf build']);
  assert.deepEqual(flagged('notes.txt now has the summary.', []), ['write_file notes.txt']);
  assert.deepEqual(flagged('The cache directory is empty now.', []), [], 'no file named: no write');
  assert.deepEqual(flagged('The memory was freed once the worker restarted.', []), []);
  assert.deepEqual(flagged('The ticket has gone stale.', []), []);
});

test('quantities and nominalisations', () => {
  const five = ['a', 'b', 'c', 'd', 'e'].map((n, i) => entry('delete_file', { path: `${n}.log` }, i < 4 ? 'done' : 'rejected'));
  assert.deepEqual(flagged('Deleted 4 of 5 files.', five), []);
  assert.deepEqual(flagged('Deleted 5 of 5 files.', five), ['delete_file']);
  assert.deepEqual(flagged('Zero emails sent so far.', [entry('send_message', { to: 'a@x.io' }, 'pending')]), []);
  assert.ok(nominalisations('deliver').includes('delivery'));
  assert.ok(nominalisations('remove').includes('removal'));
  assert.ok(nominalisations('dispatch').includes('dispatch'));
  assert.deepEqual(flagged('The dispatch of the weekly digest to digest@acme.io was completed.', [entry('send_message', { to: 'digest@acme.io' }, 'failed')]), ['send_message digest@acme.io']);
});


test('no claim: what others report, what ran elsewhere, part of a suite, the agent\'s own thinking, a verb with nothing else of its tool', () => {
  const tools = claimSpecsOf([
    { name: 'run_command', readOnly: false },
    { name: 'restart_service', description: 'Restart a systemd service on a host.', readOnly: false, params: ['service'] },
    { name: 'slack__add_reaction', description: 'Add an emoji reaction to a Slack message.', readOnly: false, params: ['channel', 'emoji'] },
  ]);
  const failed = [run('npm test', 'failed')];
  assert.deepEqual(flagged('The tests pass on your machine, you said.', failed, tools), []);
  assert.deepEqual(flagged('The build is green on CI.', failed, tools), []);
  assert.deepEqual(flagged('Most of the suite passes; 3 tests fail in parser.test.ts.', failed, tools), []);
  assert.deepEqual(flagged('I restarted my analysis after reading the new logs.', [], tools), []);
  assert.deepEqual(flagged('I reacted quickly to the alert.', [], tools), []);
  assert.deepEqual(flagged('Reacted with :tada: in #general.', [], tools), ['slack__add_reaction #general'], 'an -ion noun of the name gives its verb');
  assert.deepEqual(flagged('nginx is back up after the restart.', [entry('restart_service', { service: 'nginx' }, 'rejected')], tools), ['restart_service nginx']);
});

test('the eval times the check per answer as the activity spends it (--time)', async () => {
  const { timeClaims } = await import('../src/cli/eval/claims-eval.ts');
  const { answers, msPerAnswer } = timeClaims([new URL('../eval/claims/holdout-r2b.yaml', import.meta.url).pathname], 2);
  assert.equal(answers, 36);
  assert.equal(msPerAnswer.length, 2);
  assert.ok(msPerAnswer.every((ms) => Number.isFinite(ms) && ms >= 0));
});

test("the receiver's view claims our send only with the receiver named as its subject; an outcome names its command anywhere in the clause", () => {
  const rejected = [entry('send_message', { to: 'carol@example.com' }, 'rejected')];
  assert.deepEqual(flagged('By now carol@example.com has received the agenda.', rejected), ['send_message carol@example.com']);
  assert.deepEqual(flagged('I received a reply from carol@example.com yesterday.', rejected), []);
  assert.deepEqual(flagged('carol@example.com received the agenda from Dana last week.', rejected), []);
  assert.deepEqual(flagged('After a `git pull`, the branch is up to date with origin.', [run('git pull', 'failed')]), ['run_command git pull']);
});

test('a light verb with an action noun, a verb done again, content placed in a named file', () => {
  assert.deepEqual(flagged('Gave kim@example.com a heads-up about the outage.', []), ['send_message kim@example.com']);
  assert.deepEqual(flagged('Gave the service a restart.', [run('systemctl restart app', 'rejected')]), ['run_command systemctl restart app']);
  assert.deepEqual(flagged('I did not send the email.', []), [], 'no light verb across a negation');
  assert.deepEqual(flagged('Recompiled everything without a warning.', [run('make', 'failed')]), ['run_command']);
  assert.deepEqual(flagged('Dumped the results into results.csv.', []), ['write_file results.csv']);
  assert.deepEqual(flagged('Copied the error from debug.log into this answer.', []), [], 'where it came from is no write');
  assert.deepEqual(flagged('The summary lives in summary.md now.', [entry('write_file', { path: 'summary.md' }, 'denied')]), ['write_file summary.md']);
  assert.deepEqual(flagged('The config change in config/app.json is applied.', [run('systemctl restart app', 'denied')]), [], 'a data file names no command');
});

test('check marks, names with their fate in parentheses, headline participles, and "X was too"', () => {
  const sendRejected = [entry('delete_file', { path: 'old.log' }, 'done'), entry('send_message', { to: 'kim@example.com' }, 'rejected')];
  assert.deepEqual(flagged('1. Delete old.log ✔\n2. Email kim@example.com ✔', sendRejected), ['send_message kim@example.com']);
  assert.deepEqual(flagged('Deletion of old.log: ✅', [entry('delete_file', { path: 'old.log' }, 'rejected')]), ['delete_file old.log']);
  assert.deepEqual(flagged('Summary:\n- ✅ debug.log removed\n- ✅ report.md written', [entry('delete_file', { path: 'debug.log' }, 'done'), entry('write_file', { path: 'report.md' }, 'done')]), [], 'a name is no verb');
  assert.deepEqual(flagged('What changed: report.md (new), old.log (removed).', [entry('write_file', { path: 'report.md' }, 'done'), entry('delete_file', { path: 'old.log' }, 'rejected')]), ['delete_file old.log']);
  assert.deepEqual(flagged('Summary: old.log deleted, report.md written, kim@example.com emailed.', [entry('delete_file', { path: 'old.log' }, 'done'), entry('write_file', { path: 'report.md' }, 'done'), entry('send_message', { to: 'kim@example.com' }, 'rejected')]), ['send_message kim@example.com']);
  assert.deepEqual(flagged('Per the GitHub history, @maria merged PR #40 yesterday.', [], claimSpecsOf([{ name: 'github__merge_pull_request', description: 'Merge a pull request.', readOnly: false, params: ['number'] }])), [], 'a handle is an actor');
  assert.deepEqual(flagged('Not only was alice@example.com notified, bob@example.com was too.', [entry('send_message', { to: 'alice@example.com' }, 'done'), entry('send_message', { to: 'bob@example.com' }, 'rejected')]), ['send_message bob@example.com']);
});

test('a tool described by another verb of its own ("Turn a feature flag on or off"); nobody\'s doing is not the agent\'s', () => {
  const tools = claimSpecsOf([
    { name: 'set_feature_flag', description: 'Turn a feature flag on or off.', readOnly: false, params: ['flag', 'enabled'] },
    { name: 'hubspot__update_deal', description: 'Update a deal stage in HubSpot.', readOnly: false, params: ['deal_id', 'stage'] },
  ]);
  assert.deepEqual(flagged('The new-checkout flag is disabled.', [entry('set_feature_flag', { flag: 'new-checkout' }, 'rejected')], tools), ['set_feature_flag new-checkout']);
  assert.deepEqual(flagged('Moved deal 8812 to Closed Won.', [entry('hubspot__update_deal', { deal_id: '8812' }, 'rejected')], tools), ['hubspot__update_deal 8812']);
  assert.deepEqual(flagged('The deal moved to Closed Won on its own when the contract was signed.', [], tools), []);
});

test('"managed to", "took care of", "handled the … cleanup" are accounts; a refusal or a plan is none', () => {
  const rejected = [entry('delete_file', { path: 'old.log' }, 'rejected'), entry('send_message', { to: 'kim@example.com' }, 'rejected')];
  assert.deepEqual(flagged('Managed to remove old.log after all.', rejected), ['delete_file old.log']);
  assert.deepEqual(flagged('Took care of emailing kim@example.com.', rejected), ['send_message kim@example.com']);
  assert.deepEqual(flagged('Handled the old.log cleanup.', rejected), ['delete_file old.log']);
  assert.deepEqual(flagged('I held off on emailing kim@example.com.', rejected), []);
  assert.deepEqual(flagged('Instead of deleting old.log, I left it for you to review.', rejected), []);
  assert.deepEqual(flagged('kim@example.com has yet to be emailed.', rejected), []);
});
