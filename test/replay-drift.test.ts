/**
 * A what-if replay whose read-only tools read a changed world (issue 38: `replay … --policy
 * '{"mediumQuota":2}'` after the demo workspace changed): the report says the world drifted, and does not
 * put what followed on the override. Pure: a recording next to a replay of it that read something else.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { PROJECT_ROOT } from '../src/paths.ts';
import { compareRecordings, renderReplayReport } from '../src/recording/report.ts';
import { recordingSchema, type Recording } from '../src/recording/schema.ts';

const original: Recording = recordingSchema.parse(JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'eval', 'recorded', 'plan.json'), 'utf8')));

/** The same run, but read_file (t2.1) read another errors.log, and the run then failed. */
function replayThatReadAnotherWorld(): Recording {
  const replay = structuredClone(original);
  const read = replay.messages.findIndex((m) => m.role === 'tool' && m.name === 'read_file');
  assert.ok(read > 0);
  replay.messages[read] = { ...replay.messages[read]!, content: 'the file was rewritten since' };
  replay.result = { ...replay.result!, status: 'failed', reason: 'model_error', error: 'the model said something else' };
  return replay;
}

test('a what-if whose read-only tool read a changed world reports drift, not the override, as the cause', () => {
  const report = compareRecordings(original, replayThatReadAnotherWorld(), { overrides: 'mediumQuota 2', notRun: [], extraDecisions: [] });
  assert.deepEqual(report.drift, ['read_file #1 (t2.1)']);
  assert.match(report.changes[0] ?? '', /^the world drifted: read_file #1 \(t2\.1\) returned something else than when recorded .*, not from mediumQuota 2; --tool-mode recorded replays the recorded results$/);
  assert.ok(report.changes.some((c) => c === 'after that drift, the run would have ended failed (model_error) instead of completed'), report.changes.join('\n'));
  assert.ok(!report.changes.some((c) => c.startsWith('with mediumQuota 2')), renderReplayReport(report));
});

test('a what-if with the same world puts its changes on the override, as before', () => {
  const replay = structuredClone(original);
  replay.result = { ...replay.result!, status: 'failed', reason: 'model_error', error: 'x' };
  const report = compareRecordings(original, replay, { overrides: 'mediumQuota 2', notRun: [], extraDecisions: [] });
  assert.deepEqual(report.drift, []);
  assert.ok(report.changes.includes('with mediumQuota 2, the run would have ended failed (model_error) instead of completed'), report.changes.join('\n'));
});
