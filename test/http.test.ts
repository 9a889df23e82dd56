/** The HTTP API against the real Temporal server: every endpoint, every error status, SSE resume. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AesGcmPayloadCodec } from '../src/client/payload-codec.ts';
import type { RunSummary } from '../src/client/run-list.ts';
import type { ApprovalDecision, PendingApproval, RunState } from '../src/wire/types.ts';
import type { TraceLine } from '../src/wire/trace-events.ts';
import { eventually } from './helpers/eventually.ts';
import { startHarness, type Harness } from './helpers/harness.ts';
import { startHttp, TEST_TOKENS, type TestHttp } from './helpers/http-app.ts';
import { openSse, typeOf } from './helpers/sse-client.ts';

const { viewer: VIEWER, approver: APPROVER, operator: OPERATOR, entries: TOKENS } = TEST_TOKENS;

let h: Harness;
let api: TestHttp;
before(async () => {
  h = await startHarness('http');
  api = await startHttp(h, { tokens: TOKENS, codec: new AesGcmPayloadCodec('test-secret'), heartbeatMs: 300 });
});
after(async () => {
  await api?.close();
  await h?.close();
});

const start = async (model: string, goal = 'Free some disk space in the workspace.') => {
  const res = await api.call<{ runId: string }>('POST', '/runs', { token: OPERATOR, body: { goal, model, workspace: h.workspace } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.runId;
};
/** GET a run list until `check` holds (visibility lags a little behind the run). */
const listing = (path: string, check: (runs: RunSummary[]) => boolean) =>
  eventually(async () => {
    const res = await api.call<{ runs: RunSummary[] }>('GET', path, { token: VIEWER });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return check(res.body.runs) ? res.body.runs : undefined;
  }, `a listing of ${path} that holds`);
const waitingApproval = async (runId: string) => {
  const state = await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval request');
  return state.pending as PendingApproval;
};

describe('auth', () => {
  test('no token → 401, unknown token → 401, each with a JSON body saying what to send', async () => {
    const none = await api.call('GET', '/runs');
    assert.equal(none.status, 401);
    assert.equal(none.body.error, 'unauthorized');
    assert.match(none.body.message, /Authorization: Bearer/);
    const wrong = await api.call('GET', '/runs', { token: 'not-a-token' });
    assert.equal(wrong.status, 401);
    assert.match(wrong.body.message, /not configured/);
  });

  test('a role short of the route → 403 naming the role needed; /me says who the token is', async () => {
    const viewerStarts = await api.call('POST', '/runs', { token: VIEWER, body: { goal: 'x', model: 'scripted:plan' } });
    assert.equal(viewerStarts.status, 403);
    assert.equal(viewerStarts.body.error, 'forbidden');
    assert.match(viewerStarts.body.message, /needs the operator role; token "vera" has viewer/);
    // Roles are explicit: an operator that starts runs cannot approve them.
    const operatorApproves = await api.call('POST', '/runs/x/approvals/t1.1', { token: OPERATOR, body: { decision: 'reject' } });
    assert.equal(operatorApproves.status, 403);
    const approverCancels = await api.call('POST', '/runs/x/cancel', { token: APPROVER });
    assert.equal(approverCancels.status, 403);
    const me = await api.call<{ name: string; roles: string[]; authRequired: boolean }>('GET', '/me', { token: APPROVER });
    assert.deepEqual(me.body, { name: 'alice', roles: ['viewer', 'approver'], authRequired: true });
  });

  test('the UI and /openapi.json need no token; the OpenAPI document lists every route', async () => {
    const doc = await api.call<{ openapi: string; paths: Record<string, Record<string, unknown>> }>('GET', '/openapi.json');
    assert.equal(doc.status, 200);
    assert.match(doc.body.openapi, /^3\./);
    for (const [route, method] of [
      ['/runs', 'post'],
      ['/runs', 'get'],
      ['/runs/{id}', 'get'],
      ['/runs/{id}/trace', 'get'],
      ['/runs/{id}/cancel', 'post'],
      ['/runs/{id}/approvals/{callKey}', 'post'],
      ['/runs/{id}/answer', 'post'],
      ['/runs/{id}/events', 'get'],
      ['/codec/decode', 'post'],
    ] as const) {
      assert.ok(doc.body.paths[route]?.[method], `${method} ${route} in /openapi.json`);
    }
    const page = await fetch(`${api.url}/ui`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Approvals/);
  });
});

