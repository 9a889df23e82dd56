/**
 * Workers publish what they offer to the store (src/offers/): at start, per task queue, with a digest; a
 * worker whose tools differ from the live workers' on its queue refuses to start unless it is a rolling
 * deploy; `GET /agents` and `agent agents` list the publications, the last one (stale) when no worker lives.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { defineAgent } from '../src/agents/define-agent.ts';
import type { OfferListing } from '../src/offers/listing.ts';
import type { WorkerOffer } from '../src/offers/offer.ts';
import { PROJECT_ROOT } from '../src/paths.ts';
import { builtinTools } from '../src/tools/registry.ts';
import { createAgentWorker, WorkerConfigError, type AgentWorkerOptions } from '../src/worker/worker.ts';
import { startHarness, scenario, type Harness } from './helpers/harness.ts';
import { startHttp, TEST_TOKENS, type TestHttp } from './helpers/http-app.ts';
import { lookupOrder, refundOrder } from './helpers/order-tools.ts';

const support = defineAgent({ name: 'support', instructions: 'Help with orders.', model: scenario('refund.ts'), tools: [lookupOrder, refundOrder] });

let h: Harness;
let api: TestHttp;
before(async () => {
  h = await startHarness('offers', { tools: (ledger) => builtinTools(ledger), agents: [support] });
  api = await startHttp(h, { tokens: TEST_TOKENS.entries });
});
after(async () => {
  await api?.close();
  await h?.close();
});

const offersOnQueue = async () => (await h.store.listWorkerOffers()).filter((o) => o.taskQueue === h.taskQueue);
const listing = async () => {
  const res = await api.call<{ offers: OfferListing[] }>('GET', '/agents', { token: TEST_TOKENS.viewer });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.offers.filter((o) => o.taskQueue === h.taskQueue);
};
/** A second worker on the harness's queue: the built-in tools only, unlike the harness's (its agent brings two tools). */
const otherWorker = (options: Partial<AgentWorkerOptions> = {}) =>
  createAgentWorker({ connection: h.connection, taskQueue: h.taskQueue, dataDir: h.dataDir, store: h.store, workspace: h.workspace, workspaceRoots: [h.dataDir], ...options });

test('a worker publishes its tools (risk, source) and agents with a digest at start, and GET /agents lists them', async () => {
  const [offer] = await offersOnQueue();
  assert.ok(offer, 'the harness worker published');
  assert.equal(offer.workerId, h.worker.workerId);
  assert.match(offer.digest, /^[0-9a-f]{64}$/);
  assert.deepEqual(
    offer.tools.filter((t) => t.name.endsWith('_order')).map(({ name, risk, readOnly, source }) => ({ name, risk, readOnly, source })),
    [
      { name: 'lookup_order', risk: 'low', readOnly: true, source: 'own' },
      { name: 'refund_order', risk: 'high', readOnly: false, source: 'own' },
    ],
  );
  assert.equal(offer.tools.find((t) => t.name === 'read_file')?.source, 'builtin');
  assert.deepEqual(
    offer.agents.map(({ name, model, tools }) => ({ name, model, tools })),
    [{ name: 'support', model: scenario('refund.ts'), tools: ['lookup_order', 'refund_order'] }],
  );

  const listed = await listing();
  assert.equal(listed.length, 1);
  assert.equal(listed[0]!.live, true);
  assert.equal(listed[0]!.digest, offer.digest);
  assert.deepEqual(listed[0]!.workers, [offer.workerId]);
  assert.deepEqual(listed[0]!.agents, [
    { name: 'support', model: scenario('refund.ts'), tools: [{ name: 'lookup_order', risk: 'low' }, { name: 'refund_order', risk: 'high' }] },
  ]);
  assert.equal((await api.call('GET', '/agents')).status, 401);
});

