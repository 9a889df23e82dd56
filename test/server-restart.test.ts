/** The embedded dev server stopped and started again on the same SQLite file: the run goes on. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { freeDevServerPort, startDevServer } from '../src/temporal/temporal-server.ts';
import { startHarness } from './helpers/harness.ts';

test('a run waiting for approval survives a server restart on the same SQLite file', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'agent-restart-'));
  const port = await freeDevServerPort();
  let server = await startDevServer({ dataDir, port });
  const h = await startHarness('restart', { address: server.address });
  try {
    const { runId } = await h.agents.startRun({ goal: 'Free some space.', model: 'scripted:delete-approval', workspace: h.workspace });
    await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval');

    await server.stop();
    server = await startDevServer({ dataDir, port });

    // The same client and worker reconnect by themselves.
    const state = await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the run after the restart');
    assert.equal(state.turns, 2);
    await h.agents.approve(runId);
    const result = await h.agents.result(runId);
    assert.equal(result.status, 'completed');
    assert.equal(result.output, 'Deleted access.log to free space.');
    assert.equal(result.turns, 3);
    await h.replayAll();
  } finally {
    await h.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
