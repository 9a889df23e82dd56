/**
 * /openapi.json is true: it is valid OpenAPI (swagger-parser), every schema in it compiles under strict
 * Ajv (JSON Schema 2020-12), and every response of every route — successes and errors, the event stream
 * too — is one the document declares for its status, with that media type and a body its schema admits.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { Client } from '@temporalio/client';
import { AgentClient } from '../src/client/client.ts';
import { AesGcmPayloadCodec, agentDataConverter } from '../src/client/payload-codec.ts';
import type { RunSummary } from '../src/client/run-list.ts';
import type { PendingApproval } from '../src/wire/types.ts';
import { eventually } from './helpers/eventually.ts';
import { startHarness, type Harness } from './helpers/harness.ts';
import { startHttp, TEST_TOKENS, type TestHttp } from './helpers/http-app.ts';
import { OpenApiResponses, type OpenApiDocument } from './helpers/openapi-responses.ts';

const { viewer: VIEWER, approver: APPROVER, operator: OPERATOR, entries: TOKENS } = TEST_TOKENS;

let h: Harness;
let api: TestHttp;
/** The same API without a payload codec: /codec/* answers 404. */
let plain: TestHttp;
let document: OpenApiDocument;
before(async () => {
  h = await startHarness('openapi');
  api = await startHttp(h, { tokens: TOKENS, codec: new AesGcmPayloadCodec('test-secret') });
  plain = await startHttp(h, { tokens: TOKENS });
  const res = await fetch(`${api.url}/openapi.json`);
  assert.equal(res.status, 200);
  document = (await res.json()) as OpenApiDocument;
});
after(async () => {
  await plain?.close();
  await api?.close();
  await h?.close();
});

test('the document is valid OpenAPI 3.1, and every schema in it compiles under strict Ajv (JSON Schema 2020-12)', async () => {
  // validate() dereferences what it is given: a copy.
  await SwaggerParser.validate(structuredClone(document) as unknown as OpenAPIV3_1.Document);
  assert.deepEqual(new OpenApiResponses(document).compileAll(), []);
  assert.match(document.openapi, /^3\.1\./, 'JSON Schema 2020-12 is the dialect of 3.1, not of 3.0');
});

