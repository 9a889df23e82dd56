/**
 * Bad input by the thousand (issue 43): property-based tests (fast-check) against the real HTTP API, driven
 * by its own /openapi.json, and against the other doors input comes in by — the run input, approval and
 * answer payloads, the MCP configuration and workspace paths.
 *
 * Properties: never a 5xx, never a crashed process, and every refusal is a 4xx whose JSON body names what
 * is wrong (`{error, message, field?}`; a 400 names its `field`). In-process targets: the input is accepted,
 * or refused with the target's own typed error (an AgentError with a message), never a TypeError or a hang.
 *
 * Seeded and reproducible: `FUZZ_SEED=<n> node test/run.ts test/fuzz.test.ts` (the seed is printed at the
 * start, and with every failure together with fast-check's counterexample path). `FUZZ_SCALE` multiplies the
 * number of inputs per target (default 1, or 0.5 when `CI` is set); the counts tried are printed at the end.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { AesGcmPayloadCodec } from '../src/client/payload-codec.ts';
import { InvalidRunInputError, parseRunInput } from '../src/client/run-input.ts';
import { McpConfigError, parseMcpConfig } from '../src/mcp/config.ts';
import { WorkspaceEscapeError, resolveInWorkspace } from '../src/tools/workspace.ts';
import { WorkspaceRefusedError, checkWorkspace } from '../src/tools/workspace-roots.ts';
import { type AgentError } from '../src/wire/agent-error.ts';
import { startHarness, type Harness } from './helpers/harness.ts';
import { startHttp, TEST_TOKENS, type TestHttp } from './helpers/http-app.ts';
import type { OpenApiDocument } from './helpers/openapi-responses.ts';

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Date.now() % 2 ** 31;
const SCALE = process.env.FUZZ_SCALE ? Number(process.env.FUZZ_SCALE) : process.env.CI ? 0.5 : 1;
const runs = (n: number) => Math.max(10, Math.round(n * SCALE));
/** fast-check's settings for one target: the run's seed, this many inputs, no shrinking past a minute. */
const settings = (numRuns: number) => ({ seed: SEED, numRuns: runs(numRuns), interruptAfterTimeLimit: 120_000, markInterruptAsFailure: true, includeErrorInReport: true });

/** Inputs tried per target, printed at the end. */
const tried = new Map<string, number>();
const statuses = new Map<string, number>();
/** Generated requests Node's client would not send (an invalid character in a path or header): tried, not sent. */
let unsent = 0;
const count = (target: string) => tried.set(target, (tried.get(target) ?? 0) + 1);

const { viewer: VIEWER, approver: APPROVER, operator: OPERATOR, entries: TOKENS } = TEST_TOKENS;
/** A workspace no root allows: a run input that passes every other check is still refused (400), so no run starts. */
const OUTSIDE = '/fuzz-outside-every-root/workspace';

let h: Harness;
let api: TestHttp;
/** The same API with no token configured: loopback only, Host and Origin checked. */
let local: TestHttp;
let document: OpenApiDocument;
let endedRun: string;
let waitingRun: string;
let waitingCall: { callKey: string; argsHash: string };

before(async () => {
  console.error(`fuzz seed ${SEED} (FUZZ_SEED=${SEED} reproduces this run), scale ${SCALE}`);
  h = await startHarness('fuzz');
  api = await startHttp(h, { tokens: TOKENS, codec: new AesGcmPayloadCodec('fuzz-secret') });
  local = await startHttp(h);
  document = (await api.call<OpenApiDocument>('GET', '/openapi.json')).body;
  endedRun = (await h.run({ goal: 'Which log file mentions a timeout?', model: 'scripted:plan' })).runId;
  waitingRun = (await h.agents.startRun({ goal: 'Free some disk space in the workspace.', model: 'scripted:delete-approval', workspace: h.workspace })).runId;
  const state = await h.waitForState(waitingRun, (s) => s.status === 'waiting_approval', 'the approval request');
  const pending = state.pending as { callKey: string; argsHash: string };
  waitingCall = { callKey: pending.callKey, argsHash: pending.argsHash };
});