describe('runs', () => {
  test('POST /runs → 201; GET /runs/:id, /trace; GET /runs?status=completed lists it', async () => {
    const runId = await start('scripted:plan', 'Which log file mentions a timeout?');
    const result = await h.agents.result(runId);
    assert.equal(result.status, 'completed');
    const state = await api.call<RunState & { limits: { maxTurns: number } | null }>('GET', `/runs/${runId}`, { token: VIEWER });
    assert.equal(state.status, 200);
    assert.equal(state.body.status, 'completed');
    assert.equal(state.body.goal, 'Which log file mentions a timeout?');
    assert.equal(state.body.limits?.maxTurns, 20, 'the limits recorded at start (defaults filled in)');
    const trace = await api.call<{ lines: TraceLine[] }>('GET', `/runs/${runId}/trace`, { token: VIEWER });
    assert.equal(trace.status, 200);
    assert.deepEqual(trace.body.lines.map((l) => l.type).at(-1), 'run_stopped');
    assert.deepEqual(trace.body.lines, await h.trace(runId));
    // Temporal's visibility store is eventually consistent: the run's close may reach it a moment later.
    const list = await listing('/runs?status=completed', (runs) => runs.some((r) => r.runId === runId));
    const listed = list.find((r) => r.runId === runId)!;
    assert.equal(listed.goal, 'Which log file mentions a timeout?');
    assert.equal(listed.model, 'scripted:plan');
    assert.ok(list.every((r) => r.status === 'completed'));
    // Its id is spent for good, though it has ended: another run under it would share its trace and effects.
    const again = await api.call('POST', `/runs?runId=${runId}`, { token: OPERATOR, body: { goal: 'again', model: 'scripted:plan' } });
    assert.equal(again.status, 409);
    assert.match(again.body.message, new RegExp(`A run with id "${runId}" already exists`));
  });

  test('400 names the field: an empty goal, an unknown field, a bad status filter, a bad Last-Event-ID', async () => {
    const empty = await api.call('POST', '/runs', { token: OPERATOR, body: { goal: '', model: 'scripted:plan' } });
    assert.equal(empty.status, 400);
    assert.equal(empty.body.error, 'invalid_request');
    assert.equal(empty.body.field, 'body.goal');
    assert.match(empty.body.message, /goal is empty/);
    const unknown = await api.call('POST', '/runs', { token: OPERATOR, body: { goal: 'x', model: 'scripted:plan', colour: 'red' } });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.field, 'body.colour');
    const missingModel = await api.call('POST', '/runs', { token: OPERATOR, body: { goal: 'x' } });
    assert.equal(missingModel.body.field, 'body.model');
    const workspace = await api.call('POST', '/runs', { token: OPERATOR, body: { goal: 'x', model: 'scripted:plan', workspace: '/etc' } });
    assert.equal(workspace.status, 400);
    assert.equal(workspace.body.field, 'body.workspace');
    const status = await api.call('GET', '/runs?status=sleeping', { token: VIEWER });
    assert.equal(status.status, 400);
    assert.equal(status.body.field, 'querystring.status');
    assert.match(status.body.message, /unknown status "sleeping"/);
    const notJson = await api.call('POST', '/runs', { token: OPERATOR, body: undefined, headers: { 'content-type': 'application/json' } });
    assert.equal(notJson.status, 400);
    const runId = await start('scripted:plan');
    const badId = await api.call('GET', `/runs/${runId}/events`, { token: VIEWER, headers: { 'last-event-id': 'abc' } });
    assert.equal(badId.status, 400);
    assert.equal(badId.body.field, 'headers.last-event-id');
  });

  test('404 for an unknown run on every run route', async () => {
    for (const [method, path, token, body] of [
      ['GET', '/runs/run-nope', VIEWER, undefined],
      ['GET', '/runs/run-nope/trace', VIEWER, undefined],
      ['GET', '/runs/run-nope/events', VIEWER, undefined],
      ['POST', '/runs/run-nope/cancel', OPERATOR, {}],
      ['POST', '/runs/run-nope/approvals/t1.1', APPROVER, { decision: 'reject' }],
      ['POST', '/runs/run-nope/answer', APPROVER, { text: 'hi' }],
    ] as const) {
      const res = await api.call(method, path, { token, body });
      assert.equal(res.status, 404, `${method} ${path}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error, 'not_found');
    }
    const route = await api.call('GET', '/nowhere', { token: VIEWER });
    assert.equal(route.status, 404);
  });

  test('cancel → 202 and the run ends interrupted with the reason; a second cancel → 409', async () => {
    const runId = await start('scripted:slow-scan', 'Scan the files slowly.');
    await h.waitForState(runId, (s) => s.progress !== null, 'the scan to report progress');
    const cancel = await api.call<{ cancelRequested: boolean }>('POST', `/runs/${runId}/cancel`, { token: OPERATOR, body: { reason: 'enough scanning' } });
    assert.equal(cancel.status, 202);
    const result = await h.agents.result(runId);
    assert.equal(result.status, 'interrupted');
    assert.deepEqual(result.interruption, { type: 'cancelled', reason: 'enough scanning' });
    const again = await api.call('POST', `/runs/${runId}/cancel`, { token: OPERATOR });
    assert.equal(again.status, 409);
    assert.match(again.body.message, /already ended \(interrupted\)/);
  });
});

describe('decisions', () => {
  test('approve: the inbox lists the run; 400 without argsHash, 409 with a stale one, 200 with the right one (by = token name)', async () => {
    const runId = await start('scripted:delete-approval');
    const pending = await waitingApproval(runId);

    const inbox = await listing('/runs?pending=true', (runs) => runs.some((r) => r.runId === runId));
    const listed = inbox.find((r) => r.runId === runId)!;
    assert.equal(listed.status, 'waiting_approval');
    assert.deepEqual(listed.pending, pending, 'with the exact pending call: tool, redacted args, argsHash, risk');
    await listing('/runs?tool=delete_file&status=waiting_approval', (runs) => runs.some((r) => r.runId === runId));
    const otherTool = await api.call<{ runs: RunSummary[] }>('GET', '/runs?tool=send_message', { token: VIEWER });
    assert.ok(!otherTool.body.runs.some((r) => r.runId === runId));

    const path = `/runs/${runId}/approvals/${pending.callKey}`;
    const noHash = await api.call('POST', path, { token: APPROVER, body: { decision: 'approve' } });
    assert.equal(noHash.status, 400);
    assert.equal(noHash.body.field, 'body.argsHash');
    const stale = await api.call('POST', path, { token: APPROVER, body: { decision: 'approve', argsHash: '0'.repeat(64) } });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.error, 'conflict');
    assert.match(stale.body.message, /argsHash/i, 'the run says why it refused');
    const unknownCall = await api.call('POST', `/runs/${runId}/approvals/t9.9`, { token: APPROVER, body: { decision: 'approve', argsHash: pending.argsHash } });
    assert.equal(unknownCall.status, 409);

    const ok = await api.call<ApprovalDecision>('POST', path, { token: APPROVER, body: { decision: 'approve', argsHash: pending.argsHash } });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.deepEqual(ok.body, { decision: 'approved', callKey: pending.callKey, by: 'alice' });
    const twice = await api.call('POST', path, { token: APPROVER, body: { decision: 'approve', argsHash: pending.argsHash } });
    assert.equal(twice.status, 409);

    const result = await h.agents.result(runId);
    assert.equal(result.status, 'completed');
    const decided = (await h.trace(runId)).find((l) => l.type === 'approval_decided');
    assert.equal(decided?.type === 'approval_decided' && decided.by, 'alice', 'who decided is in the trace');
    const ended = await api.call('POST', path, { token: APPROVER, body: { decision: 'reject' } });
    assert.equal(ended.status, 409, 'a decision for a run that has ended');
  });

  test('reject with a reason: the model is told', async () => {
    const runId = await start('scripted:delete-approval');
    const pending = await waitingApproval(runId);
    const res = await api.call<ApprovalDecision>('POST', `/runs/${runId}/approvals/${pending.callKey}`, { token: APPROVER, body: { decision: 'reject', reason: 'keep the logs' } });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { decision: 'rejected', callKey: pending.callKey, reason: 'keep the logs', by: 'alice' });
    const result = await h.agents.result(runId);
    assert.match(result.output ?? '', /keep the logs/);
  });

  test('answer: 400 for empty text, 200 when the run asks, 409 when it does not', async () => {
    const runId = await start('scripted:ask-user', 'Read the file I pick.');
    await h.waitForState(runId, (s) => s.status === 'waiting_input', 'the question');
    const listed = await listing('/runs?status=waiting_input', (runs) => runs.some((r) => r.runId === runId));
    assert.equal(listed.find((r) => r.runId === runId)?.pending?.kind, 'input');
    const empty = await api.call('POST', `/runs/${runId}/answer`, { token: APPROVER, body: { text: '' } });
    assert.equal(empty.status, 400);
    assert.equal(empty.body.field, 'body.text');
    const ok = await api.call<{ callKey: string }>('POST', `/runs/${runId}/answer`, { token: APPROVER, body: { text: 'notes.txt' } });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(typeof ok.body.callKey, 'string');
    await h.waitForState(runId, (s) => s.status !== 'waiting_input', 'the run to go on');
    const again = await api.call('POST', `/runs/${runId}/answer`, { token: APPROVER, body: { text: 'notes.txt' } });
    assert.equal(again.status, 409);
    assert.equal((await h.agents.result(runId)).status, 'completed');
  });
});

describe('events (SSE)', () => {
  test('ids on every event; reconnecting with Last-Event-ID gets exactly the rest; 204 once the run has ended', async () => {
    const runId = await start('scripted:delete-approval');
    const first = await openSse(`${api.url}/runs/${runId}/events`, { token: VIEWER });
    assert.equal(first.status, 200);
    const asked = await first.waitFor((e) => typeOf(e) === 'approval_required', 'approval_required');
    first.close();
    const seen = first.events.filter((e) => e.id <= asked.id);
    assert.deepEqual(seen.map((e) => e.id), seen.map((_, i) => i + 1), 'ids 1, 2, 3, … from the start');

    const pending = await waitingApproval(runId);
    await h.agents.approve(runId, { callKey: pending.callKey, argsHash: pending.argsHash, by: 'tester' });
    const last = seen.at(-1)!.id;
    const resumed = await openSse(`${api.url}/runs/${runId}/events`, { token: VIEWER, lastEventId: last });
    await resumed.waitFor((e) => typeOf(e) === 'run_stopped', 'run_stopped');
    await resumed.ended; // the server ends the stream after run_stopped
    assert.equal(resumed.events[0]!.id, last + 1, 'the first event after the one the client had');

    const stored = await h.store.readEvents(runId);
    assert.deepEqual([...seen, ...resumed.events].map((e) => e.id), stored.map((e) => e.id), 'nothing lost, nothing twice');
    assert.deepEqual(resumed.events.map((e) => e.data), stored.filter((e) => e.id > last).map((e) => e.event));
    const types = stored.map((e) => (e.event as { type: string }).type);
    for (const type of ['turn', 'model_delta', 'tool_start', 'tool_result', 'approval_required', 'approval_decided', 'run_stopped']) {
      assert.ok(types.includes(type), `the stream has ${type}`);
    }

    const after = await openSse(`${api.url}/runs/${runId}/events`, { token: VIEWER, lastEventId: stored.at(-1)!.id });
    assert.equal(after.status, 204, 'nothing left: EventSource stops reconnecting');
    const replay = await openSse(`${api.url}/runs/${runId}/events?access_token=${VIEWER}`);
    await replay.ended;
    assert.deepEqual(replay.events.map((e) => e.id), stored.map((e) => e.id), 'a fresh connection replays the whole run (a page reload loses nothing)');
  });

  test('several clients of one run, joining at different points, each get every event after their cursor once', async () => {
    const runId = await start('scripted:delete-approval');
    const a = await openSse(`${api.url}/runs/${runId}/events`, { token: VIEWER });
    await a.waitFor((e) => typeOf(e) === 'approval_required', 'approval_required');
    const b = await openSse(`${api.url}/runs/${runId}/events`, { token: VIEWER, lastEventId: 2 });
    const c = await openSse(`${api.url}/runs/${runId}/events`, { token: VIEWER });
    await c.waitFor((e) => typeOf(e) === 'approval_required', 'approval_required (c)');
    const pending = await waitingApproval(runId);
    await h.agents.approve(runId, { callKey: pending.callKey, argsHash: pending.argsHash, by: 'tester' });
    await Promise.all([a.ended, b.ended, c.ended]);
    const ids = (await h.store.readEvents(runId)).map((e) => e.id);
    assert.deepEqual(a.events.map((e) => e.id), ids);
    assert.deepEqual(b.events.map((e) => e.id), ids.filter((id) => id > 2));
    assert.deepEqual(c.events.map((e) => e.id), ids);
  });

  test('an announcement stored after run_stopped (a cancel that raced the end) does not keep the stream from ending on run_stopped', async () => {
    const runId = await start('scripted:plan');
    await h.agents.result(runId);
    const late = await h.store.appendEvent(runId, { type: 'cancel_requested', reason: 'too late' });
    const stream = await openSse(`${api.url}/runs/${runId}/events`, { token: VIEWER });
    await stream.ended;
    const ids = stream.events.map((e) => e.id);
    assert.deepEqual(ids, (await h.store.readEvents(runId)).map((e) => e.id).filter((id) => id < late.id), 'every event up to the end, in order');
    assert.equal(typeOf(stream.events.at(-1)!), 'run_stopped');
  });

  test('live: events arrive as they are appended, heartbeats keep an idle stream open', async () => {
    const runId = await start('scripted:delete-approval');
    await waitingApproval(runId);
    const stream = await openSse(`${api.url}/runs/${runId}/events?after=0`, { token: VIEWER });
    await stream.waitFor((e) => typeOf(e) === 'approval_required', 'approval_required');
    await eventually(() => stream.comments.includes('heartbeat'), 'a heartbeat comment', 5000);
    const appended = await h.store.appendEvent(runId, { type: 'test_marker' });
    const got = await stream.waitFor((e) => e.id === appended.id, 'the appended event', 5000);
    assert.deepEqual(got.data, { type: 'test_marker' });
    stream.close();
    await h.agents.cancelRun(runId, 'test over');
  });
});

describe('codec', () => {
  test('/codec/encode and /codec/decode round-trip payloads for the Web UI (viewer), with CORS for its origin', async () => {
    const payload = { metadata: { encoding: Buffer.from('json/plain').toString('base64') }, data: Buffer.from('{"goal":"secret"}').toString('base64') };
    const encoded = await api.call<{ payloads: { metadata: Record<string, string>; data: string }[] }>('POST', '/codec/encode', { token: VIEWER, body: { payloads: [payload] } });
    assert.equal(encoded.status, 200);
    assert.equal(Buffer.from(encoded.body.payloads[0]!.metadata.encoding!, 'base64').toString(), 'binary/encrypted');
    const decoded = await api.call<{ payloads: unknown[] }>('POST', '/codec/decode', { token: VIEWER, body: encoded.body });
    assert.deepEqual(decoded.body.payloads, [payload]);
    const anonymous = await api.call('POST', '/codec/decode', { body: encoded.body });
    assert.equal(anonymous.status, 401);
    const preflight = await fetch(`${api.url}/codec/decode`, { method: 'OPTIONS', headers: { origin: 'http://127.0.0.1:8233', 'access-control-request-method': 'POST' } });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'http://127.0.0.1:8233');
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /authorization/);
    const garbage = await api.call('POST', '/codec/decode', { token: VIEWER, body: { payloads: [{ ...encoded.body.payloads[0], data: 'AAAA' }] } });
    assert.equal(garbage.status, 400);
  });

  test('without AGENT_PAYLOAD_KEY the codec answers 404 saying encryption is off', async () => {
    const plain = await startHttp(h, { tokens: TOKENS });
    try {
      const res = await plain.call('POST', '/codec/decode', { token: VIEWER, body: { payloads: [] } });
      assert.equal(res.status, 404);
      assert.match(res.body.message, /AGENT_PAYLOAD_KEY/);
    } finally {
      await plain.close();
    }
  });
});
