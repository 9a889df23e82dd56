/**
 * The production shape, without Docker: the real Temporal server v1.29.1 on PostgreSQL (the config of
 * docker-compose.yml), a worker and a client of the harness; a run completes, the server restarts,
 * another run completes, and both live in PostgreSQL. Run with `npm run test:cluster`.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { startHarness } from '../helpers/harness.ts';
import { findPostgresBinDir } from '../../src/store/throwaway-postgres.ts';
import { startTemporalCluster } from '../helpers/temporal-cluster.ts';

test('runs complete on Temporal on PostgreSQL, before and after a server restart', async (t) => {
  let started = Date.now();
  const lap = (what: string) => {
    t.diagnostic(`${what}: ${Date.now() - started} ms`);
    started = Date.now();
  };
  const cluster = await startTemporalCluster();
  lap('cluster start (PostgreSQL, schemas, server, namespace)');
  const h = await startHarness('cluster-smoke', { address: cluster.address });
  lap('harness start');
  try {
    const first = await h.run({ goal: 'x', model: 'scripted:plan' });
    lap('first run');
    assert.equal(first.status, 'completed');
    assert.equal(first.turns, 3);
    assert.equal(first.toolRuns, 2);

    await cluster.stopServer();
    lap('server stop');
    await cluster.startServer();
    lap('server start');

    // The same client and worker reconnect by themselves.
    const second = await h.run({ goal: 'x', model: 'scripted:plan' });
    lap('second run');
    assert.equal(second.status, 'completed');
    assert.equal(second.output, first.output);
    const history = await h.temporal.workflow.getHandle(first.runId).fetchHistory();
    assert.ok(history.events?.length, 'the first run keeps its history across the restart');

    // Both runs are rows in PostgreSQL.
    const psql = path.join(findPostgresBinDir(), 'psql');
    const ids = execFileSync(psql, [cluster.postgres.url('temporal'), '-XtAc', 'SELECT workflow_id FROM current_executions'], { encoding: 'utf8' });
    for (const run of [first, second]) assert.ok(ids.split('\n').includes(run.runId), `${run.runId} in current_executions: ${ids}`);
  } finally {
    await h.close();
    await cluster.close();
  }
});