after(async () => {
  const lines = [...tried].map(([target, n]) => `  ${target.padEnd(44)} ${n}`);
  const total = [...tried.values()].reduce((a, b) => a + b, 0);
  console.error(`fuzz seed ${SEED}: ${total} inputs\n${lines.join('\n')}\nnot sent by Node's HTTP client (invalid characters): ${unsent}\nHTTP statuses: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(' ')}`);
  await h?.agents.cancelRun(waitingRun, 'fuzzing over').catch(() => {});
  await local?.close();
  await api?.close();
  await h?.replayAndClose();
});

// ── Requests: raw, so that anything a client can put on the wire reaches the server ─────────────────────────

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

interface RawRequest {
  method: string;
  /** Path and query string, as sent (already encoded). */
  path: string;
  headers: Record<string, string>;
  body?: string;
}
interface RawResponse {
  status: number;
  contentType: string;
  text: string;
}

/**
 * Sends the request; undefined when Node's client refuses to send it at all (an invalid header, say). An
 * event stream is not read. A kept-alive connection the server had just closed is retried once on a new one
 * (the race every keep-alive client has); a connection the server drops otherwise fails the property.
 */
async function send(base: string, request: RawRequest): Promise<RawResponse | undefined> {
  try {
    return await sendOnce(base, request, agent);
  } catch (error) {
    if (!(error as { reused?: boolean }).reused) throw error;
    return sendOnce(base, request, false);
  }
}

function sendOnce(base: string, request: RawRequest, via: http.Agent | false): Promise<RawResponse | undefined> {
  return new Promise((resolve, reject) => {
    let outgoing: http.ClientRequest;
    try {
      outgoing = http.request(`${base}${request.path}`, { method: request.method, headers: request.headers, agent: via }, (response) => {
        const contentType = response.headers['content-type'] ?? '';
        if (contentType.startsWith('text/event-stream')) {
          response.destroy();
          return resolve({ status: response.statusCode!, contentType, text: '' });
        }
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, contentType, text }));
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code?.startsWith('ERR_INVALID') || (error as Error).name === 'TypeError') {
        unsent++;
        return resolve(undefined);
      }
      return reject(error instanceof Error ? error : new Error(String(error)));
    }
    outgoing.on('error', (error) => reject(Object.assign(error, { reused: outgoing.reusedSocket })));
    outgoing.end(request.body);
  });
}

const ERROR_KINDS = new Set(['invalid_request', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'unavailable', 'internal']);

/** The property every response must have: not a 5xx, and a refusal is a JSON body naming what is wrong. */
function checkResponse(request: RawRequest, response: RawResponse): void {
  statuses.set(String(response.status), (statuses.get(String(response.status)) ?? 0) + 1);
  const shown = `${request.method} ${request.path} ${JSON.stringify(request.headers)} ${request.body?.slice(0, 300) ?? ''}\n→ ${response.status} ${response.text.slice(0, 500)}`;
  assert.ok(response.status < 500, `a ${response.status}: ${shown}`);
  if (response.status < 400) return;
  assert.match(response.contentType, /^application\/json/, `a refusal that is not JSON: ${shown}`);
  const body = JSON.parse(response.text) as { error?: unknown; message?: unknown; field?: unknown };
  assert.ok(typeof body.error === 'string' && ERROR_KINDS.has(body.error), `no error kind: ${shown}`);
  assert.ok(typeof body.message === 'string' && body.message.length > 0, `no message: ${shown}`);
  if (response.status === 400) assert.ok(typeof body.field === 'string' && body.field.length > 0, `a 400 that names no field: ${shown}`);
}

// ── Generators ───────────────────────────────────────────────────────────────────────────────────────────

/** Printable ASCII: what a header value may hold (Node refuses to send control characters). */
const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 });
const anyText = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 20 }), fc.constantFrom('', ' ', '..', '%', '%00', '\u0000', '💥', 'a'.repeat(1001), '../../etc/passwd', '__proto__', 'constructor'));

