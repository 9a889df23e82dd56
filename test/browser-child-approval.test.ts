/**
 * An approval inside a child run, from the parent's run page in Chromium: an agent called as a tool waits
 * for its own approval; the parent's page shows that card (naming the child's run), and approving it there
 * resumes the parent's call to completion.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import type { TokenEntry } from '../src/http/auth.ts';
import { builtinTools } from '../src/tools/registry.ts';
import { agentChildRunId } from '../src/wire/run-ids.ts';
import { startHarness, type Harness } from './helpers/harness.ts';
import { startHttp, type TestHttp } from './helpers/http-app.ts';
import { refundsIn } from './helpers/order-tools.ts';
import { TEAM } from './helpers/team-agents.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const APPROVER = 'child-approver-token-1';
const TOKENS: TokenEntry[] = [{ name: 'alice', token: APPROVER, roles: ['approver', 'operator'] }];
const missing = existsSync(CHROMIUM) ? null : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`;
if (missing && process.env.CI) throw new Error(`browser tests need Chromium in CI: ${missing}`);

let h: Harness;
let api: TestHttp;
let browser: Browser;

before(async () => {
  if (missing) return;
  h = await startHarness('browser-child', { tools: (ledger) => builtinTools(ledger), agents: TEAM, modelProxy: true });
  api = await startHttp(h, { tokens: TOKENS });
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
});
after(async () => {
  await browser?.close();
  await api?.close();
  await h?.close();
});

describe("a child's approval on its parent's run page", { skip: missing ?? false }, () => {
  test("the parent's page shows the child's pending call and approving it there completes the parent", async () => {
    const refunds = refundsIn(h.workspace).length;
    const { runId } = await h.agents.startRun({ agent: 'triage', goal: 'A customer wants order A1 refunded.', workspace: h.workspace });
    const childRunId = agentChildRunId(runId, 't1.1');
    const page = await browser.newPage();
    await page.addInitScript((token) => localStorage.setItem('agent-harness-token', token), APPROVER);
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    // Opened before the child waits: the card must come without a reload.
    await page.goto(`${api.url}/ui/runs/${runId}`);
    const card = page.locator(`#pending .card.pending[data-run-id="${childRunId}"]`);
    await card.waitFor({ timeout: 60_000 });
    const text = (await card.textContent()) ?? '';
    assert.match(text, /refund_order/);
    assert.match(text, new RegExp(`for ${runId}`), 'the card names the parent it holds');
    assert.equal(refundsIn(h.workspace).length, refunds, 'nothing refunded before the approval');
    await card.locator('button.approve').click();
    await card.locator('.outcome.ok').waitFor();
    await page.locator('#status [data-status="completed"]').waitFor({ timeout: 60_000 });
    assert.match((await page.locator('#answer').textContent()) ?? '', /Support says: Refunded 30 on order A1\./);
    assert.equal(refundsIn(h.workspace).length, refunds + 1, 'one refund, after the approval');
    await page.close();
  });
});
