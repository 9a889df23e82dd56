/** Token configuration and roles for the HTTP server (pure: no server needed). */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Authenticator, authConfigFromEnv, parseTokenList, TokenConfigError } from '../src/http/auth.ts';
import { HttpError } from '../src/http/errors.ts';
import { EventTickets } from '../src/http/event-tickets.ts';
import { queryCredential, redactedUrl } from '../src/http/query-credentials.ts';
import { serveHttp, UnsafeListenError } from '../src/http/serve.ts';
import type { AgentClient } from '../src/client/client.ts';
import type { AgentStore } from '../src/store/store.ts';

describe('tokens', () => {
  test('name:token:roles and token:roles; every token can view; roles are explicit, not ranked', () => {
    const entries = parseTokenList('alice:s3cret:approver, ci:t0ken:operator+approver,bare-token:viewer');
    assert.deepEqual(entries.slice(0, 2), [
      { name: 'alice', token: 's3cret', roles: ['approver'] },
      { name: 'ci', token: 't0ken', roles: ['operator', 'approver'] },
    ]);
    assert.match(entries[2]!.name, /^token-[0-9a-f]{8}$/, 'a nameless token is named by its hash, never by itself');
    const auth = new Authenticator({ tokens: entries });
    assert.deepEqual([...auth.identify('s3cret')!.roles].sort(), ['approver', 'viewer']);
    assert.equal(auth.identify('s3cret')!.roles.has('operator'), false);
    assert.equal(auth.identify('wrong'), null);
    assert.equal(auth.identify(undefined), null);
    assert.equal(auth.open, false);
  });

  test('bad configuration is refused with a message that says what is wrong (and never echoes the token)', () => {
    assert.throws(() => parseTokenList('alice:s3cret:admin'), (e: Error) => e instanceof TokenConfigError && /unknown role "admin"/.test(e.message));
    assert.throws(() => parseTokenList('just-a-token'), (e: Error) => /not name:token:roles/.test(e.message) && !e.message.includes('just-a-token:'));
    assert.throws(() => authConfigFromEnv({ AGENT_HTTP_TOKENS: 'a:x:viewer,a:y:approver' }), /Two tokens are named "a"/);
  });

  test('a JSON token file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tokens-'));
    try {
      const file = path.join(dir, 'tokens.json');
      writeFileSync(file, JSON.stringify([{ name: 'bob', token: 'b0b-secret', roles: ['approver'] }]));
      const auth = new Authenticator(authConfigFromEnv({ AGENT_HTTP_TOKENS_FILE: file }));
      assert.equal(auth.identify('b0b-secret')?.name, 'bob');
      writeFileSync(file, JSON.stringify([{ name: 'bob', token: 'x', roles: ['root'] }]));
      assert.throws(() => authConfigFromEnv({ AGENT_HTTP_TOKENS_FILE: file }), /AGENT_HTTP_TOKENS_FILE/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('no token configured: everyone local has every role, and the server refuses a non-loopback address', async () => {
    const auth = new Authenticator(authConfigFromEnv({}));
    assert.equal(auth.open, true);
    assert.equal(auth.identify(undefined)?.roles.size, 3);
    await assert.rejects(
      serveHttp({ agents: {} as AgentClient, store: {} as AgentStore, host: '0.0.0.0', port: 0, env: {}, log: () => {} }),
      (e: Error) => e instanceof UnsafeListenError && /AGENT_HTTP_TOKENS/.test(e.message),
    );
    const server = await serveHttp({ agents: {} as AgentClient, store: {} as AgentStore, port: 0, env: {}, log: () => {} });
    try {
      assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await server.close();
    }
  });
});

describe('credentials in the query string', () => {
  const refused = (url: string, pattern: RegExp) => assert.throws(() => queryCredential(url), (e: Error) => e instanceof HttpError && e.status === 400 && pattern.test(e.message));

  test('read from the raw query: the exact name, once, its value decoded', () => {
    assert.deepEqual(queryCredential('/runs/r/events?after=3&access_token=a%2Bb+c'), { param: 'access_token', value: 'a+b c' });
    assert.deepEqual(queryCredential('/runs/r/events?ticket=t-1'), { param: 'ticket', value: 't-1' });
    assert.equal(queryCredential('/runs/r/events?after=3'), null);
    assert.equal(queryCredential('/runs/r/events'), null);
    assert.equal(queryCredential('/runs/r/events?ACCESS_TOKEN=x&access_token[]=y'), null, 'other names are not read');
    refused('/x?access_token=a&access_token=b', /access_token more than once/);
    refused('/x?access%5Ftoken=a', /as it is spelled/);
    refused('/x?access_token=%E0%A4%A', /not valid percent-encoding/);
    refused('/x?ticket=a&access_token=b', /send one/);
  });

  test('the log shows every token- or ticket-like value as …, however spelled', () => {
    assert.equal(redactedUrl('/runs/r/events?access_token=a&after=2&access_token=b'), '/runs/r/events?access_token=…&after=2&access_token=…');
    assert.equal(redactedUrl('/x?access%5Ftoken=a&%74icket=b&my_Token[]=c&flag'), '/x?access%5Ftoken=…&%74icket=…&my_Token[]=…&flag');
    assert.equal(redactedUrl('/x?%E0%A4%A=secret'), '/x?…', 'a name that does not decode hides the whole query');
    assert.equal(redactedUrl('/runs?status=completed'), '/runs?status=completed');
  });
});

describe('event stream tickets', () => {
  test('a ticket opens one run for a minute, as a viewer only', () => {
    let now = 1_000_000;
    const tickets = new EventTickets({ now: () => now });
    const alice = { name: 'alice', roles: new Set(['viewer', 'approver', 'operator'] as const) };
    const { ticket, expiresAt } = tickets.mint('run-1', alice);
    assert.equal(Date.parse(expiresAt), now + 60_000);
    const holder = tickets.redeem(ticket, 'run-1');
    assert.equal(holder.name, 'alice');
    assert.deepEqual([...holder.roles], ['viewer'], 'a ticket never carries its minter’s other roles');
    assert.equal(tickets.redeem(ticket, 'run-1').name, 'alice', 'usable again within its minute (EventSource reconnects)');
    assert.throws(() => tickets.redeem(ticket, 'run-2'), (e: Error) => e instanceof HttpError && e.status === 403);
    assert.throws(() => tickets.redeem('forged', 'run-1'), (e: Error) => e instanceof HttpError && e.status === 401);
    now += 60_000;
    assert.throws(() => tickets.redeem(ticket, 'run-1'), (e: Error) => e instanceof HttpError && e.status === 401 && /expired/.test(e.message));
  });
});
