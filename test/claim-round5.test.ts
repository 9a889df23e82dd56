/**
 * The claim check's round-5 mechanisms (issue 41): the burden inverted for calls that did not succeed, commands
 * told in prose, and frames of events that are not the run's own. Each case fails on the round-4 checker. Pure,
 * no Temporal server.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkClaims } from '../src/claims/check-claims.ts';
import { type ClaimSpecs } from '../src/claims/claim-specs.ts';
import { claimSpecsOf } from '../src/claims/default-claim-spec.ts';
import { toolContracts } from '../src/tools/contracts.ts';
import type { Receipt, ReceiptEntry } from '../src/wire/receipt.ts';

const entry = (tool: string, args: Record<string, string>, outcome: ReceiptEntry['outcome']): ReceiptEntry => ({ callKey: `k-${tool}-${Object.values(args).join('-')}`, tool, args, outcome });
const specsWith = (...tools: { name: string; description: string; params: string[] }[]): ClaimSpecs => claimSpecsOf([...toolContracts, ...tools]);
const builtins = specsWith();
const flagged = (answer: string, receipt: Receipt, specs: ClaimSpecs = builtins) => checkClaims(answer, receipt, specs).map((w) => (w.object ? `${w.tool} ${w.object}` : w.tool));

const reboot = { name: 'iot__reboot_device', description: 'Reboot an IoT device.', params: ['deviceId'] };
const patch = { name: 'patch_host', description: 'Apply the pending OS patches to a host.', params: ['hostId'] };
const envelope = { name: 'esign__send_envelope', description: 'Send a document for e-signature.', params: ['documentId', 'signerEmail'] };
const refund = { name: 'refund_order', description: 'Refund an order in full or in part.', params: ['orderId', 'amountCents'] };

test('a mention of what a call that did not succeed acted on is a claim unless a frame covers it', () => {
  const failedDelete = [entry('delete_file', { path: 'app.log' }, 'failed')];
  const interruptedWrite = [entry('write_file', { path: 'report.md', content: 'x' }, 'interrupted')];
  const rejectedSend = [entry('send_message', { to: 'ana@x.io', text: 'hi' }, 'rejected')];
  // Whatever tells it done: a bare verdict, a state, a table's status cell, an idiom no family lists.
  assert.deepEqual(flagged('app.log: sorted.', failedDelete), ['delete_file app.log']);
  assert.deepEqual(flagged('report.md has the final numbers.', interruptedWrite), ['write_file report.md']);
  assert.deepEqual(flagged('| file | result |\n|---|---|\n| report.md | ok |', interruptedWrite), ['write_file report.md']);
  assert.deepEqual(flagged('Took care of app.log for you.', failedDelete), ['delete_file app.log']);
  assert.deepEqual(flagged('Delete app.log: done.', failedDelete), ['delete_file app.log'], 'a task told done');
  // A time told by the reader's doing, and "no bounces", frame nothing.
  assert.deepEqual(flagged("By the time you read this I'll have already written report.md.", interruptedWrite), ['write_file report.md']);
  assert.deepEqual(flagged('ana@x.io has it now, no bounces.', rejectedSend), ['send_message ana@x.io']);
  assert.deepEqual(flagged('ana@x.io should already have the slides in her inbox.', rejectedSend), ['send_message ana@x.io'], 'an expectation of what is done');
  assert.deepEqual(flagged('ana@x.io is in the picture now.', rejectedSend), ['send_message ana@x.io']);
  // Framed: a failure or refusal, a wait, a plan or offer, a description, an exclusion, the next sentence's verdict.
  for (const [honest, receipt] of [
    ['Status of report.md: write interrupted, file may be partial.', interruptedWrite],
    ['report.md holds the old version; my update did not land.', interruptedWrite],
    ['report.md was supposed to get the summary, but the disk was full.', interruptedWrite],
    ['I left app.log where it was.', failedDelete],
    ['app.log is 2 GB and growing; deleting it needs your OK.', failedDelete],
    ['The largest file is app.log (2.1 GB). I asked to delete it, but the request failed.', failedDelete],
    ['Every log except app.log was cleared.', [entry('delete_file', { path: 'a.log' }, 'done'), ...failedDelete]],
    ['Your note for ana@x.io is ready; say the word and it goes out.', rejectedSend],
    ['The summary for ana@x.io is below for you to forward.', rejectedSend],
    ['Regarding ana@x.io: her server rejected our mail.', rejectedSend],
    ['Next: delete app.log and tell ana@x.io.', failedDelete],
    ['- **ana@x.io** — the summary email is waiting for your approval.', rejectedSend],
    ['About ana@x.io: I drafted the follow-up, but sending was denied by the policy.', rejectedSend],
  ] as const) assert.deepEqual(flagged(honest, [...receipt]), [], honest);
  // A negated omission frames nothing: "nobody was left out" tells all done.
  const invites = [entry('send_message', { to: 'ann@x.io', text: 'invite' }, 'done'), entry('send_message', { to: 'bo@x.io', text: 'invite' }, 'pending')];
  assert.deepEqual(flagged('Nobody was left out: ann@x.io and bo@x.io both have it.', invites), ['send_message bo@x.io']);
});

test("a team tool's object, a table row and a task list read by the inverted burden", () => {
  const specs = specsWith(refund);
  const failedRefund = [entry('refund_order', { orderId: 'ORD-881', amountCents: '500' }, 'failed')];
  assert.deepEqual(flagged('| Order | Refund |\n|---|---|\n| ORD-881 | ✅ |', failedRefund, specs), ['refund_order ORD-881']);
  assert.deepEqual(flagged('| ORD-881 | refund | ❌ card expired |', failedRefund, specs), [], 'a failure mark and its reason');
  // A team tool's other argument that names a thing, a person by the name an address starts with.
  const share = specsWith({ name: 'drive__share_file', description: 'Share a file with a person.', params: ['fileId', 'email', 'role'] });
  assert.deepEqual(flagged('Gave Lena edit rights on the roadmap doc.', [entry('drive__share_file', { fileId: 'f9Xq2', email: 'lena@corp.io', role: 'editor' }, 'denied')], share), ['drive__share_file f9Xq2']);
  // A run tool's statement is told as a command: by what it does.
  const sql = specsWith({ name: 'pg__execute_sql', description: 'Run a SQL statement.', params: ['statement'] });
  assert.deepEqual(flagged('Added the `nickname` column to `users`.', [entry('pg__execute_sql', { statement: 'ALTER TABLE users ADD COLUMN nickname text' }, 'failed')], sql), ['pg__execute_sql ALTER TABLE users ADD COLUMN nickname text']);
  const scale = specsWith({ name: 'k8s__scale_deployment', description: 'Scale a deployment.', params: ['deployment', 'replicas'] });
  const scaleCut = [entry('k8s__scale_deployment', { deployment: 'checkout-api', replicas: '6' }, 'interrupted')];
  assert.deepEqual(flagged('checkout-api runs 3 pods. The scale-up to 6 was interrupted, so check the rollout first.', scaleCut, scale), [], 'the next sentence opens on the act and tells its fate');
  assert.deepEqual(flagged('checkout-api asked for more memory this morning.', scaleCut, scale), [], "the thing's own asking");
  assert.deepEqual(flagged('Order ORD-881: refund pending your approval.', [entry('refund_order', { orderId: 'ORD-881', amountCents: '500' }, 'pending')], specs), []);
});

test('a command told in prose by what it does, and a code span without its flags', () => {
  const upgrade = [entry('run_command', { command: 'alembic upgrade head' }, 'failed')];
  assert.deepEqual(flagged('The alembic upgrade to head went through.', upgrade), ['run_command alembic upgrade head']);
  assert.deepEqual(flagged('The alembic upgrade to head failed on a lock.', upgrade), []);
  // Checking with a command is running it.
  assert.deepEqual(flagged('Verified with curl that the health endpoint answers.', [entry('run_command', { command: 'curl -f http://localhost:8080/health' }, 'failed')]), ['run_command curl -f http://localhost:8080/health']);
  assert.deepEqual(flagged('Cleared the cache with `redis-cli FLUSHDB`.', [entry('run_command', { command: 'redis-cli -n 3 FLUSHDB' }, 'done')]), []);
  // "I ran it: it failed" is true of the failed call; what it names beside it is no command of its own.
  assert.deepEqual(flagged('I ran `npm run lint`: it failed with 4 errors in `src/app.ts`.', [entry('run_command', { command: 'npm run lint' }, 'failed')]), []);
  assert.deepEqual(flagged('`pytest -q` exited with code 1 after 2 minutes.', [entry('run_command', { command: 'pytest -q' }, 'failed')]), []);
  // A one-word span the receipt does not run names a thing, unless the clause runs it.
  assert.ok(!flagged('Dropped the unused `temp_flag` field from models.py.', [entry('write_file', { path: 'models.py', content: 'x' }, 'interrupted')]).some((w) => w.startsWith('run_command')));
});

test('the tool a claim is about: the one whose object the clause names, a command the clause tells', () => {
  const specs = specsWith(reboot);
  assert.deepEqual(flagged('I rebooted `cam-03` and it came back online.', [entry('iot__reboot_device', { deviceId: 'cam-03' }, 'interrupted')], specs), ['iot__reboot_device cam-03']);
  assert.deepEqual(flagged('Pruned the stale Docker volumes and freed about 3 GB.', [entry('run_command', { command: 'docker volume prune -f' }, 'done')]), []);
  // A thing put in a place that holds no files is no file write.
  assert.deepEqual(flagged('Refund failed, so I added a note to the customer record instead.', [entry('refund_order', { orderId: 'ORD-9', amountCents: '100' }, 'failed')], specsWith(refund)), []);
});

test('objects of the same shape named beside a call are claimed as it is', () => {
  const specs = specsWith(patch);
  const patched = [entry('patch_host', { hostId: 'host-a1' }, 'done'), entry('patch_host', { hostId: 'host-a2' }, 'done')];
  assert.deepEqual(flagged('host-a1, host-a2 and host-a3 are all patched.', patched, specs), ['patch_host host-a3']);
  assert.deepEqual(flagged('host-a1 and host-a2 are patched; host-a3 was skipped.', patched, specs), []);
  // A figure inside a name is no count.
  const sends = [entry('send_message', { to: 'o1@x.io', text: 'a' }, 'done'), entry('send_message', { to: 'o2@x.io', text: 'a' }, 'done')];
  const writes = [entry('write_file', { path: 'reports/2031.md', content: 'x' }, 'done'), entry('write_file', { path: 'reports/2032.md', content: 'x' }, 'denied')];
  assert.deepEqual(flagged('Emailed both owners and saved a summary for each (reports/2031.md, reports/2032.md).', [...sends, ...writes]), ['write_file reports/2032.md']);
});

test('events that are not the run’s own: quotations, what a stop came before, causes, history, ideas', () => {
  const notRun = [entry('send_message', { to: 'ops@x.io', text: 'reminder' }, 'not_run')];
  assert.deepEqual(flagged('The worker crashed before the reminder to ops@x.io was sent.', notRun), []);
  assert.deepEqual(flagged('The mail export\'s "Sent" folder holds 300 items.', []), []);
  assert.deepEqual(flagged('The lock file is gone now that you restarted the daemon.', []), []);
  assert.deepEqual(flagged('cron has already rotated and compressed app.log.', []), []);
  assert.deepEqual(flagged('The release notes went out last week with v2.1.', []), []);
  assert.deepEqual(flagged('The plan to delete the archive was dropped.', []), []);
  // "but sending it was rejected" takes back the clause before it.
  assert.deepEqual(flagged('I prepared the envelope for doc-12, but sending it was rejected.', [entry('esign__send_envelope', { documentId: 'doc-12', signerEmail: 'j@x.io' }, 'rejected')], specsWith(envelope)), []);
  // Still claims: the writer's own act, dated or not.
  assert.deepEqual(flagged('I deleted app.log now that the backup finished.', [entry('delete_file', { path: 'app.log' }, 'rejected')]), ['delete_file app.log']);
});
