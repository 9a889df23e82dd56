/**
 * Scheduled agents on the real dev server (Temporal Schedules): a trigger starts a run whose id names the
 * schedule and the time; a second trigger while that run waits for approval is skipped (overlap skip, the
 * default); a paused schedule starts nothing until unpaused; bad input is refused before Temporal sees it.
 * The same through the CLI.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { chromium } from 'playwright-core';
import { startHttp } from './helpers/http-app.ts';
import { after, before, test } from 'node:test';
import { AgentSchedules, triggerWaitMs } from '../src/client/schedules.ts';
import { InvalidScheduleError, ScheduleExistsError, ScheduleNotFoundError } from '../src/client/schedule-input.ts';
import { PROJECT_ROOT } from '../src/paths.ts';
import { eventually } from './helpers/eventually.ts';
import { activities, localActivities } from './helpers/histories.ts';
import { startHarness, type Harness } from './helpers/harness.ts';
import { FINAL_STATE_MEMO } from '../src/wire/messages.ts';
import type { RunState } from '../src/wire/types.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = path.join(PROJECT_ROOT, '.data', 'test-artifacts');

let h: Harness;
let schedules: AgentSchedules;
const ids: string[] = [];
const uniqueId = (name: string) => {
  const id = `${name}-${Date.now().toString(36)}`;
  ids.push(id);
  return id;
};

before(async () => {
  h = await startHarness('schedules');
  schedules = new AgentSchedules(h.agents);
});
after(async () => {
  for (const id of ids) await schedules.delete(id).catch(() => {});
  await h.replayAndClose();
});

/** Runs a schedule started (visibility: `TemporalScheduledById`), with their state. */
async function runsOf(scheduleId: string): Promise<string[]> {
  const found: string[] = [];
  for await (const info of h.temporal.workflow.list({ query: `TemporalScheduledById="${scheduleId}"` })) found.push(info.workflowId);
  return found;
}

test('trigger starts a run named after the schedule and its time, with the schedule’s run input', async () => {
  const id = uniqueId('morning-triage');
  const created = await schedules.create({ id, run: { goal: 'Which log file mentions a timeout?', model: 'scripted:plan', workspace: h.workspace }, cron: ['0 7 * * 1-5'], timeZone: 'Europe/Berlin', jitter: '1m', catchupWindow: '10m' });
  assert.equal(created.overlap, 'skip', 'skip is the default');
  assert.deepEqual(created.cron, ['0 7 * * 1-5']);
  assert.equal(created.timeZone, 'Europe/Berlin');
  assert.equal(created.catchupWindowMs, 600_000);
  assert.equal(created.jitterMs, 60_000);
  assert.ok(created.nextRunTimes.length > 0);
  await schedules.trigger(id);
  const described = await eventually(async () => {
    const d = await schedules.describe(id);
    return d.recentRuns.length === 1 ? d : undefined;
  }, 'the triggered run');
  const runId = described.recentRuns[0]!.runId;
  assert.match(runId, new RegExp(`^schedule-${id}-\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$`));
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'completed');
  assert.equal(result.turns, 3);
  // The scheduled run carries the summaries a run started by hand does.
  assert.match((await (await h.temporal.workflow.getHandle(runId).describe()).staticSummary()) ?? '', /^Which log file mentions a timeout\? — model scripted:plan/);
  assert.ok((await schedules.list()).some((s) => s.id === id));
  await assert.rejects(schedules.create({ id, run: { goal: 'again', model: 'scripted:plan' }, every: '1h' }), ScheduleExistsError);
});

