/**
 * The approvals inbox and the run page in a real browser: headless Chromium (Debian's `chromium`)
 * driven by playwright-core, against the real Temporal server. Screenshots go to .data/test-artifacts/.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { PROJECT_ROOT } from '../src/paths.ts';
import type { TokenEntry } from '../src/http/auth.ts';
import { startHarness, type Harness } from './helpers/harness.ts';
import { startHttp, type TestHttp } from './helpers/http-app.ts';
import { RefusedLastTasks } from './helpers/refused-task.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = path.join(PROJECT_ROOT, '.data', 'test-artifacts');
const APPROVER = 'approver-operator-token-1';
const TOKENS: TokenEntry[] = [{ name: 'alice', token: APPROVER, roles: ['approver', 'operator'] }];

// No browser: CI must have one (.ci/run installs Debian's chromium); elsewhere the tests say why they skip.
const missing = existsSync(CHROMIUM) ? null : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
if (missing && process.env.CI) throw new Error(`browser tests need Chromium in CI: ${missing}`);

let h: Harness;
let api: TestHttp;
const refused = new RefusedLastTasks(() => h.temporal);
let browser: BrowserContext;
let profile: string;

before(async () => {
  if (missing) return;
  h = await startHarness('browser', { workerStore: refused.workerStore });
  api = await startHttp(h, { tokens: TOKENS });
  profile = mkdtempSync(path.join(tmpdir(), 'agent-chromium-'));
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1200, height: 900 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
});
after(async () => {
  await browser?.close();
  await api?.close();
  await h?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

async function startRun(model: string, goal: string): Promise<string> {
  const res = await api.call<{ runId: string }>('POST', '/runs', { token: APPROVER, body: { goal, model, workspace: h.workspace } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.runId;
}

/** A page already signed in (the token in localStorage, as the sign-in form leaves it). */
async function signedInPage(): Promise<Page> {
  const page = await browser.newPage();
  await page.addInitScript((token) => localStorage.setItem('agent-harness-token', token), APPROVER);
  page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  return page;
}

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, name), fullPage: true });
const statusOf = (page: Page) => page.locator('#status .badge').getAttribute('data-status');