test('a worker whose tools differ from the live workers on its queue refuses to start, naming what differs and the worker that has it', async () => {
  const refused = await otherWorker().then(
    () => assert.fail('the second worker started'),
    (error: unknown) => error,
  );
  assert.ok(refused instanceof WorkerConfigError, String(refused));
  const message = (refused as Error).message;
  assert.match(message, new RegExp(`task queue "${h.taskQueue}"`));
  assert.ok(message.includes(`tool "lookup_order" is offered by ${h.worker.workerId} only`), message);
  assert.ok(message.includes(`agent "support" is offered by ${h.worker.workerId} only`), message);
  assert.match(message, /createAgentWorker\(\{ rollingDeploy: true \}\) or AGENT_ROLLING_DEPLOY=1/);
  assert.equal((await offersOnQueue()).length, 1, 'the refused worker published nothing');
});

test('with rollingDeploy it starts: both publications are listed, and its clean stop withdraws its own', async () => {
  // One process may run one worker per queue: the live worker of another process is its publication.
  const queue = `${h.taskQueue}-rolling`;
  const [harnessOffer] = await offersOnQueue();
  const now = new Date().toISOString();
  await h.store.putWorkerOffer({ ...harnessOffer!, workerId: 'elsewhere:1:abc', taskQueue: queue, startedAt: now, lastSeenAt: now });
  await assert.rejects(otherWorker({ taskQueue: queue }), /tool "lookup_order" is offered by elsewhere:1:abc only/);
  const rolling = await otherWorker({ taskQueue: queue, rollingDeploy: true });
  const running = rolling.run();
  try {
    const listed = (await api.call<{ offers: OfferListing[] }>('GET', '/agents', { token: TEST_TOKENS.viewer })).body.offers.filter((o) => o.taskQueue === queue);
    assert.equal(listed.length, 2, 'one entry per digest');
    assert.ok(listed.every((o) => o.live));
    assert.deepEqual(listed.map((o) => o.workers).sort(), [['elsewhere:1:abc'], [rolling.workerId]].sort());
  } finally {
    rolling.shutdown();
    await running;
  }
  assert.deepEqual((await h.store.listWorkerOffers()).filter((o) => o.taskQueue === queue).map((o) => o.workerId), ['elsewhere:1:abc']);
});

test('a publication unseen for 2 minutes counts as gone: it refuses no one and is dropped by the next worker', async () => {
  const queue = `${h.taskQueue}-gone`;
  const old = new Date(Date.now() - 3 * 60_000).toISOString();
  const gone: WorkerOffer = { workerId: 'crashed:1:abc', taskQueue: queue, digest: 'f'.repeat(64), tools: [], agents: [], startedAt: old, lastSeenAt: old, stoppedAt: null };
  await h.store.putWorkerOffer(gone);
  const worker = await otherWorker({ taskQueue: queue });
  const running = worker.run();
  try {
    assert.deepEqual((await h.store.listWorkerOffers()).filter((o) => o.taskQueue === queue).map((o) => o.workerId), [worker.workerId]);
  } finally {
    worker.shutdown();
    await running;
  }
});

test('with no worker alive, GET /agents and `agent agents` answer from the last publication, marked stale', async () => {
  await h.stopWorker();
  const [stale] = await listing();
  assert.ok(stale);
  assert.equal(stale.live, false);
  assert.equal(stale.agents[0]?.name, 'support');
  assert.ok(Date.now() - Date.parse(stale.lastSeenAt) < 60_000, stale.lastSeenAt);

  const { stdout } = await promisify(execFile)(process.execPath, [path.join(PROJECT_ROOT, 'src', 'cli', 'cli.ts'), 'agents'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, AGENT_DATA_DIR: h.dataDir },
  });
  const section = stdout.slice(stdout.indexOf(`task queue ${h.taskQueue} `));
  assert.match(section, new RegExp(`^task queue ${h.taskQueue} — digest ${stale.digest.slice(0, 12)} — stale: no live worker, last seen ${stale.lastSeenAt}`));
  assert.match(section, /agent\s+model\s+tools \(risk\)\n-+\s+-+\s+-+\nsupport\s+scripted:\S+refund\.ts\s+lookup_order \(low\), refund_order \(high\)/);
  assert.match(section, /tool\s+risk\s+read-only\s+source\n/);
  assert.match(section, /\nrefund_order\s+high\s+no\s+own\n/);
  assert.match(section, /\nread_file\s+low\s+yes\s+builtin\n/);
});
