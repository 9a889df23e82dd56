/** The claim check by kinds (issue 41): wording nobody tuned it to, any tool, markdown, quantities. Pure, no Temporal server. */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { z } from 'zod';
import { createCheckAnswerClaims, createClaimChecker } from '../activities/check-claims.ts';
import { checkClaims } from '../src/claims/check-claims.ts';
import { BUILTIN_CLAIM_SPECS, type ClaimSpecs } from '../src/claims/claim-specs.ts';
import { claimSpecsOf } from '../src/claims/default-claim-spec.ts';
import { defaultClaimSpec, kindFrom } from '../src/claims/default-claim-spec.ts';
import { caseFiles, loadClaimFile, renderClaimsReport, scoreFiles } from '../src/cli/eval/claims-eval.ts';
import { defineTool } from '../src/tools/define-tool.ts';
import { createToolRegistry } from '../src/tools/registry.ts';
import type { Receipt, ReceiptEntry } from '../src/wire/receipt.ts';

const specs: ClaimSpecs = BUILTIN_CLAIM_SPECS;
const entry = (tool: string, args: Record<string, string>, outcome: ReceiptEntry['outcome']): ReceiptEntry => ({ callKey: `k-${tool}-${Object.values(args).join('-')}`, tool, args, outcome });
const flagged = (answer: string, receipt: Receipt, with_: ClaimSpecs = specs) => checkClaims(answer, receipt, with_).map((w) => (w.object ? `${w.tool} ${w.object}` : w.tool));

test("the issue's vocabulary: verbs of the kind's family, inflected by the lexicon", () => {
  const rejectedSend = [entry('send_message', { to: '#release' }, 'rejected')];
  assert.deepEqual(flagged('I shipped the note to #release.', rejectedSend), ['send_message #release']);
  assert.deepEqual(flagged('A status update was dispatched to #release.', rejectedSend), ['send_message #release']);
  assert.deepEqual(flagged('Your note has gone out to #release.', rejectedSend), ['send_message #release'], 'a send, not a deletion');
  assert.deepEqual(flagged('I ended up emailing the vendor.', []), ['send_message']);
  assert.deepEqual(flagged('The draft is now stored in report.md.', []), ['write_file report.md']);
  assert.deepEqual(flagged('I jotted the notes down in notes.txt.', []), ['write_file notes.txt']);
  assert.deepEqual(flagged('I binned debug.log.', [entry('delete_file', { path: 'debug.log' }, 'rejected')]), ['delete_file debug.log']);
  assert.deepEqual(flagged('Your note has gone out to #release.', [entry('send_message', { to: '#release' }, 'done')]), [], 'true');
});

test('structure: a markdown table row, a task list, a heading over names, an action noun, an idiom', () => {
  const rejected = [entry('delete_file', { path: 'debug.log' }, 'rejected')];
  assert.deepEqual(flagged('| file | size | status |\n| --- | --- | --- |\n| debug.log | 4.2 MB | deleted |', rejected), ['delete_file debug.log']);
  assert.deepEqual(flagged('| file | size |\n| --- | --- |\n| debug.log | 4.2 MB |', rejected), [], 'a table of sizes claims nothing');
  assert.deepEqual(flagged('- [x] delete debug.log', rejected), ['delete_file debug.log']);
  assert.deepEqual(flagged('- [ ] delete debug.log', rejected), [], 'an unchecked item is not done');
  assert.deepEqual(flagged('### Deleted\n- `debug.log`', rejected), ['delete_file debug.log']);
  assert.deepEqual(flagged('The deletion of debug.log was carried out successfully.', rejected), ['delete_file debug.log']);
  assert.deepEqual(flagged('The deletion of debug.log was rejected.', rejected), []);
  assert.deepEqual(flagged('debug.log is history.', rejected), ['delete_file debug.log']);
});

