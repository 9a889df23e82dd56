/** Every recorded history, from this and earlier versions, replays against the current workflow code. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import proto from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { PROJECT_ROOT } from '../src/paths.ts';
import { quietTemporalLogs } from '../src/runtime.ts';
import { workflowBundle } from '../src/workflow-bundle.ts';

const root = path.join(PROJECT_ROOT, 'test', 'fixtures', 'histories');
const fixtures = readdirSync(root, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.binpb'))
  .sort();

test('recorded histories of every version replay without nondeterminism', async () => {
  quietTemporalLogs();
  assert.ok(fixtures.length >= 22, `fixtures present (${fixtures.length})`);
  const histories = fixtures.map((file) => ({ workflowId: path.basename(file, '.binpb').split('@')[1]!, history: proto.temporal.api.history.v1.History.decode(readFileSync(path.join(root, file))) }));
  const failures: string[] = [];
  const results = Worker.runReplayHistories(
    { workflowBundle: await workflowBundle(), sinks: { trace: { emit: { fn: () => {}, callDuringReplay: false } } } },
    histories,
  );
  for await (const result of results) if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
  assert.deepEqual(failures, []);
});
