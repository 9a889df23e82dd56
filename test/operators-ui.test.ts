/**
 * What an operator sees of a run in Temporal itself (the Web UI, `temporal workflow describe`), read
 * through the API: the run's static summary and details, a one-line summary on every activity, timer
 * and research child in its history, its current details while it waits — and no redacted value in any
 * of them, with and without AGENT_PAYLOAD_KEY (which encrypts user metadata like any payload). Then the
 * Web UI's run page itself, in headless Chromium, saved as .data/test-artifacts/web-ui-run.png (timeline)
 * and web-ui-run-metadata.png (the User Metadata tab).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { workflowMetadataQuery } from '@temporalio/workflow';
import type { PayloadCodec } from '@temporalio/common';
import { chromium } from 'playwright-core';
import { agentDataConverter } from '../src/client/payload-codec.ts';
import { PROJECT_ROOT } from '../src/paths.ts';
import { maskSecrets, modelCallSummary, oneLine, runCurrentDetails, toolCallSummary } from '../src/wire/summaries.ts';
import { eventType, historyBytes, type History } from './helpers/histories.ts';
import { scenario, startHarness, type Harness } from './helpers/harness.ts';

const MODEL = scenario('operator-view.ts');
/** A goal with what must not reach a summary: an API key and an address. */
const GOAL = 'Tidy the workspace logs; use key sk-live-abcdef1234567890XYZ and tell ops.lead@example.com when done.';
const SECRETS = [/alice\.secret/, /sk-live-abcdef/, /ops\.lead@/];
const ARTIFACTS = path.join(PROJECT_ROOT, '.data', 'test-artifacts');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Every summary in a history, with the type of the event it is on, decoded (through `codec` when encrypted). */
async function summariesOf(history: History, codec?: PayloadCodec): Promise<{ type: string; summary: string }[]> {
  const found: { type: string; summary: string }[] = [];
  for (const event of history.events ?? []) {
    let payload = event.userMetadata?.summary;
    if (!payload?.data) continue;
    if (codec) [payload] = await codec.decode([{ metadata: payload.metadata ?? {}, data: payload.data }]);
    found.push({ type: eventType(event), summary: JSON.parse(Buffer.from(payload!.data!).toString('utf8')) as string });
  }
  return found;
}

/** Runs the scenario to its end: approves the message (as alice) and the deletion (by no name). */
async function runToTheEnd(h: Harness): Promise<{ runId: string; details: string }> {
  const { runId } = await h.agents.startRun({ goal: GOAL, model: MODEL, workspace: h.workspace, limits: { maxWallMs: 3_600_000 }, policy: { approvalTimeoutMs: 86_400_000 } });
  const waiting = await h.waitForState(runId, (s) => s.pending?.kind === 'approval' && s.pending.toolName === 'send_message', 'the send approval');
  // The current details, as the Web UI and `temporal workflow metadata` ask a live worker for them.
  const { currentDetails } = await h.temporal.workflow.getHandle(runId).query(workflowMetadataQuery);
  await h.agents.approve(runId, { by: 'alice' });
  await h.waitForState(runId, (s) => s.pending?.kind === 'approval' && s.pending.toolName === 'delete_file', 'the delete approval');
  await h.agents.approve(runId);
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'completed', JSON.stringify(result));
  assert.ok(waiting.pending?.kind === 'approval');
  assert.match(currentDetails ?? '', new RegExp(`call ${waiting.pending.callKey} · argsHash ${waiting.pending.argsHash}`));
  return { runId, details: currentDetails ?? '' };
}