test('overlap skip: a trigger while the last run waits for approval starts nothing', async () => {
  const id = uniqueId('cleanup');
  await schedules.create({ id, run: { goal: 'Free some disk space.', model: 'scripted:delete-approval', workspace: h.workspace }, every: '1d' });
  await schedules.trigger(id);
  const first = await eventually(async () => (await schedules.describe(id)).recentRuns[0]?.runId, 'the first run');
  const waiting = await h.waitForState(first, (s) => s.status === 'waiting_approval', 'the approval request');
  await schedules.trigger(id);
  const skipped = await eventually(async () => {
    const d = await schedules.describe(id);
    return d.skippedOverlap === 1 ? d : undefined;
  }, 'the second trigger to be skipped');
  assert.equal(skipped.runsStarted, 1);
  assert.deepEqual(skipped.runningRunIds, [first]);
  assert.deepEqual(await runsOf(id).then((r) => r.length), 1);
  assert.ok(waiting.pending?.kind === 'approval');
  await h.agents.approve(first, { callKey: waiting.pending.callKey, argsHash: waiting.pending.argsHash });
  assert.equal((await h.agents.result(first)).status, 'completed');
  // Once the run has ended, a trigger starts the next one.
  await schedules.trigger(id);
  await eventually(async () => ((await schedules.describe(id)).runsStarted === 2 ? true : undefined), 'the next run after the first ended');
});

test('a daily spend cap below one run’s cost: the next trigger that day is skipped for the cap, without a model call', async () => {
  const id = uniqueId('capped');
  const created = await schedules.create({ id, run: { goal: 'Which log file mentions a timeout?', model: 'scripted:plan', workspace: h.workspace }, every: '1d', timeZone: 'Pacific/Auckland', dailyBudgetUsd: 0.000001 });
  assert.equal(created.dailyBudgetUsd, 0.000001);
  await schedules.trigger(id);
  const first = await eventually(async () => (await schedules.describe(id)).recentRuns[0]?.runId, 'the first run');
  const spent = await h.agents.result(first);
  assert.equal(spent.status, 'completed');
  assert.ok(spent.totalCostUsd > 0.000001, `one run costs more than the cap (${spent.totalCostUsd})`);
  // The first run checked the cap too (nothing spent yet) and went on.
  const firstHistory = await h.temporal.workflow.getHandle(first).fetchHistory();
  assert.deepEqual(localActivities(firstHistory, 'scheduleSpend').map((m) => (m.result as { spentUsd: number }).spentUsd), [0]);
  // Visibility has the first run's final spend before the next trigger (it is eventually consistent: a run
  // counted as closed may still be listed with its earlier memo for a moment).
  const closedQuery = `TemporalScheduledById="${id}" AND ExecutionStatus="Completed"`;
  await eventually(async () => {
    for await (const info of h.temporal.workflow.list({ query: closedQuery })) if ((info.memo?.[FINAL_STATE_MEMO] as RunState | undefined)?.totalCostUsd === spent.totalCostUsd) return true;
    return undefined;
  }, "the first run's final spend in visibility");

  await schedules.trigger(id);
  const second = await eventually(async () => (await schedules.describe(id)).recentRuns[1]?.runId, 'the second run');
  // Its own id even when triggered within the second of the first (Temporal names a scheduled run by its time to the second).
  assert.notEqual(second, first);
  const skipped = await h.agents.result(second);
  assert.equal(skipped.status, 'interrupted');
  assert.equal(skipped.reason, 'schedule_budget');
  assert.ok(skipped.interruption?.type === 'schedule_budget');
  assert.equal(skipped.interruption.scheduleId, id);
  assert.equal(skipped.interruption.dailyBudgetUsd, 0.000001);
  assert.ok(Math.abs(skipped.interruption.spentUsd - spent.totalCostUsd) < 1e-12, 'today’s spend is the first run’s');
  assert.match(skipped.interruption.day, /^\d{4}-\d\d-\d\d$/);
  assert.equal(skipped.turns, 0);
  assert.equal(skipped.costUsd, 0);
  // The model was never called for it: no model call in its history, and its trace says why it stopped.
  const history = await h.temporal.workflow.getHandle(second).fetchHistory();
  assert.deepEqual(activities(history, 'callModel'), []);
  assert.deepEqual(localActivities(history, 'callModel'), []);
  const trace = await h.trace(second);
  assert.deepEqual(trace.filter((l) => l.type === 'schedule_skipped').map((l) => l.type === 'schedule_skipped' && [l.scheduleId, l.runs]), [[id, 1]]);
  assert.equal(trace.filter((l) => l.type === 'turn').length, 0);
  const last = trace.at(-1);
  assert.ok(last?.type === 'run_stopped' && last.reason === 'schedule_budget', `the trace ends with the stop: ${JSON.stringify(last)}`);
});