/** Ways to spell a string in a URL: encoded, every byte percent-encoded (upper or lower hex), broken escapes, raw. */
const urlSpelling = (text: string) =>
  fc.constantFrom<(s: string) => string>(
    encodeURIComponent,
    (s) => [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join(''),
    (s) => [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
    (s) => encodeURIComponent(s).replaceAll('%20', '+'),
    (s) => `${encodeURIComponent(s)}%`,
    (s) => `${encodeURIComponent(s)}%zz`,
    (s) => `%E0%A4%A${encodeURIComponent(s)}`,
    (s) => encodeURI(s).replaceAll('?', '%3F').replaceAll('#', '%23'),
  ).map((spell) => spell(text));

const tokenHeader = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(VIEWER, APPROVER, OPERATOR).map((t) => `Bearer ${t}`) },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constantFrom(`bearer ${OPERATOR}`, `Bearer  ${OPERATOR}`, `Bearer ${OPERATOR} ${VIEWER}`, `Basic ${OPERATOR}`, 'Bearer', 'Bearer ', `${OPERATOR}`, `Bearer ${OPERATOR.slice(0, -1)}`) },
  { weight: 1, arbitrary: headerText.map((t) => `Bearer ${t}`) },
  { weight: 1, arbitrary: headerText },
);

/** A JSON value, some of them deep or large. */
const jsonValue = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 3000 }).map((depth) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, true, 0, -1, 1e308, '', 'x'.repeat(100_000), [], {}, { __proto__: { polluted: true } }, { constructor: { prototype: {} } }) },
);

/** A copy of `valid` with one thing wrong, or a few: a field removed, given another value, an unknown field added. */
function mutated(valid: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(valid);
  type Change = (body: Record<string, unknown>) => void;
  const added: fc.Arbitrary<Change> = fc.tuple(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'extra')), jsonValue).map(([key, value]) => (body) => void (body[key] = value));
  const one = keys.length
    ? fc.oneof(
        fc.constantFrom(...keys).map((key): Change => (body) => void delete body[key]),
        fc.tuple(fc.constantFrom(...keys), jsonValue).map(([key, value]): Change => (body) => void (body[key] = value)),
        added,
      )
    : added;
  return fc.array(one, { minLength: 1, maxLength: 3 }).map((changes) => {
    const body = structuredClone(valid);
    for (const change of changes) change(body);
    return body;
  });
}

/** A body as sent: JSON of a value, of a broken copy of a valid body, or text that is not JSON at all. */
function bodyText(valid: Record<string, unknown> | undefined): fc.Arbitrary<string | undefined> {
  const options: fc.Arbitrary<string | undefined>[] = [
    jsonValue.map((v) => JSON.stringify(v)),
    fc.constantFrom(undefined, '', '{', '{"a":', 'null', '[]', '"\\ud800"', '{"a":1,"a":2}', '\u0000', 'x'.repeat(1024 * 1024 + 1)),
    fc.string({ maxLength: 60 }),
  ];
  if (valid) options.push(mutated(valid).map((v) => JSON.stringify(v)), mutated(valid).map((v) => JSON.stringify(v)));
  return fc.oneof(...options);
}

// ── The operations, from /openapi.json ───────────────────────────────────────────────────────────────────

interface Parameter {
  name: string;
  in: string;
}
interface Operation {
  method: string;
  template: string;
  parameters: Parameter[];
  hasBody: boolean;
}

function operations(): Operation[] {
  return Object.entries(document.paths).flatMap(([template, methods]) =>
    Object.entries(methods)
      .filter(([method]) => ['get', 'post', 'put', 'delete', 'patch'].includes(method))
      .map(([method, op]) => ({ method: method.toUpperCase(), template, parameters: (op.parameters ?? []), hasBody: op.requestBody !== undefined })),
  );
}

/** A valid body per operation, for the broken copies (none: arbitrary bodies only). */
function validBody(op: Operation): Record<string, unknown> | undefined {
  const key = `${op.method} ${op.template}`;
  switch (key) {
    case 'POST /runs':
      return { goal: 'Which log file mentions a timeout?', model: 'scripted:plan', workspace: OUTSIDE, limits: { maxTurns: 3 }, policy: { mediumQuota: 1 } };
    case 'POST /runs/{id}/approvals/{callKey}':
      return { decision: 'approve', argsHash: 'f'.repeat(64), reason: 'fine' };
    case 'POST /runs/{id}/answer':
      return { text: 'yes', callKey: 't1.1' };
    case 'POST /runs/{id}/cancel':
      return { reason: 'fuzz' };
    case 'POST /schedules':
      return { id: 'fuzz-schedule', run: { goal: 'Which log file mentions a timeout?', model: 'scripted:plan', workspace: OUTSIDE }, every: '1h', paused: true };
    case 'POST /codec/encode':
    case 'POST /codec/decode':
      return { payloads: [{ metadata: { encoding: 'anNvbi9wbGFpbg==' }, data: 'e30=' }] };
    default:
      return op.hasBody ? {} : undefined;
  }
}

