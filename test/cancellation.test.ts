/** Progress, cancellation that reaches everything, parallel tool calls, research sub-agents. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AgentClient } from '../src/client/client.ts';
import { eventually } from './helpers/eventually.ts';
import { scenario, startHarness, type Harness } from './helpers/harness.ts';
import { observedTools, type ScanObservation } from '../src/cli/bench/instrumented-scan.ts';
import { CANCEL_GRACE_MS } from '../activities/run-tool.ts';
import { contractsByName } from '../src/tools/contracts.ts';
import { activities, eventId, eventMs, eventTypes, payloadJson } from './helpers/histories.ts';
import { offeredTools } from './helpers/model-proxy.ts';
import type { RunInput } from '../src/wire/run-input.ts';
import type { TraceLine } from '../src/wire/trace-events.ts';
import type { AgentStore } from '../src/store/store.ts';

const GOAL = 'Scan the workspace.';
const scans = new Map<string, ScanObservation>();
let h: Harness;
before(async () => {
  h = await startHarness('cancel', { tools: observedTools(scans), modelProxy: true });
});
after(() => h.replayAndClose());

describe('slow-scan', () => {
  test('without a cancel it completes, and progress labels show in the state query while it runs', async () => {
    const { runId } = await h.agents.startRun({ goal: GOAL, model: 'scripted:slow-scan', workspace: h.workspace });
    const labels = new Set<string>();
    for (;;) {
      const state = await h.agents.getState(runId);
      // (A query no worker answered within the client's 2 s — a loaded machine — gives the memo's state, whose progress says so: no label.)
      if (state.progress && state.status === 'running' && !state.progress.startsWith('no worker answered')) labels.add(state.progress);
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

  test('cancelled mid-scan: interrupted with the reason, the tool saw its signal abort, nothing ran after', async () => {
    const { runId } = await h.agents.startRun({ goal: GOAL, model: scenario('scan-then-list.ts'), workspace: h.workspace });
    const scan = await eventually(() => scans.get(`${runId}:t1.1`), 'the scan to start');
    // Mid-scan by the tool's own account: it has reported progress, and not its end.
    await eventually(() => /^scanned \d+ of 1200 files$/.test(scan.lastLabel ?? ''), 'the scan to report progress');
    const cancelledAt = performance.now();
    await h.agents.cancelRun(runId, 'user pressed Stop');
    const result = await h.agents.result(runId);
    assert.equal(result.status, 'interrupted');
    assert.deepEqual(result.interruption, { type: 'cancelled', reason: 'user pressed Stop' });
    assert.ok(scan.abortedAt !== undefined, "the tool's signal aborted");
    assert.ok(scan.abortedAt >= cancelledAt);
    assert.equal(scan.abortReason, 'the run was cancelled: user pressed Stop', 'stopped by the cancel announced in the store, before Temporal told the activity');
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

  test('a cancel from a client without the store: the workflow announces it, the tool stops on that, and the run ends the same', async () => {
    const plain = new AgentClient(h.temporal, { taskQueue: h.taskQueue, workspaceRoots: [h.dataDir] });
    const { runId } = await plain.startRun({ goal: GOAL, model: scenario('scan-then-list.ts'), workspace: h.workspace });
    const scan = await eventually(() => scans.get(`${runId}:t1.1`), 'the scan to start');
    await eventually(() => /^scanned \d+ of 1200 files$/.test(scan.lastLabel ?? ''), 'the scan to report progress');
    await plain.cancelRun(runId, 'stopped from a plain client');
    const result = await plain.result(runId);
    assert.equal(result.status, 'interrupted');
    assert.deepEqual(result.interruption, { type: 'cancelled', reason: 'stopped from a plain client' });
    assert.ok(scan.endedAt !== undefined && scan.abortedAt !== undefined, "the tool's signal aborted and it returned");
    assert.equal(scan.abortReason, 'the run was cancelled: stopped from a plain client', "the workflow's announcement, before Temporal told the activity");
    const events = (await h.store.readEvents(runId)).map((e) => e.event as TraceLine | { type: 'cancel_requested' });
    assert.ok(!events.some((e) => e.type === 'cancel_requested'), 'the client announced nothing');
    const stopping = events.filter((e) => e.type === 'stopping');
    assert.deepEqual(stopping.map((e) => (e.reason === 'cancelled' ? [e.reason, e.why] : [e.reason])), [['cancelled', 'stopped from a plain client']]);
    assert.equal(events.at(-1)?.type, 'run_stopped');
    const scanActivity = activities(await h.temporal.workflow.getHandle(runId).fetchHistory(), 'runTool')[0];
    assert.equal(scanActivity?.closedAs, 'Canceled', 'the activity ended cancelled');
  });

  test("the run's wall time: the workflow announces the stop, and the tool stops on that", async () => {
    const result = await h.run({ goal: `${GOAL} (wall time)`, model: scenario('scan-then-list.ts'), limits: { maxWallMs: 2000 } });
    assert.equal(result.status, 'budget_exceeded');
    assert.deepEqual(result.interruption, { type: 'max_time' });
    const scan = scans.get(`${result.runId}:t1.1`)!;
    assert.ok(scan.endedAt !== undefined && scan.abortedAt !== undefined, "the tool's signal aborted and it returned");
    assert.equal(scan.abortReason, "the run's wall time ran out", "the workflow's announcement, before Temporal told the activity");
    // A progress signal the tool sent just before may still land between the two.
    const trace = await h.trace(result.runId);
    assert.deepEqual(trace.filter((l) => l.type === 'stopping').map((l) => l.reason), ['max_time']);
    assert.equal(trace.at(-1)?.type, 'run_stopped');
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
  // The history: both scans were scheduled by one workflow task, each started before the other ended, and
  // the shorter one (60 files) ended first.
  const history = await h.temporal.workflow.getHandle(result.runId).fetchHistory();
  const [first, second] = activities(history, 'runTool');
  assert.ok(first && second);
  assert.deepEqual([first.input, second.input].map((i) => (i as { callKey: string }).callKey), ['t1.1', 't1.2']);
  const taskOf = (a: typeof first) => Number(a.scheduled.activityTaskScheduledEventAttributes!.workflowTaskCompletedEventId);
  assert.equal(taskOf(first), taskOf(second), 'scheduled together');
  assert.ok(eventMs(first.started!) < eventMs(second.closed!) && eventMs(second.started!) < eventMs(first.closed!), 'each started before the other ended');
  assert.ok(eventId(second.closed!) < eventId(first.closed!), 'the shorter scan finished first');
  const tools = (await h.agents.transcript(result.runId)).filter((m) => m.role === 'tool');
  assert.deepEqual(
    tools.map((m) => (m.role === 'tool' ? [m.tool_call_id, m.content] : [])),
    [
      ['p1', 'Scanned 100 files: no problems found.'],
      ['p2', 'Scanned 60 files: no problems found.'],
    ],
  );
});

test('a call that stops the run lets its sibling finish first: nothing is left running behind the run', async () => {
  // One reply: a scan (1 s), then a call the tool-call cap refuses, which stops the run.
  const result = await h.run({ goal: `${GOAL} (parallel stop)`, model: scenario('parallel-stop.ts'), limits: { maxToolCalls: 1 } });
  assert.equal(result.status, 'budget_exceeded');
  assert.deepEqual(result.interruption, { type: 'max_tool_calls' });
  assert.equal(result.toolRuns, 1);
  const scan = scans.get(`${result.runId}:t1.1`);
  assert.ok(scan?.endedAt !== undefined && scan.abortedAt === undefined, 'the scan ran to its end, undisturbed, before the run ended');
  const history = await h.temporal.workflow.getHandle(result.runId).fetchHistory();
  const [tool] = activities(history, 'runTool');
  assert.equal(tool?.closedAs, 'Completed', 'the scan activity completed');
  assert.equal(eventTypes(history).at(-1), 'WorkflowExecutionCompleted');
  assert.ok(eventId(tool.closed!) < (history.events?.length ?? 0), 'before the run completed');
  // Its last progress label reached Temporal before its result: a signal after it would have made Temporal
  // refuse the task that ends the run, which then replays the run to handle the signal.
  const labels = (history.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'toolProgress');
  assert.equal((payloadJson(labels.at(-1)?.workflowExecutionSignaledEventAttributes?.input?.payloads?.[0]) as { label?: string }).label, 'scanned 200 of 200 files');
  assert.ok(eventId(labels.at(-1)!) < eventId(tool.closed!), 'the last label came before the result');
  assert.ok(!eventTypes(history).includes('WorkflowTaskFailed'), 'no workflow task was refused');
  const types = (await h.trace(result.runId)).map((l) => l.type).filter((t) => t !== 'tool_progress');
  assert.deepEqual(types.slice(-3), ['tool_start', 'tool_result', 'run_stopped'], 'its result is traced before the stop');
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

  test('a research child is offered read-only tools only', async () => {
    const result = await h.run({ goal: 'Which log mentions a timeout? (tools offered)', model: 'scripted:research' });
    assert.equal(result.status, 'completed');
    const childRequests = h.model.exchanges.filter((e) => /research assistant/.test(e.body.messages[0]?.content ?? '') && e.body.messages.some((m) => m.role === 'user' && m.content === 'Which log file mentions a timeout?'));
    const parentRequest = h.model.exchanges.find((e) => e.body.messages.some((m) => m.role === 'user' && m.content === 'Which log mentions a timeout? (tools offered)'))!;
    assert.ok(childRequests.length > 0, "the child's model requests");
    const readOnlyActivityTools = [...contractsByName.values()].filter((c) => c.readOnly && c.execution === 'activity').map((c) => c.name);
    for (const request of childRequests) {
      const tools = offeredTools(request);
      assert.deepEqual(tools.toSorted(), readOnlyActivityTools.toSorted(), 'exactly the read-only tools that run as activities');
      for (const name of tools) assert.equal(contractsByName.get(name)?.readOnly, true, `${name} is read-only`);
    }
    // The parent, by contrast, was offered tools with side effects and research itself.
    assert.ok(['delete_file', 'write_file', 'send_message', 'research'].every((t) => offeredTools(parentRequest).includes(t)));
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
    // Its own is smaller: the parent has $1 (the default) and gives research $0.001.
    const own = await h.run({ goal: `${GOAL} (own budget)`, model: scenario('research-runaway-child.ts'), research: { maxBudgetUsd: 0.001 } });
    assert.equal(own.status, 'completed', 'the parent had budget left and answered');
    const ownChild = (await h.agents.getState(own.runId)).children[0]!;
    assert.equal(ownChild.status, 'budget_exceeded');
    assert.equal((await childInput(ownChild.runId)).limits?.maxBudgetUsd, 0.001);

    // What the parent has left is smaller: $0.004 minus its first turn, under research's default $0.05.
    const capped = await h.run({ goal: `${GOAL} (parent budget)`, model: scenario('research-runaway-child.ts'), limits: { maxBudgetUsd: 0.004 } });
    const cappedChild = (await h.agents.getState(capped.runId)).children[0]!;
    assert.equal(cappedChild.status, 'budget_exceeded');
    assert.equal(capped.status, 'budget_exceeded', 'the child spent the parent budget');
    const firstTurn = (await h.trace(capped.runId)).find((l) => l.type === 'turn');
    assert.ok(firstTurn?.type === 'turn');
    const left = 0.004 - firstTurn.costUsd;
    assert.ok(left > 0 && left < 0.05);
    assert.equal((await childInput(cappedChild.runId)).limits?.maxBudgetUsd, left);
    const childState = await h.agents.getState(cappedChild.runId);
    assert.ok(childState.costUsd >= left, 'the child stopped on that budget');
  });
});

/** The input a child run was started with, from its history. */
async function childInput(childId: string): Promise<RunInput> {
  const history = await h.temporal.workflow.getHandle(childId).fetchHistory();
  return payloadJson(history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]) as RunInput;
}