describe('summaries, pure', () => {
  test('a tool call shows its key argument, redacted fields masked, long values cut; the approver is named', () => {
    assert.equal(toolCallSummary('read_file', { path: 'errors.log' }, []), 'read_file errors.log');
    assert.equal(toolCallSummary('delete_file', { path: 'access.log' }, [], { by: 'alice' }), 'delete_file access.log (approved by alice)');
    assert.equal(toolCallSummary('send_message', { to: 'a@b.example', text: 'hi' }, ['to']), 'send_message to=[redacted] text=hi');
    const long = toolCallSummary('write_file', { path: 'draft.txt', content: 'x'.repeat(5000) }, []);
    assert.ok(long.length < 200 && long.includes('…'), long);
    assert.equal(modelCallSummary('gpt-4.1-mini', 3), 'model gpt-4.1-mini · turn 3');
  });

  test('secrets and addresses in free text are masked; ordinary words and paths are not', () => {
    assert.equal(maskSecrets('key sk-proj-abcdefghijklmnop1234 for ops@example.com'), 'key [redacted] for [redacted]');
    assert.equal(maskSecrets('password=hunter2 then Bearer abc.def.ghi123'), 'password=[redacted] then Bearer [redacted]');
    assert.equal(maskSecrets('deploy/kubernetes/manifests/production-overrides/errors.log'), 'deploy/kubernetes/manifests/production-overrides/errors.log');
    assert.equal(oneLine('a\n\n b', 10), 'a b');
  });

  test('current details: status, turn, cost against the budget, what waits', () => {
    const details = runCurrentDetails(
      {
        status: 'waiting_input',
        reason: null,
        turns: 2,
        toolRuns: 1,
        totalCostUsd: 0.0123,
        pending: { kind: 'input', callKey: 't2.1', toolCallId: 'x', question: 'Which day? mail me at bob@example.com', requestedAt: '' },
        children: [],
        progress: null,
      } as never,
      { maxTurns: 20, maxBudgetUsd: 1 },
    );
    assert.match(details, /\*\*status\*\* waiting_input/);
    assert.match(details, /\*\*turn\*\* 2 of 20/);
    assert.match(details, /0\.012300 USD of 1 USD/);
    assert.doesNotMatch(details, /\$/, 'no $: the UI would read a formula');
    assert.match(details, /call t2\.1: Which day\? mail me at \[redacted\]/);
  });
});

