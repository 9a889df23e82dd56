/**
 * The HTTP server as an attacker tries it (issue 34): tokens in URLs (read strictly, never logged), SSE
 * tickets instead of tokens, and the no-token mode against DNS rebinding and cross-site requests.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { TokenEntry } from '../src/http/auth.ts';
import { PROJECT_ROOT } from '../src/paths.ts';
import { eventually } from './helpers/eventually.ts';
import { startHarness, type Harness } from './helpers/harness.ts';
import { startHttp, type TestHttp } from './helpers/http-app.ts';
import { openSse } from './helpers/sse-client.ts';

const VIEWER = 'viewer-token-hardening-1';
const OPERATOR = 'operator-token-hardening';
const TOKENS: TokenEntry[] = [
  { name: 'vera', token: VIEWER, roles: ['viewer'] },
  { name: 'ci-bot', token: OPERATOR, roles: ['operator'] },
];

let h: Harness;
let api: TestHttp;
/** The same API with no token configured: loopback only, every local caller has every role. */
let local: TestHttp;
/** A run that has ended: its event stream replays and ends, so a 200 does not hang a request. */
let endedRun: string;
before(async () => {
  h = await startHarness('http-hardening');
  api = await startHttp(h, { tokens: TOKENS });
  local = await startHttp(h);
  endedRun = (await h.run({ goal: 'Which log file mentions a timeout?', model: 'scripted:plan' })).runId;
});
after(async () => {
  await local?.close();
  await api?.close();
  await h?.close();
});

interface RawResponse {
  status: number;
  body: { error?: string; message?: string; field?: string } | null;
}

