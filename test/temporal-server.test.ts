/** Where Temporal comes from: TEMPORAL_ADDRESS, else a server already listening (reused), else one started here. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { ensureTemporal, isTemporalServing } from '../src/temporal/temporal-server.ts';

const testServer = process.env.TEMPORAL_ADDRESS!;
const [host, port] = [testServer.slice(0, testServer.lastIndexOf(':')), Number(testServer.slice(testServer.lastIndexOf(':') + 1))];
const dataDir = mkdtempSync(path.join(tmpdir(), 'agent-launcher-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

test('TEMPORAL_ADDRESS is used as it is', async () => {
  const endpoint = await ensureTemporal({ dataDir, port: 1 });
  assert.deepEqual([endpoint.address, endpoint.owned], [testServer, false]);
});

test('a second process that finds a dev server already listening reuses it, and leaves it running', async () => {
  delete process.env.TEMPORAL_ADDRESS;
  try {
    const endpoint = await ensureTemporal({ dataDir, host, port });
    assert.equal(endpoint.address, testServer);
    assert.equal(endpoint.owned, false);
    await endpoint.stop();
    assert.ok(await isTemporalServing(testServer), 'still serving after the reusing process let go');
  } finally {
    process.env.TEMPORAL_ADDRESS = testServer;
  }
});

test('nothing listening on a port is not mistaken for a server', async () => {
  assert.equal(await isTemporalServing('127.0.0.1:1'), false);
});