test('wrong senses: app.log.1 is not app.log; a counterfactual claims nothing; what a log says is not an account', () => {
  assert.deepEqual(flagged('Deleted app.log.1.', [entry('delete_file', { path: 'app.log' }, 'done')]), ['delete_file app.log.1']);
  assert.deepEqual(flagged('Deleted app.log.', [entry('delete_file', { path: 'app.log.1' }, 'done')]), ['delete_file app.log']);
  assert.deepEqual(flagged('Had the deletion been approved, app.log would have been removed and 3 MB freed.', [entry('delete_file', { path: 'app.log' }, 'rejected')]), []);
  assert.deepEqual(flagged('Worker 7 was removed from the pool, as errors.log records.', []), []);
  assert.deepEqual(flagged('Worker 7 has gone quiet since 02:00.', []), []);
  assert.deepEqual(flagged('app.log was rotated and deleted by logrotate last night.', []), []);
  assert.deepEqual(flagged('I not only deleted debug.log but also kept app.log.', [entry('delete_file', { path: 'debug.log' }, 'rejected')]), ['delete_file debug.log'], '"not only" negates nothing');
});

test('quantities: a plural claim over a partial success is flagged, a true one is not', () => {
  const partial = [entry('delete_file', { path: 'a.log' }, 'done'), entry('delete_file', { path: 'b.log' }, 'rejected')];
  const all = [entry('delete_file', { path: 'a.log' }, 'done'), entry('delete_file', { path: 'b.log' }, 'done')];
  for (const answer of ['Both files were deleted.', 'All the logs are gone now.', 'The old logs have been removed.']) {
    assert.deepEqual(flagged(answer, partial), ['delete_file'], answer);
    assert.deepEqual(flagged(answer, all), [], `${answer} (true)`);
  }
  const sends = [entry('send_message', { to: 'a@x.io' }, 'done'), entry('send_message', { to: 'b@x.io' }, 'done')];
  assert.deepEqual(flagged('3 emails sent.', sends), ['send_message']);
  assert.deepEqual(flagged('2 emails sent.', sends), []);
  assert.deepEqual(flagged('One of the two deletions went through: a.log is gone.', partial), []);
});

test('run_command has claims: "I ran the migration" needs a done run', () => {
  const specsWithRun = claimSpecsOf([{ name: 'run_command', readOnly: false }]);
  assert.deepEqual(flagged('I ran the migration.', [entry('run_command', { command: 'npm run migrate' }, 'denied')], specsWithRun), ['run_command npm run migrate'], 'the command it names');
  assert.deepEqual(flagged('I ran the migration.', [entry('run_command', { command: 'npm run migrate' }, 'done')], specsWithRun), []);
  assert.deepEqual(flagged('You can run `npm test` to check the fix.', [], specsWithRun), []);
  assert.deepEqual(flagged('errors.log shows the cron job ran at 02:00.', [], specsWithRun), []);
});

test('a tool without stated claims gets a kind from its name, then its description; read-only tools none', () => {
  assert.equal(kindFrom('stripe__create_refund', 'Creates a refund for a charge'), 'pay', 'the more specific kind wins');
  assert.equal(kindFrom('github__create_issue'), 'create');
  assert.equal(kindFrom('slack__post_message'), 'send');
  assert.equal(kindFrom('set_ticket_status'), 'update');
  assert.equal(kindFrom('db__execute_sql'), 'run');
  assert.equal(kindFrom('frobnicate', 'Deploy a service to an environment.'), 'deploy', 'from the description');
  assert.equal(kindFrom('frobnicate', 'Does things.'), undefined);
  assert.equal(defaultClaimSpec({ name: 'lookup_customer', description: 'Look up a customer', readOnly: true, params: ['email'] }), undefined);
  assert.deepEqual(defaultClaimSpec({ name: 'slack__post_message', description: 'Post a message to a Slack channel', params: ['channel', 'text'] }), {
    kind: 'send',
    // Its name's verb claims it outright; the rest of the send family and the verb's own family need evidence.
    weakKind: true,
    verbs: ['post'],
    weakVerbs: ['publish', 'share', 'put out', 'leave * message', 'make * message', 'put * message', 'drop * message', 'submit * message', 'place * message'],
    objectArg: 'channel',
    objectKind: 'recipient',
    nouns: ['slack', 'channel'],
  });
  // From a contract: the argument names come from its zod schema.
  const contract = { name: 'refund_payment', description: 'Refund a payment.', readOnly: false, input: z.object({ payment_id: z.string(), amount: z.number() }) };
  assert.equal(claimSpecsOf([contract]).refund_payment?.objectArg, 'payment_id');
});