/** Runs whose state must not change under the fuzz: only reads and refused decisions may reach the waiting run. */
function runIds(op: Operation): fc.Arbitrary<string> {
  const mayTouchWaiting = op.method === 'GET' || op.template.includes('/approvals/') || op.template.endsWith('/answer');
  return fc.oneof(fc.constantFrom(endedRun, ...(mayTouchWaiting ? [waitingRun] : []), 'run-nobody', 'fuzz-schedule'), anyText);
}

/**
 * Keeps a generated body from starting anything: a run input (of a run or a schedule) without a workspace
 * gets one outside every root, and a schedule is paused. What is still valid then is refused with a 400.
 */
function defused(op: Operation, text: string | undefined): string | undefined {
  if (text === undefined || !(op.template === '/runs' || op.template === '/schedules') || op.method !== 'POST') return text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return text;
  const body = value as Record<string, unknown>;
  const input = op.template === '/runs' ? body : body.run;
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) (input as Record<string, unknown>).workspace = OUTSIDE;
  if (op.template === '/schedules') body.paused = true;
  return JSON.stringify(body);
}

function requestFor(op: Operation): fc.Arbitrary<RawRequest> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryNames = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
  const names = fc.oneof(fc.constantFrom(...queryNames, 'access_token', 'ticket', 'after', 'limit', 'status'), fc.string({ maxLength: 10 }), fc.constantFrom('access%5Ftoken', 'a[b]', '__proto__', 'limit[]'));
  const values = fc.oneof(anyText, fc.constantFrom(VIEWER, '1', '0', '-1', '1e3', '500', '501', 'NaN', 'true', 'running,completed', 'running,,nope', 'read_file'), fc.integer().map(String));
  const pair = fc.tuple(names, values).chain(([name, value]) => fc.tuple(fc.oneof(fc.constant(name), urlSpelling(name)), urlSpelling(value)));
  // Repeated names: the same pair twice, or the name again with another value.
  const query = fc
    .array(pair, { maxLength: 5 })
    .chain((pairs) => fc.tuple(fc.constant(pairs), fc.boolean()))
    .map(([pairs, repeat]) => (repeat && pairs.length ? [...pairs, pairs[0]!, [pairs[0]![0], 'again'] as [string, string]] : pairs))
    .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));
  const params = fc.tuple(...pathParams.map((p) => (p.name === 'id' ? runIds(op) : p.name === 'callKey' ? fc.oneof(fc.constantFrom(waitingCall.callKey, 't1.1', 't9.9'), anyText) : anyText).chain((v) => urlSpelling(v))));
  const extraHeaders = fc.record(
    {
      'content-type': fc.oneof(fc.constant('application/json'), fc.constantFrom('text/plain', 'application/json; charset=latin1', 'application/x-www-form-urlencoded', 'multipart/form-data', ''), headerText),
      'last-event-id': fc.oneof(fc.constantFrom('0', '1', '3', '999999999999999', '1e3', '-1', ' 2 ', ''), headerText),
      accept: fc.constantFrom('text/event-stream', 'application/json', '*/*'),
      origin: fc.constantFrom('http://evil.example', 'null', 'http://127.0.0.1:8233'),
      'x-forwarded-for': headerText,
    },
    { requiredKeys: [] },
  );
  return fc.record({ params, query, token: tokenHeader, headers: extraHeaders, body: bodyText(validBody(op)) }).map(({ params, query, token, headers, body }) => {
    let p = op.template;
    pathParams.forEach((param, i) => (p = p.replace(`{${param.name}}`, params[i]!)));
    const text = defused(op, body);
    const all: Record<string, string> = { ...headers };
    if (token !== undefined) all.authorization = token;
    if (text !== undefined) all['content-type'] ??= 'application/json';
    return { method: op.method, path: p + query, headers: all, ...(text !== undefined ? { body: text } : {}) };
  });
}