describe('in the history and describe (no encryption)', () => {
  let h: Harness;
  let run: { runId: string; details: string };
  before(async () => {
    h = await startHarness('operators-ui');
    run = await runToTheEnd(h);
  });
  after(() => h.replayAndClose());

  test("the run's static summary (goal cut and masked, model) and details (limits, policy)", async () => {
    const description = await h.temporal.workflow.getHandle(run.runId).describe();
    const summary = await description.staticSummary();
    const details = await description.staticDetails();
    assert.match(summary ?? '', /^Tidy the workspace logs; use key \[redacted\] and tell \[redacted\] when done\. — model scripted:/);
    assert.match(details ?? '', /- \*\*limits\*\* 20 turns · budget 1 USD · wall time 1 h/);
    assert.match(details ?? '', /approval timeout 1 d/);
  });

  test('every activity, timer and child in the history has a one-line summary; none holds a secret', async () => {
    const history = await h.temporal.workflow.getHandle(run.runId).fetchHistory();
    const summaries = await summariesOf(history);
    const lines = summaries.map((s) => `${s.type}: ${s.summary}`);
    const model = MODEL.slice(0, 40);
    for (const expected of [
      'TimerStarted: wall-time limit (1 h)',
      `ActivityTaskScheduled: model ${model}`,
      'TimerStarted: approval timeout: send_message t2.1 (1 d)',
      'ActivityTaskScheduled: send_message to=[redacted] text=The nightly job timed out. (approved by alice)',
      'ActivityTaskScheduled: delete_file access.log (approved)',
      'StartChildWorkflowExecutionInitiated: research: Which log files are left?',
    ]) {
      assert.ok(lines.some((l) => l.startsWith(expected)), `${expected}\nnot among:\n${lines.join('\n')}`);
    }
    assert.ok(lines.includes(`ActivityTaskScheduled: ${modelCallSummary(MODEL, 5)}`) || lines.some((l) => l.endsWith('· turn 5')), lines.join('\n'));
    // The read is a local activity: its summary rides on its marker.
    assert.ok(lines.some((l) => l === 'MarkerRecorded: read_file errors.log'), lines.join('\n'));
    for (const { summary } of summaries) {
      assert.ok(!summary.includes('\n') && summary.length <= 160, summary);
      for (const secret of SECRETS) assert.doesNotMatch(summary, secret);
    }
    for (const secret of SECRETS) assert.doesNotMatch(run.details, secret);
  });

  test("the research child's own summary and details", async () => {
    const child = (await h.histories()).find((e) => e.parentWorkflowId === run.runId)!;
    const description = await h.temporal.workflow.getHandle(child.workflowId).describe();
    assert.equal(await description.staticSummary(), 'research: Which log files are left?');
    assert.match((await description.staticDetails()) ?? '', /\*\*limits\*\* 6 turns/);
  });

  test('the Web UI shows the run with its summaries (screenshot: .data/test-artifacts/web-ui-run.png)', { skip: existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}` }, async () => {
    const [host, port] = [h.address.slice(0, h.address.lastIndexOf(':')), Number(h.address.slice(h.address.lastIndexOf(':') + 1))];
    const ui = `http://${host}:${port + 1000}`;
    const profile = mkdtempSync(path.join(tmpdir(), 'agent-chromium-'));
    mkdirSync(ARTIFACTS, { recursive: true });
    const browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1400, height: 1300 },
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    try {
      const page = await browser.newPage();
      await page.goto(`${ui}/namespaces/default/workflows/${encodeURIComponent(run.runId)}`, { waitUntil: 'networkidle' });
      await page.getByText('Tidy the workspace logs', { exact: false }).first().waitFor({ timeout: 30_000 });
      await page.getByText('delete_file access.log (approved)', { exact: false }).first().waitFor({ timeout: 30_000 });
      // (Not asserted here: without AGENT_PAYLOAD_KEY the page also shows the run's input and results as they are.)
      await page.screenshot({ path: path.join(ARTIFACTS, 'web-ui-run.png'), fullPage: true });
      // The User Metadata tab: the run's static summary and details.
      await page.getByText('User Metadata', { exact: true }).first().click();
      await page.waitForTimeout(1500);
      await page.screenshot({ path: path.join(ARTIFACTS, 'web-ui-run-metadata.png'), fullPage: false });
    } finally {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });
});

test('with AGENT_PAYLOAD_KEY the summaries are encrypted in history and read back through the codec', async () => {
  const dataConverter = agentDataConverter('operators secret')!;
  const codec = dataConverter.payloadCodecs![0]!;
  const h = await startHarness('operators-ui-codec', { dataConverter });
  try {
    const { runId, details } = await runToTheEnd(h);
    const history = await h.temporal.workflow.getHandle(runId).fetchHistory();
    const raw = (history.events ?? []).flatMap((e) => [e.userMetadata?.summary, e.userMetadata?.details]).filter((p) => p?.data);
    assert.ok(raw.length > 5, `summaries found: ${raw.length}`);
    for (const payload of raw) assert.equal(Buffer.from(payload!.metadata?.encoding ?? []).toString(), 'binary/encrypted');
    assert.ok(!historyBytes(history).includes('send_message to='), 'no summary in plain text anywhere in the history');
    const lines = (await summariesOf(history, codec)).map((s) => s.summary);
    assert.ok(lines.includes('send_message to=[redacted] text=The nightly job timed out. (approved by alice)'), lines.join('\n'));
    // describe() decodes the static summary with the client's converter.
    assert.match((await (await h.temporal.workflow.getHandle(runId).describe()).staticSummary()) ?? '', /^Tidy the workspace logs/);
    assert.match(details, /waiting for approval/);
    for (const secret of SECRETS) for (const line of [...lines, details]) assert.doesNotMatch(line, secret);
    await h.replayAll();
  } finally {
    await h.close();
  }
});
