/** Progress, cancellation that reaches everything, parallel tool calls, research sub-agents. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eventually } from './helpers/eventually.ts';
import { scenario, startHarness, type Harness } from './helpers/harness.ts';
import { observedTools, type ScanObservation } from '../src/instrumented-scan.ts';

const GOAL = 'Scan the workspace.';
const scans = new Map<string, ScanObservation>();
let h: Harness;
before(async () => {
  h = await startHarness('cancel', { tools: observedTools(scans) });
});
after(async () => {
  await h.replayAll();
  await h.close();
});

describe('slow-scan', () => {
  test('without a cancel it completes, and progress labels show in the state query while it runs', async () => {
    const { runId } = await h.agents.startRun({ goal: GOAL, model: 'scripted:slow-scan', workspace: h.workspace });
    const labels = new Set<string>();
    for (;;) {
      const state = await h.agents.getState(runId);
      if (state.progress && state.status === 'running') labels.add(state.progress);
      if (state.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const result = await h.agents.result(runId);
    assert.equal(result.status, 'completed');
    assert.equal(result.output, 'Scanned 1200 files: no problems found.');
    assert.ok(labels.size >= 2, `several labels seen while running: ${[...labels].join(' | ')}`);
    for (const label of labels) assert.match(label, /^scanned \d+ of 1200 files$/);
    const progressLines = (await h.trace(runId)).filter((l) => l.type === 'tool_progress');
    assert.ok(progressLines.length >= 2);
  });

  test('cancelled at about 1.2 s: interrupted with the reason, the tool saw its signal abort, nothing ran after', async () => {
    const { runId } = await h.agents.startRun({ goal: GOAL, model: scenario('scan-then-list.ts'), workspace: h.workspace });
    const scan = await eventually(() => scans.get(`${runId}:t1.1`), 'the scan to start');
    await new Promise((r) => setTimeout(r, Math.max(0, 1200 - (performance.now() - scan.startedAt))));
    const cancelledAt = performance.now();
    await h.agents.cancelRun(runId, 'user pressed Stop');
    const result = await h.agents.result(runId);
    assert.equal(result.status, 'interrupted');
    assert.deepEqual(result.interruption, { type: 'cancelled', reason: 'user pressed Stop' });
    assert.ok(scan.abortedAt !== undefined, "the tool's signal aborted");
    assert.ok(scan.abortedAt >= cancelledAt);
    assert.ok(scan.endedAt !== undefined, 'the tool returned');
    assert.doesNotMatch(scan.lastLabel ?? '', /1200 of 1200/, 'the scan stopped before the end');
    assert.equal(result.toolRuns, 1, 'no later tool ran');
    assert.equal(result.turns, 1, 'no later model call');
    const types = (await h.trace(runId)).map((l) => l.type);
    assert.equal(types.at(-1), 'run_stopped');
    assert.ok(!types.includes('tool_result'), 'the scan never produced a result');
    const history = await h.temporal.workflow.getHandle(runId).fetchHistory();
    const scheduled = history.events!.filter((e) => e.activityTaskScheduledEventAttributes).length;
    assert.equal(scheduled, 2, 'one model call and one scan were ever scheduled');
  });

  test('cancelling a run that waits for approval ends it interrupted', async () => {
    const { runId } = await h.agents.startRun({ goal: GOAL, model: 'scripted:delete-approval', workspace: h.workspace });
    await h.waitForState(runId, (s) => s.status === 'waiting_approval', 'the approval request');
    await h.agents.cancelRun(runId, 'changed my mind');
    const result = await h.agents.result(runId);
    assert.equal(result.status, 'interrupted');
    assert.deepEqual(result.interruption, { type: 'cancelled', reason: 'changed my mind' });
    assert.equal((await h.agents.getState(runId)).pending, null);
  });
});

test('parallel: two tool calls in one reply run at the same time; results keep the model order', async () => {
  const result = await h.run({ goal: GOAL, model: 'scripted:parallel' });
  assert.equal(result.status, 'completed');
  const first = scans.get(`${result.runId}:t1.1`)!;
  const second = scans.get(`${result.runId}:t1.2`)!;
  assert.ok(first.startedAt < second.endedAt! && second.startedAt < first.endedAt!, 'the intervals overlap');
  assert.ok(second.endedAt! < first.endedAt!, 'the shorter scan finished first');
  const tools = (await h.agents.transcript(result.runId)).filter((m) => m.role === 'tool');
  assert.deepEqual(
    tools.map((m) => (m.role === 'tool' ? [m.tool_call_id, m.content] : [])),
    [
      ['p1', 'Scanned 100 files: no problems found.'],
      ['p2', 'Scanned 60 files: no problems found.'],
    ],
  );
});

describe('research', () => {
  test("the child's turns and cost roll up into the parent's totals", async () => {
    const result = await h.run({ goal: 'Which log mentions a timeout?', model: 'scripted:research' });
    assert.equal(result.status, 'completed');
    assert.equal(result.output, 'Research found: errors.log: worker 7 timed out after 30000 ms.');
    const state = await h.agents.getState(result.runId);
    assert.equal(state.children.length, 1);
    const child = state.children[0]!;
    assert.equal(child.runId, `${result.runId}:research:t1.1`);
    assert.equal(child.status, 'completed');
    assert.equal(child.turns, 2);
    assert.ok(child.costUsd > 0);
    assert.equal(state.turns, 2);
    assert.equal(state.totalTurns, 4);
    assert.equal(state.totalCostUsd, state.costUsd + child.costUsd);
    const childState = await h.agents.getState(child.runId);
    assert.equal(childState.costUsd, child.costUsd);
    assert.deepEqual(
      (await h.agents.transcript(child.runId)).filter((m) => m.role === 'tool').map((m) => m.role === 'tool' && m.name),
      ['read_file'],
    );
  });

  test('cancelling the parent while the child works cancels the child', async () => {
    const { runId } = await h.agents.startRun({ goal: GOAL, model: scenario('research-slow-child.ts'), workspace: h.workspace });
    const childId = `${runId}:research:t1.1`;
    await eventually(() => h.scripted.requests.some((r) => /research assistant/.test(r.messages[0]?.content ?? '') && r.messages[1]?.content === 'What is in notes.txt?' && !r.aborted && r.ms === 0), 'the child model call');
    await h.agents.cancelRun(runId, 'user pressed Stop');
    const result = await h.agents.result(runId);
    assert.equal(result.status, 'interrupted');
    const child = await h.temporal.workflow.getHandle(childId).describe();
    assert.equal(child.status.name, 'CANCELLED');
    const childState = await h.agents.getState(childId);
    assert.equal(childState.status, 'interrupted');
  });

  test('a child hitting its turn cap returns an error text and the parent completes', async () => {
    const result = await h.run({ goal: GOAL, model: scenario('research-runaway-child.ts'), research: { maxTurns: 3 } });
    assert.equal(result.status, 'completed');
    assert.match(result.output!, /^Parent answer after: Error: the research run stopped with status max_turns_exceeded \(max_turns\) before answering; 3 turns/);
    const state = await h.agents.getState(result.runId);
    assert.equal(state.children[0]?.status, 'max_turns_exceeded');
    assert.equal(state.totalTurns, 2 + 3);
  });

  test("the child's budget is the smaller of its own and what the parent has left", async () => {
    const { runId } = await h.agents.startRun({ goal: GOAL, model: scenario('research-runaway-child.ts'), limits: { maxBudgetUsd: 0.004 } });
    const result = await h.agents.result(runId);
    const child = (await h.agents.getState(runId)).children[0]!;
    assert.equal(child.status, 'budget_exceeded');
    assert.equal(result.status, 'budget_exceeded', 'the child spent the parent budget');
    const childState = await h.agents.getState(child.runId);
    assert.ok(childState.costUsd < 0.004);
  });
});

test('a tool that ignores its signal is abandoned after a grace period and the run still ends', async () => {
  const stubborn = new Map<string, ScanObservation>();
  const s = await startHarness('stubborn', { tools: observedTools(stubborn, { ignoreSignal: true }) });
  try {
    const { runId } = await s.agents.startRun({ goal: GOAL, model: 'scripted:slow-scan', workspace: s.workspace });
    await eventually(() => stubborn.get(`${runId}:t1.1`), 'the scan to start');
    await s.agents.cancelRun(runId, 'stop now');
    const result = await s.agents.result(runId);
    assert.equal(result.status, 'interrupted');
    assert.equal(stubborn.get(`${runId}:t1.1`)!.endedAt, undefined, 'the tool was still running when the run ended');
  } finally {
    await s.close();
  }
});