// ── The HTTP API ─────────────────────────────────────────────────────────────────────────────────────────

describe('the HTTP API, every operation of /openapi.json', () => {
  test('every operation under generated params, queries, headers, tokens and bodies: never a 5xx, every refusal names what is wrong', async () => {
    const ops = operations();
    assert.ok(ops.length >= 15, `the document lists ${ops.length} operations`);
    for (const op of ops) {
      const target = `HTTP ${op.method} ${op.template}`;
      await fc.assert(
        fc.asyncProperty(requestFor(op), async (request) => {
          count(target);
          const response = await send(api.url, request);
          if (response) checkResponse(request, response);
        }),
        settings(op.template.includes('/approvals/') || op.template.endsWith('/answer') ? 250 : 330),
      );
    }
    assert.equal((await api.call('GET', '/healthz')).status, 200, 'the server still answers');
  });

  test('Last-Event-ID and ?after= on the event stream: a stream or a 400 naming the header', async () => {
    const lastEventId = fc.oneof(fc.nat().map(String), fc.constantFrom('', ' ', '-0', '1.5', '0x10', '9'.repeat(16), '9'.repeat(15), '1,2', '١٢'), headerText);
    await fc.assert(
      fc.asyncProperty(lastEventId, fc.option(fc.oneof(fc.nat().map(String), anyText)), async (id, after) => {
        count('HTTP Last-Event-ID / after');
        const request: RawRequest = {
          method: 'GET',
          path: `/runs/${encodeURIComponent(endedRun)}/events${after === null ? '' : `?after=${encodeURIComponent(after)}`}`,
          headers: { authorization: `Bearer ${VIEWER}`, 'last-event-id': id },
        };
        const response = await send(api.url, request);
        if (response) checkResponse(request, response);
      }),
      settings(600),
    );
  });

  test('with no token configured: generated Host, Origin and Content-Type headers are refused with a 4xx that names the header', async () => {
    const ops = operations().filter((op) => op.method !== 'GET' || op.template === '/runs/{id}');
    const op = fc.constantFrom(...ops).chain((o) =>
      fc.tuple(
        requestFor(o),
        fc.oneof(fc.constantFrom('127.0.0.1', 'localhost', '[::1]', 'evil.example', '127.0.0.1:1', '', '[', ':80'), headerText),
        fc.boolean(),
      ),
    );
    await fc.assert(
      fc.asyncProperty(op, async ([request, host, ownPort]) => {
        count('HTTP no-token mode (Host, Origin)');
        const port = new URL(local.url).port;
        const headers: Record<string, string> = { ...request.headers, host: ownPort && !host.includes(':') ? `${host}:${port}` : host };
        delete headers.authorization;
        const response = await send(local.url, { ...request, headers });
        if (response) checkResponse({ ...request, headers }, response);
      }),
      settings(700),
    );
  });
});

// ── Decisions on a run that waits: refused (409/400/404), the run untouched ──────────────────────────────