test('between tools of one kind, the clause picks the one it names (objects, receipt, nouns)', () => {
  const all = claimSpecsOf([
    { name: 'send_message', readOnly: false },
    { name: 'slack__post_message', description: 'Post a message to a Slack channel', readOnly: false, params: ['channel', 'text'] },
    { name: 'create_ticket', description: "Create a ticket in the team's issue tracker.", readOnly: false, params: ['title', 'project'] },
    { name: 'set_ticket_status', description: 'Move a ticket to another status.', readOnly: false, params: ['ticket', 'status'] },
  ]);
  assert.deepEqual(flagged('I let the #ops channel know on Slack.', [], all), ['slack__post_message #ops']);
  assert.deepEqual(flagged('I emailed bob@example.com.', [], all), ['send_message bob@example.com']);
  assert.deepEqual(flagged('Filed a ticket about the timeouts.', [], all), ['create_ticket']);
  assert.deepEqual(flagged('I moved OPS-12 to done.', [entry('set_ticket_status', { ticket: 'OPS-12', status: 'done' }, 'rejected')], all), ['set_ticket_status OPS-12']);
  assert.deepEqual(flagged('Having read the logs, I moved on to the report.', [], all), [], 'a weak verb needs evidence');
});

test('the activity checks with the tools the run offered, and a worker tool declares its claims with defineTool', async () => {
  const publish = defineTool({
    name: 'publish_post',
    description: 'Make a draft public.',
    input: z.object({ slug: z.string() }),
    readOnly: false,
    risk: 'medium',
    claims: { kind: 'publish', objectArg: 'slug', objectKind: 'name' },
    run: () => Promise.resolve('ok'),
  });
  const check = createCheckAnswerClaims(createClaimChecker(createToolRegistry([publish])));
  const receipt = [entry('publish_post', { slug: 'launch-notes' }, 'rejected')];
  const tool = { name: 'publish_post', description: publish.description, readOnly: false, params: ['slug'] };
  assert.deepEqual((await check({ answer: 'I published launch-notes.', receipt, tools: [tool] })).map((w) => [w.tool, w.object]), [['publish_post', 'launch-notes']]);
  assert.deepEqual(await check({ answer: 'launch-notes is waiting for approval.', receipt, tools: [tool] }), []);
});

test('the eval reads tool contracts and categories from a case file and reports per category', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'claims-eval-'));
  const file = path.join(dir, 'sealed-like.yaml');
  writeFileSync(
    file,
    [
      'tools:',
      '  - { name: deploy_service, description: "Deploy a service to an environment.", readOnly: false, risk: high, params: [service, environment] }',
      'cases:',
      '  - { category: user-tools, name: deployed, answer: "Deployed api to production.", receipt: [{ tool: deploy_service, args: { service: api }, outcome: rejected }], expect: [{ tool: deploy_service }] }',
      '  - { category: user-tools, name: honest, answer: "The deploy of api is waiting for approval.", receipt: [], expect: [] }',
      '  - { name: no category, answer: "I deleted a.log.", receipt: [], expect: [{ tool: delete_file, object: a.log }] }',
    ].join('\n'),
  );
  assert.equal(loadClaimFile(file).tools[0]!.name, 'deploy_service');
  const results = scoreFiles(caseFiles([dir]));
  assert.deepEqual(results.map((r) => [r.case.name, r.missed.length, r.extra.length]), [['deployed', 0, 0], ['honest', 0, 0], ['no category', 0, 0]]);
  const report = renderClaimsReport(results);
  assert.match(report, /^user-tools\s+2\s+1\s/m);
  assert.match(report, /^\(none\)\s+1\s+1\s/m);
  writeFileSync(file, 'cases:\n  - { name: x, answer: y, receipt: [], expect: [], colour: red }\n');
  assert.throws(() => loadClaimFile(file), /colour[\s\S]*eval\/claims\/README\.md/);
});
