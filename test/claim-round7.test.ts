/**
 * The claim check's round-7 mechanisms (issue 41): how a failed call's plain or redacted object is named (a
 * code span or a quotation of it, its call's other arguments, any address for a redacted receiver), frames
 * that count only where they govern the mention (a label that is a sentence, a quotation, the tool's own
 * service, a comma before "I", the reader's imperative, a message's content, a refused call's future told of
 * another), a later part that tells the act done of "it", a code span's dash, which tool a claim is about
 * (an identifier after its argument's noun, a phrasal name verb, a general word for commands), and claims of
 * nothing. Each case fails on the round-6 checker. Pure, no Temporal server.
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

const snapshot = { name: 'snapshot_db', description: 'Take a snapshot backup of a database.', params: ['database', 'label'] };
const backup = { name: 'backup_database', description: 'Take a snapshot backup of a database.', params: ['database', 'label'] };
const scale = { name: 'k8s__scale_deployment', description: 'Scale a Kubernetes deployment to a number of replicas.', params: ['deployment', 'replicas'] };
const events = { name: 'calendar__create_event', description: 'Create a calendar event.', params: ['title', 'start'] };
const jira = { name: 'jira__transition_issue', description: 'Move a Jira issue to another workflow status.', params: ['issueKey', 'status'] };
const stripe = { name: 'stripe__create_refund', description: 'Create a refund for a Stripe charge.', params: ['chargeId', 'amount'] };
const s3 = { name: 's3__delete_object', description: 'Delete an object from an S3 bucket.', params: ['key', 'bucket'] };
const slack = { name: 'slack__post_message', description: 'Post a message to a Slack channel.', params: ['channel', 'text'] };
const price = { name: 'update_price', description: 'Change the list price of a product SKU in the catalogue.', params: ['sku', 'newPrice'] };
const sql = { name: 'postgres__execute_sql', description: 'Execute a SQL statement against the production database.', params: ['statement'] };
const invoice = { name: 'create_invoice', description: 'Create and issue an invoice to a customer for an amount.', params: ['customerId', 'amount', 'memo'] };
const dns = { name: 'dns__update_record', description: 'Update a DNS record to point at a new value.', params: ['hostname', 'value'] };
const blog = { name: 'publish_post', description: 'Publish a drafted blog post so it goes live on the site.', params: ['slug', 'channel'] };
const specs = specsWith(snapshot, scale, events, jira, stripe, s3, slack, price, sql, invoice, dns, blog);

test("a failed call's plain object is named where the answer marks it, or by its call's other arguments", () => {
  const failed = [entry('snapshot_db', { database: 'orders', label: 'pre-v42' }, 'failed')];
  assert.deepEqual(flagged('Snapshotted the `orders` database before the migration.', failed, specs), ['snapshot_db orders']);
  assert.deepEqual(flagged('The `orders` snapshot failed: disk full.', failed, specs), []);
  const holds = [entry('calendar__create_event', { title: 'Design crit', start: 'Mon 11:00' }, 'done'), entry('calendar__create_event', { title: 'Budget review', start: 'Tue 15:00' }, 'pending')];
  assert.deepEqual(flagged('Two holds are in place: "Design crit" and "Budget review".', holds, specs), ['calendar__create_event Budget review']);
  assert.deepEqual(flagged('"Design crit" is booked; "Budget review" is waiting for your approval.', holds, specs), []);
  // (…a word of its object and a figure of another argument in one clause: a scale of `checkout` to 8.)
  const scaled = [entry('k8s__scale_deployment', { deployment: 'checkout', replicas: '8' }, 'not_run')];
  assert.deepEqual(flagged('The checkout pods are at 8 now, which should absorb the traffic.', scaled, specs), ['k8s__scale_deployment checkout']);
  assert.deepEqual(flagged('The checkout pods are still at 3; scaling to 8 was cancelled.', scaled, specs), []);
});

test('a redacted receiver is named by any address no other call holds', () => {
  const denied = [entry('send_message', { to: '[redacted]', text: 'Follow-up' }, 'denied')];
  assert.deepEqual(flagged('The follow-up to ana@corvid.org should have reached her by now.', denied, specs), ['send_message ana@corvid.org']);
  assert.deepEqual(flagged('The follow-up to ana@corvid.org was denied: she is not on the allow-list.', denied, specs), []);
  // (…not when a call of the tool with a redacted receiver was done: which address it was, nobody knows.)
  const half = [entry('send_message', { to: '[redacted]', text: 'Reminder' }, 'done'), entry('send_message', { to: '[redacted]', text: 'Reminder' }, 'rejected')];
  assert.deepEqual(flagged('Sent to ana@corvid.org.', half, specs), []);
  // (…but more addresses told reached than calls done is a claim: one of the two was rejected.)
  assert.deepEqual(flagged('Per recipient:\n- ops@kestrel.net: delivered\n- finance@kestrel.net: delivered', half, specs), ['send_message finance@kestrel.net']);
  assert.deepEqual(flagged('Delivered to ops@kestrel.net; the one to finance@kestrel.net was rejected.', half, specs), []);
});

test('a frame counts where it governs the mention', () => {
  // A label that is a sentence of its own governs its own verb; a failure in it still frames.
  const lean = [entry('k8s__scale_deployment', { deployment: 'batch-exporter', replicas: '0' }, 'interrupted')];
  assert.deepEqual(flagged("Overnight we'll run lean: the `batch-exporter` deployment is down to zero.", lean, specs), ['k8s__scale_deployment batch-exporter']);
  assert.deepEqual(flagged("We'll need approval first: `batch-exporter` is still at 4 replicas.", lean, specs), []);
  // A quotation is the title's or the message's words.
  assert.deepEqual(flagged('I mirrored that by pushing the matching ticket CORE-77 into "In Progress".', [entry('jira__transition_issue', { issueKey: 'CORE-77', status: 'In Progress' }, 'failed')], specs), ['jira__transition_issue CORE-77']);
  // The tool's own service telling its effect is an account of it, not another's report.
  const refund = [entry('stripe__create_refund', { chargeId: 'ch_4KeL0', amount: '18.00' }, 'interrupted')];
  assert.deepEqual(flagged('Stripe shows $18 going back to the card on charge ch_4KeL0.', refund, specs), ['stripe__create_refund ch_4KeL0']);
  assert.deepEqual(flagged('Stripe shows the refund on ch_4KeL0 as failed.', refund, specs), []);
  // "Don't worry, I …": a comma before "I" starts a part of its own.
  assert.deepEqual(flagged("Don't worry, I didn't forget to save the notes to `retro/s44.md`.", [entry('write_file', { path: 'retro/s44.md', content: 'x' }, 'failed')], specs), ['write_file retro/s44.md']);
  // A failure noun that was remedied, an ability told as a present state.
  assert.deepEqual(flagged('A quick `chmod +x run.sh` sorted the permission error out.', [entry('run_command', { command: 'chmod +x run.sh' }, 'not_run')], specs), ['run_command chmod +x run.sh']);
  assert.deepEqual(flagged('The leaked CSV (`exports/full.csv`) can no longer be downloaded.', [entry('s3__delete_object', { key: 'exports/full.csv', bucket: 'public' }, 'pending')], specs), ['s3__delete_object exports/full.csv']);
  // After a refusal, a future told of another is the effect told as settled; ours is a plan.
  const refused = [entry('stripe__create_refund', { chargeId: 'ch_9hP2', amount: '149.00' }, 'denied')];
  assert.deepEqual(flagged('The customer with the broken headphones will get the full amount back on ch_9hP2.', refused, specs), ['stripe__create_refund ch_9hP2']);
  assert.deepEqual(flagged('Finance will review ch_9hP2 tomorrow, since my refund was denied.', refused, specs), []);
  // The reader's imperative and a message's content frame nothing of the mention.
  assert.deepEqual(flagged('I regenerated the lockfile with `poetry lock`; commit it when ready.', [entry('run_command', { command: 'poetry lock' }, 'rejected')], specs), ['run_command poetry lock']);
  assert.deepEqual(flagged('Once it came up I told #qa the build is ready.', [entry('slack__post_message', { channel: '#qa', text: 'Staging ready' }, 'not_run')], specs), ['slack__post_message #qa']);
});

test('a later part that tells the act done of "it" claims it; a dash inside a code span splits nothing', () => {
  assert.deepEqual(flagged('The price on SKU SOCK-3PK must be $12 now; I set it myself.', [entry('update_price', { sku: 'SOCK-3PK', newPrice: '12.00' }, 'not_run')], specs), ['update_price SOCK-3PK']);
  // (A call under way is framed by "being written"; "consider it delivered" takes that back.)
  assert.deepEqual(flagged('The guide is being written to docs/guide.md right now; check back in a moment.', [entry('write_file', { path: 'docs/guide.md', content: 'x' }, 'pending')], specs), []);
  assert.deepEqual(flagged('A reminder is being sent to kai@moss.test right now — consider it delivered.', [entry('send_message', { to: 'kai@moss.test', text: 'x' }, 'pending')], specs), ['send_message kai@moss.test']);
  const statement = "DELETE FROM users WHERE last_seen < now() - interval '1 year'";
  assert.deepEqual(flagged(`Old accounts are gone — \`${statement}\` removed 3,112 rows.`, [entry('postgres__execute_sql', { statement }, 'rejected')], specs), [`postgres__execute_sql ${statement}`]);
});

test('which tool: an identifier after its argument\'s noun, a name verb said with its particle, a general word for commands', () => {
  assert.deepEqual(flagged('The refund on charge ch_9ZZa1 has been issued.', [], specs), ['stripe__create_refund ch_9ZZa1']);
  const both = specsWith(backup, slack);
  assert.deepEqual(flagged('Posted the notice to #status and backed up `sessions` before the restart.', [entry('slack__post_message', { channel: '#status', text: 'Outage' }, 'done')], both), ['backup_database']);
  assert.deepEqual(flagged('Backed up `catalog`.', [entry('backup_database', { database: 'catalog', label: 'pre' }, 'done')], both), []);
});

test('"there" refers back to the place its sentence names, and a #channel fits the tool whose argument is a channel', () => {
  assert.deepEqual(flagged("You won't need to post anything in #support-leads; I've already let them know there.", [], specs), ['slack__post_message #support-leads']);
  assert.deepEqual(flagged("You won't need to post anything in #support-leads; I've already let them know there.", [entry('slack__post_message', { channel: '#support-leads', text: 'x' }, 'done')], specs), []);
});

test('no claim: of nothing, of what refers back to another call, of a draft another tool publishes, of another tool\'s thing', () => {
  assert.deepEqual(flagged('I read through `errors.log` and jotted nothing down.', [], specs), []);
  const dnsDone = [entry('dns__update_record', { hostname: 'status.acme.io', value: 'cdn.acme-edge.net' }, 'done'), entry('dns__update_record', { hostname: 'status.acme.io', value: 'cdn.acme-edge.net' }, 'deduplicated')];
  assert.deepEqual(flagged('The DNS for `status.acme.io` now points to the new CDN; I saved the same change twice and the second was a no-op.', dnsDone, specs), []);
  assert.deepEqual(flagged('The outage write-up is drafted but not published; comms must approve it first.', [entry('publish_post', { slug: 'outage-nov', channel: 'blog' }, 'denied')], specs), []);
  const purged = [entry('delete_file', { path: 'exports/old.csv' }, 'rejected'), entry('s3__delete_object', { key: 'exports/old.csv', bucket: 'archive' }, 'done')];
  assert.deepEqual(flagged('The archived copy of `exports/old.csv` is purged from the bucket; the local file stays.', purged, specs), []);
  const quota = [entry('snapshot_db', { database: 'users', label: 'm' }, 'done'), entry('snapshot_db', { database: 'events', label: 'm' }, 'failed')];
  assert.deepEqual(flagged('Only `users` got a snapshot; the `events` one hit the quota.', quota, specs), []);
  // A partial run is no completion; a means that is a called tool's thing is that call's doing.
  const upload = { name: 'storage__put_object', description: 'Upload an object to a bucket.', params: ['key', 'bucket'] };
  const cancel = { name: 'calendar__cancel_event', description: 'Cancel a calendar event and notify attendees.', params: ['eventId', 'notifyAttendees'] };
  const more = specsWith(upload, cancel);
  const clips = [entry('storage__put_object', { key: 'c1.mp4', bucket: 'media' }, 'done'), entry('storage__put_object', { key: 'c2.mp4', bucket: 'media' }, 'interrupted')];
  assert.deepEqual(flagged('Uploaded c1.mp4; the second (c2.mp4) was cut off mid-upload, so please re-check it.', clips, more), []);
  // A reason given for a failure, and a failure told with the subject left out, take the claim back.
  const gh = { name: 'github__create_issue', description: 'Open a new issue in a GitHub repository.', params: ['title', 'body', 'repo'] };
  assert.deepEqual(flagged("The bug couldn't be filed because acme/api is archived.", [entry('github__create_issue', { title: 'Export times out', repo: 'acme/api', body: 'x' }, 'denied')], specsWith(gh)), []);
  assert.deepEqual(flagged('`npm test` ran but failed: 2 tests broke.', [entry('run_command', { command: 'npm test' }, 'failed')], more), []);
  // A second clause after ", and" with a name as its subject is no object of the first verb.
  const moved = [entry('write_file', { path: 'plans/q3.md', content: 'x' }, 'done'), entry('delete_file', { path: 'plans/q3-old.md' }, 'done')];
  assert.deepEqual(flagged('All set: the plan lives in plans/q3.md, and plans/q3-old.md is gone.', moved, more), []);
  assert.deepEqual(flagged('Cancelled `evt_12` and let Omar know via the calendar notice.', [entry('calendar__cancel_event', { eventId: 'evt_12', notifyAttendees: 'true' }, 'done')], more), []);
});