describe('approval and answer payloads', () => {
  test('generated decisions on a waiting run are refused without touching it', async () => {
    const decision = fc.oneof(
      mutated({ decision: 'approve', argsHash: waitingCall.argsHash }).filter((b) => !(b.decision === 'approve' && b.argsHash === waitingCall.argsHash)),
      fc.record({ decision: fc.constantFrom('approve', 'reject', 'APPROVE', ''), argsHash: fc.oneof(fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 }), anyText) }, { requiredKeys: ['decision'] }).filter((b) => b.decision !== 'reject' && b.argsHash !== waitingCall.argsHash),
    );
    const answer = fc.oneof(mutated({ text: 'yes', callKey: waitingCall.callKey }), fc.record({ text: anyText, callKey: anyText }, { requiredKeys: [] }));
    await fc.assert(
      fc.asyncProperty(fc.oneof(decision.map((b) => ['approvals', b] as const), answer.map((b) => ['answer', b] as const)), fc.constantFrom(waitingCall.callKey, 't1.1'), async ([kind, body], callKey) => {
        count(`decision payloads (${kind})`);
        const request: RawRequest = {
          method: 'POST',
          path: kind === 'approvals' ? `/runs/${waitingRun}/approvals/${encodeURIComponent(callKey)}` : `/runs/${waitingRun}/answer`,
          headers: { authorization: `Bearer ${APPROVER}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        };
        const response = await send(api.url, request);
        assert.ok(response);
        checkResponse(request, response);
        assert.ok(response.status >= 400, `a generated decision was taken: ${request.body} → ${response.text}`);
      }),
      settings(500),
    );
    const state = await h.agents.getState(waitingRun);
    assert.equal(state.status, 'waiting_approval', 'the run still waits');
    assert.equal(state.pending?.callKey, waitingCall.callKey);
  });
});

// ── In-process doors: the run input, the MCP configuration, workspace paths ───────────────────────────────

/** Accepted, or refused with the target's typed error with a message: never a TypeError, RangeError or the like. */
function refusedAs<T>(target: string, fn: () => T, ...types: (abstract new (...args: never[]) => AgentError)[]): T | undefined {
  count(target);
  try {
    return fn();
  } catch (error) {
    assert.ok(types.some((type) => error instanceof type), `${target}: not a typed refusal: ${(error as Error)?.stack ?? String(error)}`);
    assert.ok((error as Error).message.length > 10, `${target}: a refusal without a message`);
    return undefined;
  }
}

describe('the run input (AgentClient.startRun validates it before anything starts)', () => {
  const valid = { goal: 'Which log file mentions a timeout?', model: 'scripted:plan', workspace: '/tmp/w', limits: { maxTurns: 3, maxBudgetUsd: 0.1 }, policy: { mediumQuota: 1, allowExtreme: ['run_command'] }, tools: ['read_file'], outputSchema: { type: 'object' }, research: { maxTurns: 2 } };
  test('generated run inputs are accepted or refused with InvalidRunInputError', () => {
    const outputSchemas = fc.oneof(jsonValue, fc.constantFrom<unknown>({ $ref: '#' }, { type: 'object', properties: { a: { $ref: '#' } } }, { anyOf: [] }, { type: 'nope' }, { enum: [] }, { $defs: { a: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' }, { pattern: '(' }, { type: 'string', format: 'nope' }));
    const input = fc.oneof(mutated(valid), jsonValue, outputSchemas.map((outputSchema) => ({ ...valid, outputSchema })), fc.dictionary(fc.constantFrom(...Object.keys(valid), 'replay', 'agent', 'system', 'summaryPrompt', 'fallbackModels'), jsonValue));
    fc.assert(
      fc.property(input, (value) => {
        refusedAs('run input (parseRunInput)', () => parseRunInput(value), InvalidRunInputError);
      }),
      settings(2500),
    );
  });
});

describe('the MCP configuration (AGENT_MCP_CONFIG)', () => {
  test('generated configurations are read or refused with McpConfigError', () => {
    const server = { command: 'node', args: ['server.js'], env: { A: '${HOME}' }, risk: 'low', tools: { lookup: { readOnly: true, maxOutputChars: 100 } } };
    const config = fc.oneof(
      mutated({ servers: { docs: server } }),
      fc.record({ servers: fc.dictionary(anyText, fc.oneof(mutated(server), mutated({ url: 'http://127.0.0.1:1/mcp', headers: { authorization: 'Bearer ${FUZZ_UNSET_VARIABLE}' } }), jsonValue), { maxKeys: 3 }) }),
      jsonValue,
    );
    fc.assert(
      fc.property(config, anyText, (value, base) => {
        refusedAs('MCP configuration (parseMcpConfig)', () => parseMcpConfig(value, path.resolve('/', base)), McpConfigError);
      }),
      settings(1500),
    );
  });
});

describe('workspace paths (the tool runner’s resolution, the client’s roots)', () => {
  let workspace: string;
  before(() => {
    const root = mkdtempSync(path.join(tmpdir(), 'fuzz-workspace-'));
    workspace = path.join(root, 'ws');
    mkdirSync(path.join(workspace, 'logs'), { recursive: true });
    writeFileSync(path.join(workspace, 'logs', 'app.log'), 'ok');
    writeFileSync(path.join(root, 'secret.txt'), 'outside');
    symlinkSync(path.join(root, 'secret.txt'), path.join(workspace, 'link-out'));
    symlinkSync(root, path.join(workspace, 'dir-out'));
    symlinkSync(path.join(workspace, 'logs'), path.join(workspace, 'link-in'));
  });

  test('a path the model asks for resolves inside the workspace or is refused with WorkspaceEscapeError', async () => {
    const segment = fc.oneof(fc.constantFrom('logs', 'app.log', 'link-out', 'dir-out', 'link-in', '..', '.', '', '...', 'secret.txt', '\u0000', '%2e%2e', '..\\..', '~', 'a'.repeat(300)), anyText);
    const requested = fc.oneof(fc.array(segment, { maxLength: 6 }).chain((parts) => fc.constantFrom('/', '\\', '//').map((sep) => parts.join(sep))), anyText, fc.constantFrom('/etc/passwd', 'C:\\x', '\\\\server\\share'));
    await fc.assert(
      fc.asyncProperty(requested, async (p) => {
        count('workspace path (resolveInWorkspace)');
        try {
          const real = await resolveInWorkspace(workspace, p);
          assert.ok(real === workspace || real.startsWith(workspace + path.sep), `${JSON.stringify(p)} resolved outside the workspace: ${real}`);
        } catch (error) {
          assert.ok(error instanceof WorkspaceEscapeError, `${JSON.stringify(p)}: not a typed refusal: ${(error as Error)?.stack ?? String(error)}`);
        }
      }),
      settings(1500),
    );
  });

  test('a run’s workspace is inside a root or refused with WorkspaceRefusedError', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, fc.array(fc.constantFrom('ws', '..', 'dir-out', 'logs', '.', ''), { maxLength: 4 }).map((parts) => path.join(workspace, ...parts))), (p) => {
        refusedAs('run workspace (checkWorkspace)', () => checkWorkspace(p, [workspace]), WorkspaceRefusedError);
      }),
      settings(500),
    );
  });
});

// ── What the fuzzer found, kept as examples ──────────────────────────────────────────────────────────────

describe('inputs the fuzzer found (each was a crash or a body that named nothing)', () => {
  test('a GET with a body but no length (not HTTP/1.1) is a 400 in the API’s own error body, not Fastify’s "Client Error"', async () => {
    const request: RawRequest = { method: 'GET', path: '/runs', headers: { authorization: `Bearer ${OPERATOR}`, 'content-type': 'application/json' }, body: '[]' };
    const response = await sendOnce(api.url, request, false);
    assert.ok(response);
    assert.equal(response.status, 400, response.text);
    const body = JSON.parse(response.text) as { error: string; message: string; field: string };
    assert.equal(body.error, 'invalid_request');
    assert.equal(body.field, 'request');
    assert.match(body.message, /^The request is not valid HTTP\/1\.1 \(HPE_\w+: .*\)\. A body needs a Content-Length or chunked Transfer-Encoding\.$/);
    assert.equal((await api.call('GET', '/healthz')).status, 200, 'the server goes on');
  });

  test('workspace paths with a NUL byte, a name too long for the file system, or a file used as a directory', async () => {
    const workspace = mkdtempSync(path.join(tmpdir(), 'fuzz-examples-'));
    writeFileSync(path.join(workspace, 'app.log'), 'ok');
    await assert.rejects(resolveInWorkspace(workspace, '\u0000'), (e: Error) => e instanceof WorkspaceEscapeError && /NUL character/.test(e.message)); // was ERR_INVALID_ARG_VALUE
    await assert.rejects(resolveInWorkspace(workspace, 'a'.repeat(1001)), (e: Error) => e instanceof WorkspaceEscapeError && /longer than the file system allows/.test(e.message)); // was ENAMETOOLONG
    assert.equal(await resolveInWorkspace(workspace, 'app.log/x'), path.join(await realpath(workspace), 'app.log', 'x'), 'a file on the way is a path to nothing, as a missing one'); // was ENOTDIR
  });
});