describe('inbox and run page in Chromium', { skip: missing ?? false }, () => {
  test('sign in, see the pending call in the inbox, approve it; the open run page streams to completed', async () => {
    const runId = await startRun('scripted:delete-approval', 'Free some disk space in the workspace.');
    const pending = await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval request');
    assert.ok(pending.pending?.kind === 'approval');

    // Signing in: the inbox asks for a token and keeps it (localStorage) for every page.
    const inbox = await browser.newPage();
    await inbox.goto(`${api.url}/ui`);
    await inbox.evaluate('localStorage.clear()');
    await inbox.reload();
    await inbox.locator('.token-form input').fill(APPROVER);
    await inbox.locator('.token-form button').click();
    await inbox.locator('#identity .who').waitFor();
    assert.match((await inbox.locator('#identity').textContent()) ?? '', /alice/);

    // The run page, open while the run waits: it will stream the rest live.
    const runPage = await signedInPage();
    const urls: string[] = [];
    runPage.on('request', (request) => urls.push(request.url()));
    await runPage.goto(`${api.url}/ui/runs/${runId}`);
    await runPage.locator('#stream [data-type="approval_required"]').waitFor();
    assert.equal(await statusOf(runPage), 'waiting_approval');
    await shot(runPage, 'run-waiting.png');

    const card = inbox.locator(`.card.pending[data-run-id="${runId}"]`);
    await card.waitFor();
    const text = (await card.textContent()) ?? '';
    assert.match(text, /delete_file/);
    assert.match(text, /high risk/);
    assert.match(text, /Free some disk space/);
    assert.match(text, new RegExp(pending.pending.argsHash), 'the exact argsHash is shown');
    assert.deepEqual(JSON.parse((await card.locator('pre.args').textContent()) ?? ''), { path: 'access.log' }, 'the exact (redacted) arguments');
    await shot(inbox, 'inbox.png');

    // The decision's response comes back late, after the inbox refreshed (every 2 s) and saw the run no
    // longer pending: the card must stay, with its outcome, instead of vanishing unconfirmed.
    await inbox.route('**/approvals/**', async (route) => {
      const response = await route.fetch();
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await route.fulfill({ response });
    });
    await card.locator('button.approve').click();
    await card.locator('.outcome.ok').waitFor();
    await runPage.locator('#status [data-status="completed"]').waitFor();
    await runPage.locator('#stream [data-type="run_stopped"]').waitFor();
    const stream = (await runPage.locator('#stream').textContent()) ?? '';
    assert.match(stream, /approved.*by alice/, 'the decision with who made it');
    assert.match(stream, /Deleted access\.log to free space\./, 'the model text, streamed');
    assert.match((await runPage.locator('#answer').textContent()) ?? '', /Deleted access\.log/);
    assert.equal(await runPage.locator('#trace tbody tr').count(), (await h.trace(runId)).length, 'every trace line in the table');
    assert.equal(await runPage.locator('#connection').textContent(), 'ended');
    assert.ok(urls.some((u) => u.includes(`/runs/${runId}/events?ticket=`)), `the stream opened with a ticket: ${urls.join(' ')}`);
    assert.deepEqual(urls.filter((u) => u.includes(APPROVER) || u.includes('access_token')), [], 'the token never in a URL');
    await shot(runPage, 'run-completed.png');
    await inbox.locator(`.card.pending[data-run-id="${runId}"]`).waitFor({ state: 'detached' });
    await runPage.close();
    await inbox.close();
  });

  test('reject with a reason from the inbox: the model is told, the run page shows it', async () => {
    const runId = await startRun('scripted:delete-approval', 'Free some disk space, again.');
    await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval request');
    const inbox = await signedInPage();
    await inbox.goto(`${api.url}/ui`);
    const card = inbox.locator(`.card.pending[data-run-id="${runId}"]`);
    await card.locator('input[name="reason"]').fill('keep the logs for the audit');
    await card.locator('button.reject').click();
    await card.locator('.outcome.ok').waitFor();
    await card.locator('a').click(); // the run id links to its page
    await inbox.waitForURL(`**/ui/runs/${runId}`);
    await inbox.locator('#status [data-status="completed"]').waitFor();
    // The status comes from the state; the stream replays the run's events on its own connection.
    await inbox.locator('#stream[data-connection="ended"]').waitFor();
    assert.match((await inbox.locator('#stream').textContent()) ?? '', /rejected.*by alice: “keep the logs for the audit”/);
    assert.match((await inbox.locator('#answer').textContent()) ?? '', /keep the logs for the audit/);
    await shot(inbox, 'run-rejected.png');
    await inbox.close();
  });

  test('reloading the run page mid-run loses no event', async () => {
    const runId = await startRun('scripted:slow-scan', 'Scan the workspace slowly.');
    const page = await signedInPage();
    await page.goto(`${api.url}/ui/runs/${runId}`);
    await page.locator('#stream [data-type="tool_start"] .progress').filter({ hasText: /\w/ }).waitFor();
    await shot(page, 'run-mid-scan.png');
    await page.reload();
    await page.locator('#status [data-status="completed"]').waitFor({ timeout: 30_000 });
    await page.locator('#stream[data-connection="ended"]').waitFor();
    const shown: number[] = [];
    for (const node of await page.locator('#stream [data-event-id]').all()) shown.push(Number(await node.getAttribute('data-event-id')));
    const stored = (await h.store.readEvents(runId)).map((e) => e.id);
    assert.deepEqual(shown.sort((a, b) => a - b), stored, 'every event of the run, once, after the reload');
    assert.ok((await h.store.readEvents(runId)).some((e) => (e.event as { type: string }).type === 'tool_progress'), 'the run reported progress');
    await page.close();
  });

  test("a run whose last workflow task Temporal refused: the trace table shows the replacement's lines, each seq once", async () => {
    const runId = refused.runId('run-refused');
    await h.agents.startRun({ goal: 'Which log file mentions a timeout?', model: 'scripted:plan', workspace: h.workspace }, { runId });
    const page = await signedInPage();
    await page.goto(`${api.url}/ui/runs/${runId}`);
    await page.locator('#stream[data-connection="ended"]').waitFor();
    const trace = await h.trace(runId);
    assert.ok(trace.some((l) => l.type === 'approval_refused'), 'the replacement handled the signal');
    const rows: [number, string | null][] = [];
    for (const row of await page.locator('#trace tbody tr').all()) rows.push([Number(await row.getAttribute('data-seq')), await row.locator('.kind').textContent()]);
    assert.deepEqual(rows, trace.map((l) => [l.seq, l.type]));
    assert.equal(await page.locator('#stream [data-type="run_stopped"]').count(), 1);
    await page.close();
  });

  test('cancel from the run page: the run ends interrupted with the reason given', async () => {
    const runId = await startRun('scripted:delete-approval', 'Free some disk space, then be cancelled.');
    await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval request');
    const page = await signedInPage();
    await page.goto(`${api.url}/ui/runs/${runId}`);
    await page.locator('#cancel input[name="reason"]').fill('changed my mind');
    await page.locator('#cancel button').click();
    await page.locator('#status [data-status="interrupted"]').waitFor();
    assert.match((await page.locator('#answer').textContent()) ?? '', /Cancelled: changed my mind/);
    await page.close();
  });

  test('the run page outlives its ticket: a stream dropped after the ticket expired resumes with a new one, losing nothing', async () => {
    const shortTickets = await startHttp(h, { tokens: TOKENS, ticketTtlMs: 1000 });
    try {
      const runId = await startRun('scripted:delete-approval', 'Free some disk space, across a dropped stream.');
      const pending = await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval request');
      const page = await signedInPage();
      let minted = 0;
      page.on('request', (request) => void (request.url().endsWith(`/runs/${runId}/events/ticket`) && minted++));
      await page.goto(`${shortTickets.url}/ui/runs/${runId}`);
      await page.locator('#stream [data-type="approval_required"]').waitFor();
      await new Promise((resolve) => setTimeout(resolve, 1500)); // the page's ticket has expired
      shortTickets.app.eventStreams.closeAll(); // as a server restart or a network blip would
      assert.ok(pending.pending?.kind === 'approval');
      await h.agents.approve(runId, { callKey: pending.pending.callKey, argsHash: pending.pending.argsHash, by: 'tester' });
      await page.locator('#stream[data-connection="ended"]').waitFor({ timeout: 30_000 });
      const shown: number[] = [];
      for (const node of await page.locator('#stream [data-event-id]').all()) shown.push(Number(await node.getAttribute('data-event-id')));
      assert.deepEqual(shown, (await h.store.readEvents(runId)).map((e) => e.id), 'every event once, in order');
      assert.equal(minted, 2, 'a second ticket, after the browser’s own reconnect was refused with the first');
      await page.close();
    } finally {
      await shortTickets.close();
    }
  });

  test('no token configured: the pages need no sign-in, stream, and cancel (same origin, so not refused as cross-site)', async () => {
    const local = await startHttp(h);
    try {
      const runId = await startRun('scripted:delete-approval', 'Free some disk space, locally, then be cancelled.');
      await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval request');
      const page = await browser.newPage();
      await page.goto(`${local.url}/ui/runs/${runId}`);
      await page.locator('#stream [data-type="approval_required"]').waitFor();
      assert.match((await page.locator('#identity').textContent()) ?? '', /local/);
      await page.locator('#cancel input[name="reason"]').fill('not now');
      await page.locator('#cancel button').click();
      await page.locator('#status [data-status="interrupted"]').waitFor();
      assert.match((await page.locator('#answer').textContent()) ?? '', /Cancelled: not now/);
      await page.close();
    } finally {
      await local.close();
    }
  });
});