/** A request with any headers, Host included (fetch will not send a Host of our choosing). An event stream is left unread. */
function raw(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}${path}`, { method, headers, agent: false }, (response) => {
      if (response.headers['content-type']?.startsWith('text/event-stream')) {
        response.destroy();
        return resolve({ status: response.statusCode!, body: null });
      }
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body: response.headers['content-type']?.startsWith('application/json') ? (JSON.parse(text) as RawResponse['body']) : null }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

const portOf = (t: TestHttp) => new URL(t.url).port;

describe('tokens in the query string', () => {
  test('access_token twice is a 400 that says so (it was a 500)', async () => {
    const res = await raw(api.url, 'GET', `/runs/${endedRun}/events?access_token=x&access_token=${VIEWER}`);
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body?.field, 'querystring.access_token');
    assert.match(res.body?.message ?? '', /more than once/);
    const alone = await raw(api.url, 'GET', `/runs/${endedRun}/events?access_token=${VIEWER}`);
    assert.equal(alone.status, 200, 'the one name, once, still opens the stream');
  });

  test('only the exact name counts: a percent-encoded access_token does not authenticate', async () => {
    for (const name of ['access%5Ftoken', 'access%5ftoken', '%61ccess_token']) {
      const res = await raw(api.url, 'GET', `/runs/${endedRun}/events?${name}=${VIEWER}`);
      assert.equal(res.status, 400, `${name}: ${JSON.stringify(res.body)}`);
      assert.match(res.body?.message ?? '', /as it is spelled/);
    }
    assert.equal((await raw(api.url, 'GET', `/runs/${endedRun}/events?ACCESS_TOKEN=${VIEWER}`)).status, 401, 'another name is not the token either');
  });

  test('the request log never shows a token or a ticket, however the URL spells it, nor an Authorization header', async () => {
    const secrets = ['s3cret-first-spelling', 's3cret-second-spelling', 's3cret-encoded-name', 's3cret-header', 's3cret-ticket', 's3cret-array'];
    const server = await loggedServer(`vera:${secrets[1]}:viewer,hdr:${secrets[3]}:viewer`);
    try {
      const paths = [
        `/runs/run-x/events?access_token=${secrets[0]}&access_token=${secrets[1]}`,
        `/runs/run-x/events?access%5Ftoken=${secrets[2]}`,
        `/runs/run-x/events?ticket=${secrets[4]}&after=3`,
        `/runs/run-x/events?access_token[]=${secrets[5]}`,
      ];
      for (const path of paths) await raw(server.url, 'GET', path);
      await raw(server.url, 'GET', '/me', { authorization: `Bearer ${secrets[3]}` });
      const log = await eventually(() => (server.stdout().split('\n').filter((l) => l.includes('"request completed"')).length >= paths.length + 1 ? server.stdout() : false), 'the log of every request');
      for (const secret of secrets) assert.ok(!log.includes(secret), `the log shows ${secret}:\n${log}`);
      assert.match(log, /"url":"\/runs\/run-x\/events\?access_token=…&access_token=…"/, 'every occurrence masked, the request still recognisable');
      assert.match(log, /"url":"\/runs\/run-x\/events\?ticket=…&after=3"/);
    } finally {
      await server.close();
    }
  });
});

describe('tickets for the event stream', () => {
  test('a ticket minted with a token opens that run’s stream, and only that run’s, as a viewer', async () => {
    const minted = await api.call<{ ticket: string; expiresAt: string }>('POST', `/runs/${endedRun}/events/ticket`, { token: VIEWER });
    assert.equal(minted.status, 201, JSON.stringify(minted.body));
    const lifetime = Date.parse(minted.body.expiresAt) - Date.now();
    assert.ok(lifetime > 50_000 && lifetime <= 60_000, `a ticket lasts a minute (${lifetime} ms left)`);
    assert.ok(!minted.body.ticket.includes(VIEWER));

    const stream = await openSse(`${api.url}/runs/${endedRun}/events?ticket=${encodeURIComponent(minted.body.ticket)}`);
    assert.equal(stream.status, 200);
    await stream.ended;
    assert.deepEqual(stream.events.map((e) => e.id), (await h.store.readEvents(endedRun)).map((e) => e.id), 'the whole run, as with a token');

    const other = (await h.run({ goal: 'Which log file mentions a timeout?', model: 'scripted:plan' })).runId;
    const elsewhere = await raw(api.url, 'GET', `/runs/${other}/events?ticket=${encodeURIComponent(minted.body.ticket)}`);
    assert.equal(elsewhere.status, 403, JSON.stringify(elsewhere.body));
    assert.match(elsewhere.body?.message ?? '', new RegExp(`events of run ${endedRun}`));
    assert.equal((await raw(api.url, 'GET', `/runs/${endedRun}?ticket=${encodeURIComponent(minted.body.ticket)}`)).status, 401, 'no other route takes a ticket');
    const unknown = await raw(api.url, 'GET', `/runs/${endedRun}/events?ticket=not-a-ticket`);
    assert.equal(unknown.status, 401);
    assert.match(unknown.body?.message ?? '', /POST \/runs\/.*\/events\/ticket/);
    assert.equal((await raw(api.url, 'GET', `/runs/${endedRun}/events?ticket=a&access_token=${VIEWER}`)).status, 400, 'one credential, not two');
    assert.equal((await api.call('POST', `/runs/${endedRun}/events/ticket`)).status, 401, 'minting needs a token');
    assert.equal((await api.call('POST', '/runs/run-nobody/events/ticket', { token: VIEWER })).status, 404);
    const doc = await api.call<{ paths: Record<string, Record<string, unknown>> }>('GET', '/openapi.json');
    assert.ok(doc.body.paths['/runs/{id}/events/ticket']?.post, 'the route is in /openapi.json');
  });
});

describe('no token configured (loopback only)', () => {
  test('only Host 127.0.0.1, [::1] or localhost with the port is answered (DNS rebinding)', async () => {
    const port = portOf(local);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      assert.equal((await raw(local.url, 'GET', '/runs?limit=1', { host })).status, 200, host);
    }
    for (const host of ['evil.example', `evil.example:${port}`, '127.0.0.1', `127.0.0.1:${Number(port) + 1}`, `localhost.evil.example:${port}`, `127.0.0.2:${port}`]) {
      const res = await raw(local.url, 'GET', '/runs?limit=1', { host });
      assert.equal(res.status, 403, `${host}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body?.field, 'headers.host');
      assert.match(res.body?.message ?? '', /127\.0\.0\.1:\d+, \[::1\]:\d+ or localhost:\d+/);
    }
    assert.equal((await raw(local.url, 'GET', '/ui', { host: 'evil.example' })).status, 403, 'the pages too');
    assert.equal((await raw(api.url, 'GET', `/runs/${endedRun}`, { host: 'agents.example.com', authorization: `Bearer ${VIEWER}` })).status, 200, 'with tokens, any host name');
  });

  test('a cross-site POST is refused (CSRF); the server’s own pages, curl and the CLI are not', async () => {
    const runId = await startWaiting();
    const origin = `http://127.0.0.1:${portOf(local)}`;
    const forged = await raw(local.url, 'POST', `/runs/${runId}/cancel`, { origin: 'http://evil.example' });
    assert.equal(forged.status, 403, JSON.stringify(forged.body));
    assert.equal(forged.body?.field, 'headers.origin');
    assert.equal((await raw(local.url, 'POST', `/runs/${runId}/cancel`, { origin: 'null' })).status, 403, 'a sandboxed page');
    assert.equal((await raw(local.url, 'POST', `/runs/${runId}/cancel`, { origin: `http://localhost:${portOf(local)}` })).status, 403, 'another origin of the same machine');
    assert.equal((await h.agents.getState(runId)).status, 'waiting_approval', 'the run was not cancelled');
    const formPost = await raw(local.url, 'POST', `/runs/${runId}/cancel`, { 'content-type': 'text/plain' }, '{"reason":"x"}');
    assert.equal(formPost.status, 400, 'a body must be JSON');
    assert.equal(formPost.body?.field, 'headers.content-type');
    assert.match(formPost.body?.message ?? '', /Content-Type: application\/json/);
    assert.equal((await raw(local.url, 'POST', '/codec/decode', { origin: 'http://127.0.0.1:8233', 'content-type': 'application/json' }, '{"payloads":[]}')).status, 404, 'the Temporal Web UI may call the codec (off here)');

    const own = await raw(local.url, 'POST', `/runs/${runId}/cancel`, { origin, 'content-type': 'application/json' }, '{"reason":"from the run page"}');
    assert.equal(own.status, 202, JSON.stringify(own.body));
    const second = await startWaiting();
    assert.equal((await raw(local.url, 'POST', `/runs/${second}/cancel`)).status, 202, 'no Origin (curl, the CLI, services) works');
  });

  test('with tokens, a POST with a foreign Origin is judged by its token alone (none can be sent cross-site)', async () => {
    const res = await raw(api.url, 'POST', `/runs/${endedRun}/cancel`, { origin: 'http://evil.example' });
    assert.equal(res.status, 401);
  });
});

async function startWaiting(): Promise<string> {
  const res = await local.call<{ runId: string }>('POST', '/runs', { body: { goal: 'Free some disk space in the workspace.', model: 'scripted:delete-approval', workspace: h.workspace } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  await h.waitForState(res.body.runId, (s) => s.status === 'waiting_approval', 'the approval request');
  return res.body.runId;
}

/** `serve` in a process of its own with the request log on; `stdout()` is the log so far. */
async function loggedServer(tokens: string): Promise<{ url: string; stdout(): string; close(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ['test/helpers/logged-server.ts'], { cwd: PROJECT_ROOT, env: { ...process.env, AGENT_HTTP_TOKENS: tokens }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await eventually(() => /listening (\S+)/.exec(stderr)?.[1] ?? (child.exitCode !== null ? assert.fail(`the server exited: ${stderr}`) : undefined), 'the logged server to listen', 60_000); // a process of its own: slow on a loaded machine
  return {
    url,
    stdout: () => stdout,
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
