/** The pure helpers: limit checks, tool-call parsing, tool retries, run ids, the SHA-256 the workflow and the store share. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { PROJECT_ROOT } from '../src/paths.ts';
import { contractsByName } from '../src/tools/contracts.ts';
import { WORKER_NODE_ARGS } from '../src/worker/node-args.ts';
import { toolRetry } from '../workflows/activity-options.ts';
import { checkLimits } from '../workflows/limits.ts';
import { DEFAULT_LIMITS } from '../src/wire/default-limits.ts';
import { parseToolCall } from '../workflows/tool-calls.ts';
import { researchCallKeys, researchChildRunId, runAndAncestors } from '../src/wire/run-ids.ts';
import { sha256Hex } from '../src/wire/sha256.ts';
import { linkBody, linkHash } from '../src/wire/transcript-link.ts';
import { checkedLinkBody } from '../src/store/content-address.ts';

test('limits are checked in the order wall time, turns, cost', () => {
  const limits = { ...DEFAULT_LIMITS, maxTurns: 3, maxBudgetUsd: 0.01, maxWallMs: 1000 };
  assert.equal(checkLimits({ turns: 0, costUsd: 0, elapsedMs: 0 }, limits), null);
  assert.equal(checkLimits({ turns: 3, costUsd: 1, elapsedMs: 1000 }, limits)?.reason, 'max_time');
  assert.equal(checkLimits({ turns: 3, costUsd: 1, elapsedMs: 0 }, limits)?.reason, 'max_turns');
  assert.equal(checkLimits({ turns: 3, costUsd: 1, elapsedMs: 0 }, limits)?.status, 'max_turns_exceeded');
  assert.equal(checkLimits({ turns: 2, costUsd: 0.01, elapsedMs: 0 }, limits)?.status, 'budget_exceeded');
  assert.equal(checkLimits({ turns: 2, costUsd: 0.0099, elapsedMs: 999 }, limits), null);
});

test('a valid tool call parses to its contract and arguments', () => {
  const parsed = parseToolCall({ id: 'c1', name: 'read_file', arguments: '{"path":"a.txt"}' }, contractsByName);
  assert.ok(parsed.ok);
  assert.equal(parsed.contract.name, 'read_file');
  assert.deepEqual(parsed.args, { path: 'a.txt' });
});

test('empty arguments mean an empty object', () => {
  const parsed = parseToolCall({ id: 'c1', name: 'list_files', arguments: '' }, contractsByName);
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.args, {});
});

test('bad tool calls explain what to do', () => {
  const unknown = parseToolCall({ id: 'c1', name: 'rm', arguments: '{}' }, contractsByName);
  assert.ok(!unknown.ok);
  assert.equal(unknown.error, `unknown tool "rm". The tools that exist are: ${[...contractsByName.keys()].join(', ')}.`);
  const badJson = parseToolCall({ id: 'c1', name: 'read_file', arguments: '{path:' }, contractsByName);
  assert.ok(!badJson.ok);
  assert.match(badJson.error, /not valid JSON .* Send a JSON object\.$/);
  const badArgs = parseToolCall({ id: 'c1', name: 'read_file', arguments: '{"path":""}' }, contractsByName);
  assert.ok(!badArgs.ok);
  assert.match(badArgs.error, /^invalid arguments for read_file: .*path/);
});

test('a side-effect tool is retried only when it is idempotent, unless its contract says otherwise', () => {
  assert.equal(toolRetry({ readOnly: true, idempotent: false }).maximumAttempts, 3);
  assert.equal(toolRetry({ readOnly: false, idempotent: true }).maximumAttempts, 3);
  assert.equal(toolRetry({ readOnly: false, idempotent: false }).maximumAttempts, 1);
  assert.equal(toolRetry({ readOnly: false, idempotent: false, retry: { maximumAttempts: 4 } }).maximumAttempts, 4);
  assert.equal(toolRetry(contractsByName.get('run_command')!).maximumAttempts, 1);
  assert.equal(toolRetry(contractsByName.get('delete_file')!).maximumAttempts, 3);
});

test('the production worker commands run with the worker Node.js flags', () => {
  const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  assert.equal(pkg.scripts.worker, `node ${WORKER_NODE_ARGS.join(' ')} src/cli/cli.ts worker`);
  // `npm run agent -- serve` hosts a worker too.
  assert.equal(pkg.scripts.agent, `node ${WORKER_NODE_ARGS.join(' ')} src/cli/cli.ts`);
  const cmd = /^CMD (.*)$/m.exec(readFileSync(path.join(PROJECT_ROOT, 'Dockerfile'), 'utf8'))?.[1];
  assert.deepEqual(JSON.parse(cmd ?? 'null'), ['node', ...WORKER_NODE_ARGS, 'src/cli/cli.ts', 'worker']);
});

test("a research child's run id names its parent, so a parent's cancel announcement reaches the child's activities", () => {
  const child = researchChildRunId('run-1', 't2.1');
  assert.equal(child, 'run-1:research:t2.1');
  assert.deepEqual(runAndAncestors(researchChildRunId(child, 't1.1')), ['run-1', 'run-1:research:t2.1', 'run-1:research:t2.1:research:t1.1']);
  assert.deepEqual(runAndAncestors('run-2'), ['run-2']);
  assert.deepEqual(researchCallKeys(researchChildRunId(child, 't1.1')), ['t2.1', 't1.1'], 'a recording finds its nested children by these keys');
  assert.deepEqual(researchCallKeys('run-2'), []);
});

test("the workflow's portable SHA-256 is Node's: a link the workflow names is one the store accepts", () => {
  const texts = ['', 'abc', 'x'.repeat(55), 'x'.repeat(56), 'x'.repeat(64), 'x'.repeat(1000), 'café ✓ 𝄞 "quoted"\n'];
  for (const text of texts) assert.equal(sha256Hex(text), createHash('sha256').update(text).digest('hex'), JSON.stringify(text.slice(0, 20)));
  const link = { prev: null, messages: [{ role: 'user' as const, content: 'résumé 𝄞' }] };
  assert.equal(checkedLinkBody(linkHash(link), link), linkBody(link));
});