test('a trigger never takes the second of another run of its schedule: the last one taken, or one due then', () => {
  const t = Date.UTC(2026, 11, 4, 7, 0, 0); // 07:00:00.000
  assert.equal(triggerWaitMs(t + 400, undefined, []), 0, 'no other run: at once');
  assert.equal(triggerWaitMs(t + 400, t, []), 600, 'the last run was taken in this second: the next one');
  assert.equal(triggerWaitMs(t + 400, t - 5000, [t + 60_000]), 0, 'the others are seconds away');
  // A cron firing due at 07:00:01: a trigger sent at 07:00:00.900 is taken by the server in that second, or in this one.
  assert.equal(triggerWaitMs(t + 900, undefined, [t + 1000]), 1100, 'one due in the next second: the one after');
  assert.equal(triggerWaitMs(t + 900, t, [t + 1000]), 1100);
  // Busy seconds in a row: past them all.
  assert.equal(triggerWaitMs(t + 100, t, [t + 1000, t + 2000]), 2900);
});

test('a trigger at the moment an every-2-seconds schedule fires: every run has its own id', { timeout: 60_000 }, async () => {
  const id = uniqueId('at-the-firing');
  await schedules.create({ id, run: { goal: 'Which log file mentions a timeout?', model: 'scripted:plan', workspace: h.workspace }, every: '2s', overlap: 'allow_all' });
  let due = 0;
  // 20 ms before a firing (a timer that wakes too late on a loaded machine tries the next one).
  for (let attempt = 0; attempt < 5; attempt++) {
    due = (await schedules.describe(id)).nextRunTimes.map((t) => Date.parse(t)).find((t) => t > Date.now() + 500)!;
    await new Promise((r) => setTimeout(r, due - Date.now() - 20));
    if (Date.now() < due - 5) break;
  }
  await schedules.trigger(id);
  const described = await eventually(async () => {
    const d = await schedules.describe(id);
    return (d.runsStarted ?? 0) >= 3 ? d : undefined;
  }, 'the firing, the trigger and the next firing');
  await schedules.delete(id);
  const ids = described.recentRuns.map((r) => r.runId);
  assert.equal(new Set(ids).size, ids.length, `each run its own id: ${ids.join(', ')}`);
  // The trigger, sent 20 ms before the firing, waited for the second after it (not the one before: the server may take it late).
  const named = (ms: number) => `schedule-${id}-${new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')}`;
  assert.ok(ids.includes(named(due)) && ids.includes(named(due + 1000)), `the firing at ${named(due)} and the trigger a second later: ${ids.join(', ')}`);
  for (const runId of ids) assert.equal((await h.agents.result(runId)).status, 'completed');
});

test('paused, a schedule due every second starts nothing; unpaused, it starts runs', async () => {
  const id = uniqueId('every-second');
  const created = await schedules.create({ id, run: { goal: 'Which log file mentions a timeout?', model: 'scripted:plan', workspace: h.workspace }, every: '1s', paused: true, note: 'not yet' });
  assert.equal(created.paused, true);
  assert.equal(created.note, 'not yet');
  // Three due times pass while it is paused.
  await new Promise((r) => setTimeout(r, 3000));
  assert.equal((await schedules.describe(id)).runsStarted, 0);
  const unpaused = await schedules.unpause(id);
  assert.equal(unpaused.paused, false);
  const started = await eventually(async () => (await schedules.describe(id)).recentRuns[0]?.runId, 'a run after unpausing');
  const paused = await schedules.pause(id, 'enough');
  assert.equal(paused.paused, true);
  assert.equal(paused.note, 'enough');
  assert.equal((await h.agents.result(started)).status, 'completed');
});

