/**
 * Retention on real runs (issue 43): `gc` takes a finished run's trace, events, transcript links and kept
 * outputs, and never a run still open (it goes on to finish afterwards, its transcript whole) nor one
 * `record` wrote a recording of. The store-level cases (both stores, shared content, children) are in
 * test/store.test.ts; this proves the activities record who owns what, and the command's face.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { RunNotFoundError } from '../src/client/client.ts';
import { PROJECT_ROOT } from '../src/paths.ts';
import { recordCommand } from '../src/recording/commands.ts';
import { nodeSqlite } from '../src/store/sqlite-module.ts';
import { collectGarbage } from '../src/store/retention.ts';
import type { SqliteStore } from '../src/store/sqlite-store.ts';
import { startHarness, type Harness } from './helpers/harness.ts';

let h: Harness;
before(async () => {
  h = await startHarness('retention');
});
after(() => h?.replayAndClose());

/** Rows behind the store's back: what each run owns, and whether each owned row is still there. */
function owned(runId: string): { refs: string[]; present: number } {
  const db = new (nodeSqlite().DatabaseSync)((h.store as SqliteStore).file, { readOnly: true });
  try {
    const refs = (db.prepare('SELECT ref FROM content_owners WHERE run_id = ?').all(runId) as { ref: string }[]).map((r) => r.ref);
    const present = refs.filter((ref) =>
      ref.startsWith('output:') ? db.prepare('SELECT 1 FROM outputs WHERE ref = ?').get(ref) : db.prepare('SELECT 1 FROM transcript_links WHERE hash = ?').get(ref),
    ).length;
    return { refs, present };
  } finally {
    db.close();
  }
}

const isOpen = async (runId: string) => {
  try {
    return (await h.agents.requireRun(runId)).open;
  } catch (error) {
    if (error instanceof RunNotFoundError) return false;
    throw error;
  }
};

test('gc takes a finished run whole; a run waiting for approval and a recorded run stay, and the waiting one still finishes', async () => {
  const goal = 'Which log file mentions a timeout?';
  const finished = (await h.run({ goal, model: 'scripted:plan' })).runId;
  const recorded = (await h.run({ goal, model: 'scripted:plan' })).runId;
  await recordCommand(h, recorded, { out: path.join(mkdtempSync(path.join(tmpdir(), 'retention-')), `${recorded}.json`) });
  const { runId: waiting } = await h.agents.startRun({ goal: 'Free some disk space in the workspace.', model: 'scripted:delete-approval', workspace: h.workspace });
  const pending = (await h.waitForState(waiting, (s) => s.status === 'waiting_approval', 'the approval request')).pending as { callKey: string; argsHash: string };

  const before = { finished: owned(finished), recorded: owned(recorded), waiting: owned(waiting) };
  assert.ok(before.finished.refs.length >= 3, `the model calls recorded the run as the owner of its transcript links (${before.finished.refs.length})`);
  assert.ok(before.waiting.refs.length >= 1, 'the waiting run owns its links too');
  assert.equal(before.finished.present, before.finished.refs.length);

  // Everything finished counts as old enough: only what the rules keep stays.
  const report = await collectGarbage(h.store, { olderThanMs: 0, now: new Date(Date.now() + 60_000), isOpen });
  const ours = new Set([finished, recorded, waiting]);
  assert.deepEqual(report.collected.filter((r) => ours.has(r.runId)).map((r) => r.runId), [finished], JSON.stringify(report));
  assert.deepEqual(await h.trace(finished), [], 'the finished run’s trace is gone');
  assert.deepEqual(await h.store.readEvents(finished), [], 'and its events');
  assert.deepEqual(owned(finished).refs, [], 'and what it owned');
  // The two plan runs began alike: their first links are one row, which the recorded run still owns.
  const after = { recorded: owned(recorded), waiting: owned(waiting) };
  assert.deepEqual(after.recorded, { refs: before.recorded.refs, present: before.recorded.refs.length }, 'the recorded run keeps every row it owns');
  assert.deepEqual(after.waiting, { refs: before.waiting.refs, present: before.waiting.refs.length }, 'the waiting run keeps every row it owns');
  assert.ok((await h.trace(recorded)).length > 0);
  assert.deepEqual((await h.store.keptRuns()).find((r) => r.runId === recorded)?.reason.startsWith('recorded → '), true);

  await h.agents.approve(waiting, { callKey: pending.callKey, argsHash: pending.argsHash });
  const result = await h.agents.result(waiting);
  assert.equal(result.status, 'completed', 'the run gc passed over resumes with its whole transcript');
  assert.equal((await h.trace(waiting)).at(-1)?.type, 'run_stopped');
});

test('npm run agent -- gc: --dry-run lists, removes nothing; a bad --older-than is a usage error naming the form', async () => {
  const finished = (await h.run({ goal: 'Which log file mentions a timeout?', model: 'scripted:plan' })).runId;
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, ['src/cli/cli.ts', 'gc', ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, AGENT_DATA_DIR: h.dataDir, TEMPORAL_ADDRESS: h.address, AGENT_TASK_QUEUE: h.taskQueue, AGENT_RETENTION_DAYS: '30' },
      encoding: 'utf8',
    });
  const dry = cli('--older-than', '0s', '--dry-run');
  assert.equal(dry.status, 0, dry.stderr);
  assert.match(dry.stdout, new RegExp(`would go: ${finished}`));
  assert.match(dry.stdout, /dry run: nothing removed/);
  assert.ok((await h.trace(finished)).length > 0, 'nothing was removed');
  const byDefault = cli('--dry-run');
  assert.equal(byDefault.status, 0, byDefault.stderr);
  assert.doesNotMatch(byDefault.stdout, new RegExp(finished), 'AGENT_RETENTION_DAYS=30: a run of a minute ago stays');
  const bad = cli('--older-than', 'a month');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--older-than "a month" is not an age: write a number with d, h, m or s/);
});