test("with the store's stream out of the worker's reach, a cancel reaches the tool with its next heartbeat", async () => {
  const observed = new Map<string, ScanObservation>();
  // Every subscribe fails, as in an outage of the store's notifications: no announcement can reach an activity.
  const streamOutOfReach = (store: AgentStore): AgentStore =>
    Object.assign(Object.create(store) as AgentStore, { subscribe: () => Promise.reject(new Error('the store cannot be reached')) });
  const s = await startHarness('no-stream', { tools: observedTools(observed), workerStore: streamOutOfReach });
  try {
    const { runId } = await s.agents.startRun({ goal: GOAL, model: scenario('scan-then-list.ts'), workspace: s.workspace });
    const scan = await eventually(() => observed.get(`${runId}:t1.1`), 'the scan to start');
    await eventually(() => /^scanned \d+ of 1200 files$/.test(scan.lastLabel ?? ''), 'the scan to report progress');
    await s.agents.cancelRun(runId, 'stop now');
    const result = await s.agents.result(runId);
    assert.deepEqual(result.interruption, { type: 'cancelled', reason: 'stop now' });
    assert.ok(scan.endedAt !== undefined && scan.abortedAt !== undefined, "the tool's signal aborted and it returned");
    assert.doesNotMatch(scan.abortReason ?? '', /the run was cancelled/, "Temporal's cancellation: no announcement reached the activity");
    assert.doesNotMatch(scan.lastLabel ?? '', /1200 of 1200/, 'the scan stopped before the end');
    const [activity] = activities(await s.temporal.workflow.getHandle(runId).fetchHistory(), 'runTool');
    assert.equal(activity?.closedAs, 'Canceled', 'the activity ended cancelled');
    await s.replayAll();
  } finally {
    await s.close();
  }
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
    // The history, by the server's clock: the scan was asked to stop, and reported cancelled only once the
    // grace period had passed (a tool that listens stops within a heartbeat).
    const history = await s.temporal.workflow.getHandle(runId).fetchHistory();
    const [scan] = activities(history, 'runTool');
    assert.ok(scan?.cancelRequested && scan.closedAs === 'Canceled');
    const abandonedAfter = eventMs(scan.closed!) - eventMs(scan.cancelRequested);
    assert.ok(abandonedAfter >= CANCEL_GRACE_MS, `abandoned ${abandonedAfter} ms after the cancel request, not before ${CANCEL_GRACE_MS} ms`);
    await s.replayAll();
  } finally {
    await s.close();
  }
});