test('refused before Temporal: no time spec, a bad id, a bad run input; unknown ids are not found', async () => {
  await assert.rejects(schedules.create({ id: 'x', run: { goal: 'g', model: 'scripted:plan' } }), (e: Error) => e instanceof InvalidScheduleError && /cron.*every/.test(e.message));
  await assert.rejects(schedules.create({ id: 'no spaces', run: { goal: 'g', model: 'scripted:plan' }, every: '1h' }), InvalidScheduleError);
  await assert.rejects(schedules.create({ id: 'x', run: { goal: '', model: 'scripted:plan' }, every: '1h' }), /goal is empty/);
  await assert.rejects(schedules.create({ id: 'x', run: { goal: 'g', model: 'scripted:plan' }, every: 'hourly' }), /a duration is/);
  await assert.rejects(schedules.describe('no-such-schedule'), ScheduleNotFoundError);
  await assert.rejects(schedules.trigger('no-such-schedule'), ScheduleNotFoundError);
});

test('the inbox lists the scheduled agents (screenshot: .data/test-artifacts/inbox-schedules.png)', { skip: existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}` }, async () => {
  const id = uniqueId('inbox');
  await schedules.create({ id, run: { goal: 'Triage the night’s errors.log', model: 'scripted:plan', workspace: h.workspace }, cron: ['0 7 * * 1-5'], timeZone: 'Europe/Berlin', paused: true, note: 'holiday' });
  // No token configured: the server is open on loopback, every local caller has every role.
  const api = await startHttp(h);
  const profile = mkdtempSync(path.join(tmpdir(), 'agent-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, viewport: { width: 1200, height: 900 }, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  try {
    const page = await browser.newPage();
    await page.goto(`${api.url}/ui`);
    const row = page.locator(`#schedules tr[data-schedule-id="${id}"]`);
    await row.waitFor({ timeout: 30_000 });
    const text = (await row.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /paused/);
    assert.match(text, /0 7 \* \* 1-5 \(Europe\/Berlin\)/);
    assert.match(text, /Triage the night’s errors\.log/);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'inbox-schedules.png'), fullPage: true });
  } finally {
    await browser.close();
    await api.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

test('the CLI: schedule create, list, describe, trigger, pause, delete', async () => {
  const id = uniqueId('cli');
  const cli = (...args: string[]) =>
    promisify(execFile)(path.join(PROJECT_ROOT, 'node_modules', '.bin', 'node'), [path.join(PROJECT_ROOT, 'src', 'cli', 'cli.ts'), 'schedule', ...args], {
      env: { ...process.env, TEMPORAL_ADDRESS: h.address, AGENT_TASK_QUEUE: h.taskQueue, AGENT_WORKSPACE_ROOTS: h.dataDir, AGENT_DATA_DIR: h.dataDir },
    }).then((r) => r.stdout);
  const created = await cli('create', id, 'Which log file mentions a timeout?', '--model', 'scripted:plan', '--workspace', h.workspace, '--every', '1d', '--time-zone', 'Europe/Berlin', '--overlap', 'skip', '--daily-budget', '5');
  assert.match(created, new RegExp(`schedule ${id}`));
  assert.match(await cli('list'), new RegExp(`${id}\\s+active`));
  await cli('trigger', id);
  const runId = await eventually(async () => (await schedules.describe(id)).recentRuns[0]?.runId, 'the run the CLI triggered');
  assert.equal((await h.agents.result(runId)).status, 'completed');
  const described = await cli('describe', id);
  assert.match(described, new RegExp(runId));
  assert.match(described, /time zone\s+Europe\/Berlin/);
  assert.match(described, /daily budget\s+\$5 a day \(Europe\/Berlin\)/);
  assert.match(await cli('pause', id, '--reason', 'holiday'), /paused.*holiday/);
  await cli('delete', id);
  await assert.rejects(schedules.describe(id), ScheduleNotFoundError);
});