test('every response of every route, errors included, is one the document declares', async () => {
  const doc = new OpenApiResponses(document);
  const problems: string[] = [];
  /** A request whose response is checked against the document; its JSON body (or text) for the flow. */
  const call = async <T = { error: string }>(method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string>; server?: TestHttp } = {}) => {
    const { token, body, headers = {}, server = api } = options;
    const response = await fetch(server.url + path, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    problems.push(...doc.check({ method, path, status: response.status, contentType: response.headers.get('content-type'), text }));
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // the event stream: text
    }
    return { status: response.status, body: parsed as T, text };
  };
  /** A call that should answer `status`; if it does not, that is one more problem, and the test goes on. */
  const expect = async (status: number, method: string, path: string, options: Parameters<typeof call>[2] = {}) => {
    const res = await call(method, path, options);
    if (res.status !== status) problems.push(`${method} ${path}: expected ${status}, got ${res.status} ${res.text.slice(0, 200)}`);
    return res;
  };
  const start = async (model: string, goal: string, query = '') => {
    const res = await call<{ runId: string }>('POST', `/runs${query}`, { token: OPERATOR, body: { goal, model, workspace: h.workspace } });
    assert.equal(res.status, 201, res.text);
    return res.body;
  };

  await expect(200, 'GET', '/me', { token: APPROVER });
  await expect(401, 'GET', '/me');
  // What the workers published (the harness's worker, with its tools and no agents).
  const offers = await expect(200, 'GET', '/agents', { token: VIEWER });
  assert.ok((offers.body as unknown as { offers: { taskQueue: string }[] }).offers.some((o) => o.taskQueue === h.taskQueue), offers.text);
  await expect(401, 'GET', '/agents');

  // Start: 401, 403, 400, 201, 409.
  await expect(401, 'POST', '/runs', { body: { goal: 'x', model: 'scripted:plan' } });
  await expect(403, 'POST', '/runs', { token: VIEWER, body: { goal: 'x', model: 'scripted:plan' } });
  await expect(400, 'POST', '/runs', { token: OPERATOR, body: { goal: '', model: 'scripted:plan' } });
  const planId = `openapi-plan-${Date.now().toString(36)}`;
  await start('scripted:plan', 'Which log file mentions a timeout?', `?runId=${planId}`);
  await expect(409, 'POST', `/runs?runId=${planId}`, { token: OPERATOR, body: { goal: 'again', model: 'scripted:plan' } });

  // A finished run: `pending: null`, its trace, its whole event stream, then 204.
  await h.agents.result(planId);
  await expect(200, 'GET', `/runs/${planId}`, { token: VIEWER });
  await expect(200, 'GET', `/runs/${planId}/trace`, { token: VIEWER });
  const stream = await expect(200, 'GET', `/runs/${planId}/events`, { token: VIEWER });
  const ids = [...stream.text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
  assert.ok(ids.length > 3 && /^data: .*"type":"run_stopped"/m.test(stream.text), stream.text.slice(-300));
  await expect(204, 'GET', `/runs/${planId}/events`, { token: VIEWER, headers: { 'last-event-id': String(ids.at(-1)) } });
  await expect(400, 'GET', `/runs/${planId}/events`, { token: VIEWER, headers: { 'last-event-id': 'abc' } });
  // A ticket opens one run's stream for a minute; another run's stream refuses it.
  const ticket = (await expect(201, 'POST', `/runs/${planId}/events/ticket`, { token: VIEWER })).body as unknown as { ticket: string };
  await expect(200, 'GET', `/runs/${planId}/events?ticket=${ticket.ticket}`);
  await expect(401, 'POST', `/runs/${planId}/events/ticket`);
  await expect(404, 'POST', '/runs/run-nope/events/ticket', { token: VIEWER });
  for (const path of ['/runs/run-nope', '/runs/run-nope/trace', '/runs/run-nope/events']) {
    await expect(404, 'GET', path, { token: VIEWER });
    await expect(401, 'GET', path);
  }
  // An empty run id reaches the route and fails its validation; a long one is an unknown run, not a 414.
  await expect(400, 'GET', '/runs/', { token: VIEWER });
  await expect(400, 'GET', '/runs//trace', { token: VIEWER });
  await expect(404, 'GET', `/runs/run-${'x'.repeat(150)}`, { token: VIEWER });

  // A run encrypted with a payload key this server does not hold (no worker on its queue: it stays open).
  const clientWith = (dataConverter: ReturnType<typeof agentDataConverter>) => new AgentClient(new Client({ connection: h.temporal.connection, dataConverter }), { taskQueue: `${h.taskQueue}-sealed`, workspaceRoots: [h.workspace] });
  const sealedRun = await clientWith(agentDataConverter('the team secret')).startRun({ goal: 'Free some disk space.', model: 'scripted:plan', workspace: h.workspace });
  const keyless = await startHttp(h, { tokens: TOKENS, agents: clientWith(agentDataConverter(undefined, { readEncryptedAsMarkers: true })) });
  await expect(403, 'GET', `/runs/${sealedRun.runId}`, { token: VIEWER, server: keyless });
  await keyless.close();
  await h.temporal.workflow.getHandle(sealedRun.runId).terminate('the test is over');

  // A run waiting for approval: its pending call in the state and in the list; every decision outcome.
  const approvalId = (await start('scripted:delete-approval', 'Free some disk space.')).runId;
  const pending = (await h.waitForState(approvalId, (s) => s.status === 'waiting_approval', 'the approval request')).pending as PendingApproval;
  await expect(200, 'GET', `/runs/${approvalId}`, { token: VIEWER });
  await expect(403, 'GET', `/runs/${approvalId}/events?ticket=${ticket.ticket}`);
  await eventually(async () => {
    const runs = (await expect(200, 'GET', '/runs?limit=50', { token: VIEWER })).body as unknown as { runs?: RunSummary[] };
    return runs.runs?.some((r) => r.runId === planId && r.pending === null) && runs.runs.some((r) => r.runId === approvalId && r.pending?.kind === 'approval');
  }, 'a list with a finished run and one waiting for approval');
  await expect(400, 'GET', '/runs?status=sleeping', { token: VIEWER });
  await expect(401, 'GET', '/runs');
  const approvals = `/runs/${approvalId}/approvals/${pending.callKey}`;
  await expect(401, 'POST', approvals, { body: { decision: 'reject' } });
  await expect(403, 'POST', approvals, { token: OPERATOR, body: { decision: 'reject' } });
  await expect(400, 'POST', approvals, { token: APPROVER, body: { decision: 'approve' } });
  await expect(404, 'POST', `/runs/run-nope/approvals/t1.1`, { token: APPROVER, body: { decision: 'reject' } });
  await expect(409, 'POST', approvals, { token: APPROVER, body: { decision: 'approve', argsHash: '0'.repeat(64) } });
  await expect(200, 'POST', approvals, { token: APPROVER, body: { decision: 'approve', argsHash: pending.argsHash } });
  await h.agents.result(approvalId);
  const rejectedId = (await start('scripted:delete-approval', 'Free some disk space.')).runId;
  const toReject = (await h.waitForState(rejectedId, (s) => s.status === 'waiting_approval', 'the approval request')).pending as PendingApproval;
  await expect(200, 'POST', `/runs/${rejectedId}/approvals/${toReject.callKey}`, { token: APPROVER, body: { decision: 'reject', reason: 'keep the logs' } });

  // A run asking a question: its pending question; every answer outcome.
  const askId = (await start('scripted:ask-user', 'Read the file I pick.')).runId;
  await h.waitForState(askId, (s) => s.status === 'waiting_input', 'the question');
  await expect(200, 'GET', `/runs/${askId}`, { token: VIEWER });
  await expect(401, 'POST', `/runs/${askId}/answer`, { body: { text: 'notes.txt' } });
  await expect(403, 'POST', `/runs/${askId}/answer`, { token: OPERATOR, body: { text: 'notes.txt' } });
  await expect(400, 'POST', `/runs/${askId}/answer`, { token: APPROVER, body: { text: '' } });
  await expect(404, 'POST', '/runs/run-nope/answer', { token: APPROVER, body: { text: 'notes.txt' } });
  await expect(200, 'POST', `/runs/${askId}/answer`, { token: APPROVER, body: { text: 'notes.txt' } });
  await h.agents.result(askId);
  await expect(409, 'POST', `/runs/${askId}/answer`, { token: APPROVER, body: { text: 'notes.txt' } });

  // Cancel: every outcome.
  const scanId = (await start('scripted:slow-scan', 'Scan the files slowly.')).runId;
  await expect(401, 'POST', `/runs/${scanId}/cancel`, { body: {} });
  await expect(403, 'POST', `/runs/${scanId}/cancel`, { token: APPROVER, body: {} });
  await expect(400, 'POST', `/runs/${scanId}/cancel`, { token: OPERATOR, body: { colour: 'red' } });
  await expect(404, 'POST', '/runs/run-nope/cancel', { token: OPERATOR, body: {} });
  await expect(202, 'POST', `/runs/${scanId}/cancel`, { token: OPERATOR, body: { reason: 'enough scanning' } });
  await h.agents.result(scanId);
  await expect(200, 'GET', `/runs/${scanId}`, { token: VIEWER });
  await expect(409, 'POST', `/runs/${scanId}/cancel`, { token: OPERATOR });

  // The codec endpoint, with and without a payload key.
  const payload = { metadata: { encoding: Buffer.from('json/plain').toString('base64') }, data: Buffer.from('{"goal":"secret"}').toString('base64') };
  const encoded = await expect(200, 'POST', '/codec/encode', { token: VIEWER, body: { payloads: [payload] } });
  await expect(200, 'POST', '/codec/decode', { token: VIEWER, body: encoded.body });
  const sealed = (encoded.body as unknown as { payloads: object[] }).payloads[0]!;
  for (const op of ['encode', 'decode']) {
    await expect(401, 'POST', `/codec/${op}`, { body: { payloads: [] } });
    await expect(404, 'POST', `/codec/${op}`, { token: VIEWER, body: { payloads: [] }, server: plain });
    await expect(400, 'POST', `/codec/${op}`, { token: VIEWER, body: { payloads: 'none' } });
  }
  await expect(400, 'POST', '/codec/decode', { token: VIEWER, body: { payloads: [{ ...sealed, data: 'AAAA' }] } });

  // Worker Versioning: a run's build; upgrade refused for an ended run, done for a waiting one (it replays on this code).
  await expect(200, 'GET', `/runs/${planId}/build`, { token: VIEWER });
  await expect(400, 'GET', '/runs//build', { token: VIEWER });
  await expect(401, 'GET', `/runs/${planId}/build`);
  await expect(404, 'GET', '/runs/run-nope/build', { token: VIEWER });
  const to = { deploymentName: 'openapi', buildId: 'v1' };
  await expect(401, 'POST', `/runs/${planId}/upgrade`, { body: to });
  await expect(403, 'POST', `/runs/${planId}/upgrade`, { token: VIEWER, body: to });
  await expect(400, 'POST', `/runs/${planId}/upgrade`, { token: OPERATOR, body: { buildId: 'v1' } });
  await expect(404, 'POST', '/runs/run-nope/upgrade', { token: OPERATOR, body: to });
  await expect(409, 'POST', `/runs/${planId}/upgrade`, { token: OPERATOR, body: to });
  const upgradeId = (await start('scripted:delete-approval', 'Free some disk space.')).runId;
  await h.waitForState(upgradeId, (s) => s.status === 'waiting_approval', 'the approval request');
  await expect(200, 'POST', `/runs/${upgradeId}/upgrade`, { token: OPERATOR, body: to });
  await h.temporal.workflow.getHandle(upgradeId).terminate('pinned to a build no worker runs');

  // Scheduled agents: every outcome of every route.
  const scheduleId = `openapi-${Date.now().toString(36)}`;
  const schedule = { id: scheduleId, run: { goal: 'Which log file mentions a timeout?', model: 'scripted:plan', workspace: h.workspace }, every: '1d', paused: true };
  await expect(401, 'POST', '/schedules', { body: schedule });
  await expect(403, 'POST', '/schedules', { token: VIEWER, body: schedule });
  await expect(400, 'POST', '/schedules', { token: OPERATOR, body: { ...schedule, every: undefined } });
  await expect(201, 'POST', '/schedules', { token: OPERATOR, body: schedule });
  await expect(409, 'POST', '/schedules', { token: OPERATOR, body: schedule });
  await expect(200, 'GET', '/schedules', { token: VIEWER });
  await expect(401, 'GET', '/schedules');
  await expect(200, 'GET', `/schedules/${scheduleId}`, { token: VIEWER });
  await expect(400, 'GET', '/schedules/bad%20id', { token: VIEWER });
  await expect(401, 'GET', `/schedules/${scheduleId}`);
  await expect(404, 'GET', '/schedules/no-such-schedule', { token: VIEWER });
  for (const action of ['unpause', 'pause']) {
    await expect(200, 'POST', `/schedules/${scheduleId}/${action}`, { token: OPERATOR, body: { note: `openapi ${action}` } });
    await expect(400, 'POST', `/schedules/${scheduleId}/${action}`, { token: OPERATOR, body: { colour: 'red' } });
    await expect(401, 'POST', `/schedules/${scheduleId}/${action}`);
    await expect(403, 'POST', `/schedules/${scheduleId}/${action}`, { token: VIEWER });
    await expect(404, 'POST', `/schedules/no-such-schedule/${action}`, { token: OPERATOR });
  }
  await expect(202, 'POST', `/schedules/${scheduleId}/trigger`, { token: OPERATOR });
  await expect(400, 'POST', '/schedules/bad%20id/trigger', { token: OPERATOR });
  await expect(401, 'POST', `/schedules/${scheduleId}/trigger`);
  await expect(403, 'POST', `/schedules/${scheduleId}/trigger`, { token: VIEWER });
  await expect(404, 'POST', '/schedules/no-such-schedule/trigger', { token: OPERATOR });
  await expect(400, 'DELETE', '/schedules/bad%20id', { token: OPERATOR });
  await expect(401, 'DELETE', `/schedules/${scheduleId}`);
  await expect(403, 'DELETE', `/schedules/${scheduleId}`, { token: VIEWER });
  await expect(204, 'DELETE', `/schedules/${scheduleId}`, { token: OPERATOR });
  await expect(404, 'DELETE', `/schedules/${scheduleId}`, { token: OPERATOR });

  assert.deepEqual(problems, [], 'responses the document does not describe');
  assert.deepEqual(doc.unseen(), [], 'declared responses this test never saw: make each happen, or stop declaring it');
});
