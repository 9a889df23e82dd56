/** The durable agent loop end to end: real Temporal server, real HTTP model server, real worker. */
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AgentClient, RunNotFoundError } from '../src/client/client.ts';
import { contractsByName } from '../src/tools/contracts.ts';
import { eventually } from './helpers/eventually.ts';
import { scenario, startHarness, type Harness } from './helpers/harness.ts';
import { activities, durationMs, eventMs, localActivities } from './helpers/histories.ts';
import { FailureType } from '../src/wire/failures.ts';
import { sentUsage, type ModelExchange } from './helpers/model-proxy.ts';

let h: Harness;
before(async () => {
  // The proxy shows the usage the model server really sent, and answers with errors where a test asks.
  h = await startHarness('loop', { modelProxy: true });
});
after(() => h.replayAndClose());

const GOAL = 'Which log file mentions a timeout?';
/** runaway repeats one call forever: these tests are about the turn and budget caps, not repetition. */
const NO_REPETITION_STOPS = { maxRepeatedCalls: 0, maxStaleTurns: 0 };

describe('plan', () => {
  test('completes in 3 turns with 2 tool runs, rising prompt tokens and exact cost', async () => {
    const goal = `${GOAL} (cost)`;
    const result = await h.run({ goal, model: 'scripted:plan', limits: { maxTurns: 20 } });
    assert.equal(result.status, 'completed');
    assert.equal(result.reason, 'final_answer');
    assert.equal(result.turns, 3);
    assert.equal(result.toolRuns, 2);
    assert.equal(result.output, 'errors.log mentions a timeout: worker 7 timed out after 30000 ms.');

    const state = await h.agents.getState(result.runId);
    assert.equal(state.perTurnPromptTokens.length, 3);
    for (let i = 1; i < 3; i++) assert.ok(state.perTurnPromptTokens[i]! > state.perTurnPromptTokens[i - 1]!, `turn ${i + 1} prompt grows`);

    // The usage the model server sent, response by response (read off the wire, not from the harness),
    // priced with the seed's table: $2.00 / $12.00 per million tokens.
    const sent = exchangesFor(goal).map((e) => sentUsage(e)!);
    assert.equal(sent.length, 3);
    assert.deepEqual(state.perTurnPromptTokens, sent.map((u) => u.prompt_tokens));
    const promptTokens = sent.reduce((sum, u) => sum + u.prompt_tokens, 0);
    const completionTokens = sent.reduce((sum, u) => sum + u.completion_tokens, 0);
    assert.deepEqual(result.usage, { promptTokens, completionTokens });
    assert.equal(result.costUsd, (promptTokens * 2 + completionTokens * 12) / 1e6);
  });

  test('its trace has the seed event sequence, each line once', async () => {
    const result = await h.run({ goal: GOAL, model: 'scripted:plan' });
    const lines = (await h.trace(result.runId));
    assert.deepEqual(
      lines.map((l) => l.type),
      ['turn', 'tool_start', 'tool_result', 'turn', 'tool_start', 'tool_result', 'turn', 'run_stopped'],
    );
    assert.deepEqual(lines.map((l) => l.seq), [1, 2, 3, 4, 5, 6, 7, 8]);
    const stopped = lines.at(-1)!;
    assert.ok(stopped.type === 'run_stopped');
    assert.equal(stopped.status, 'completed');
    assert.equal(stopped.turns, 3);
    assert.equal(stopped.costUsd, result.costUsd);
    const turns = lines.filter((l) => l.type === 'turn');
    assert.deepEqual(turns.map((t) => t.turn), [1, 2, 3]);
  });
});

test('runaway with maxTurns 20 stops after exactly 20 turns with an empty answer', async () => {
  const result = await h.run({ goal: GOAL, model: 'scripted:runaway', limits: { maxTurns: 20, ...NO_REPETITION_STOPS } });
  assert.equal(result.status, 'max_turns_exceeded');
  assert.deepEqual(result.interruption, { type: 'max_turns' });
  assert.equal(result.turns, 20);
  assert.equal(result.toolCalls, 20);
  assert.equal(result.toolRuns, 1, 'the identical read-only list_files ran once, then was deduplicated');
  assert.equal(result.output, null);
});

describe('recover', () => {
  test('completes after reading the error text that says to list files', async () => {
    const result = await h.run({ goal: GOAL, model: 'scripted:recover' });
    assert.equal(result.status, 'completed');
    assert.equal(result.output, 'errors.log mentions a timeout.');
    assert.equal(result.turns, 4);
    const transcript = await h.agents.transcript(result.runId);
    const firstTool = transcript.find((m) => m.role === 'tool');
    assert.match(firstTool!.content, /^Error: timeout\.log does not exist\. Call list_files/);
  });

  test('with toolErrorsAreFatal the run fails on the first tool error', async () => {
    const result = await h.run({ goal: GOAL, model: 'scripted:recover', toolErrorsAreFatal: true });
    assert.equal(result.status, 'failed');
    assert.equal(result.reason, 'tool_error');
    assert.match(result.error!, /timeout\.log does not exist/);
    assert.equal(result.turns, 1);
  });
});

test('a budget cap stops the run with the cost at or below the cap plus one reply', async () => {
  const cap = 0.004;
  const result = await h.run({ goal: GOAL, model: 'scripted:runaway', limits: { maxBudgetUsd: cap, maxTurns: 100, ...NO_REPETITION_STOPS } });
  assert.equal(result.status, 'budget_exceeded');
  assert.deepEqual(result.interruption, { type: 'max_budget' });
  const turns = (await h.trace(result.runId)).filter((l) => l.type === 'turn');
  const last = turns.at(-1)!;
  assert.ok(last.type === 'turn');
  const lastReplyCost = (last.prompt_tokens * 2 + last.completion_tokens * 12) / 1e6;
  assert.ok(result.costUsd >= cap, `stopped only once the cap was reached (${result.costUsd})`);
  assert.ok(result.costUsd <= cap + lastReplyCost, `cost ${result.costUsd} within the cap plus one reply`);
  assert.ok(result.turns > 1 && result.turns < 100);
});

test('cancel while the model is slow: interrupted with the reason, and the HTTP request was aborted', async () => {
  const { runId } = await h.agents.startRun({ goal: GOAL, model: scenario('slow.ts'), workspace: h.workspace });
  const request = await eventually(() => h.scripted.requests.find((r) => r.messages[1]?.content === GOAL && r.scenario.endsWith('slow.ts')), 'the model request');
  await h.agents.cancelRun(runId, 'user pressed Stop');
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'interrupted');
  assert.deepEqual(result.interruption, { type: 'cancelled', reason: 'user pressed Stop' });
  assert.equal(result.turns, 0);
  await eventually(() => request.aborted, 'the model server to see the request aborted', 5000);
  const description = await h.temporal.workflow.getHandle(runId).describe();
  assert.equal(description.status.name, 'CANCELLED');
  assert.equal((await h.trace(runId)).at(-1)?.type, 'run_stopped');
  // Cancelling it again: the run has ended (the signal's own error); a run that never existed: RunNotFoundError.
  await assert.rejects(h.agents.cancelRun(runId, 'again'), (error: Error) => error.name === 'WorkflowNotFoundError');
  await assert.rejects(h.agents.cancelRun('run-never-started', 'nothing'), RunNotFoundError);
  // Waiting for its result too: the same error as every other call, not the SDK's.
  await assert.rejects(h.agents.result('run-never-started'), RunNotFoundError);
});

describe("modelCall: 'local'", () => {
  test('the plan run completes the same, its model calls local activities (markers, no activity tasks)', async () => {
    const result = await h.run({ goal: `${GOAL} (local)`, model: 'scripted:plan', modelCall: 'local' });
    assert.equal(result.status, 'completed');
    assert.equal(result.turns, 3);
    assert.equal(result.output, 'errors.log mentions a timeout: worker 7 timed out after 30000 ms.');
    const history = await h.temporal.workflow.getHandle(result.runId).fetchHistory();
    assert.deepEqual(activities(history, 'callModel'), [], 'no model call went through an activity task');
    const calls = localActivities(history, 'callModel');
    assert.equal(calls.length, 3);
    for (const call of calls) assert.equal(call.event.markerRecordedEventAttributes?.failure ?? null, null);
    assert.equal(activities(history, 'runTool').length + localActivities(history, 'runTool').length, 2);
  });

  test('a cancel reaches the model call through the store: it stops with RunCancelRequested, then the run is cancelled', async () => {
    const goal = `${GOAL} (local cancel)`;
    const { runId } = await h.agents.startRun({ goal, model: scenario('slow.ts'), workspace: h.workspace, modelCall: 'local' });
    const request = await eventually(() => h.scripted.requests.find((r) => r.messages[1]?.content === goal), 'the model request');
    // The call holds the run's workflow task, so a query would wait for it: the state comes from the memo, saying so.
    const state = await eventually(async () => {
      const read = await h.agents.getState(runId);
      return /workflow task has been held for [\d.]+ s \(a model call made as a local activity/.test(read.progress ?? '') && read;
    }, 'getState to answer from the memo');
    assert.equal(state.status, 'running');
    await h.agents.cancelRun(runId, 'user pressed Stop');
    const result = await h.agents.result(runId);
    assert.equal(result.status, 'interrupted');
    assert.deepEqual(result.interruption, { type: 'cancelled', reason: 'user pressed Stop' });
    assert.equal(result.turns, 0);
    assert.ok(request.aborted, 'the model server saw the request aborted');
    const history = await h.temporal.workflow.getHandle(runId).fetchHistory();
    // Not the workflow task's heartbeat (seconds later): the call itself heard the cancel and stopped.
    const [call] = localActivities(history, 'callModel');
    const failure = call!.event.markerRecordedEventAttributes?.failure;
    assert.equal(failure?.cause?.applicationFailureInfo?.type ?? failure?.applicationFailureInfo?.type, FailureType.runCancelRequested);
    assert.equal((await h.temporal.workflow.getHandle(runId).describe()).status.name, 'CANCELLED');
    const events = await h.store.readEvents(runId);
    assert.ok(events.some((e) => (e.event as { type?: string }).type === 'cancel_requested'), 'the cancel is on the live stream');
  });

  test('a cancel from a client without the store: the call asks Temporal (every second) and stops itself', async () => {
    const goal = `${GOAL} (local cancel, no store)`;
    const plain = new AgentClient(h.temporal, { taskQueue: h.taskQueue, workspaceRoots: [h.dataDir] });
    const { runId } = await plain.startRun({ goal, model: scenario('slow.ts'), workspace: h.workspace, modelCall: 'local' });
    const request = await eventually(() => h.scripted.requests.find((r) => r.messages[1]?.content === goal), 'the model request');
    await plain.cancelRun(runId, 'stopped from a plain client');
    const result = await plain.result(runId);
    assert.deepEqual(result.interruption, { type: 'cancelled', reason: 'stopped from a plain client' });
    assert.ok(request.aborted, 'the model server saw the request aborted');
    const history = await h.temporal.workflow.getHandle(runId).fetchHistory();
    // Not the task's heartbeat (8 s): the call itself learned of the cancel and stopped.
    const failure = localActivities(history, 'callModel')[0]!.event.markerRecordedEventAttributes?.failure;
    assert.equal(failure?.cause?.applicationFailureInfo?.type ?? failure?.applicationFailureInfo?.type, FailureType.runCancelRequested);
    assert.equal((await h.store.readEvents(runId)).filter((e) => (e.event as { type?: string }).type === 'cancel_requested').length, 0, 'nothing was announced in the store');
  });

  test('each local call holds a workflow task: a worker with 2 (maxWorkflowTasks) has at most 2 model requests open', async () => {
    const small = await startHarness('two-tasks', { worker: { maxWorkflowTasks: 2 } });
    try {
      const started = await Promise.all(
        [0, 1, 2, 3].map((i) => small.agents.startRun({ goal: `${GOAL} (slot ${i})`, model: scenario('one-second.ts'), workspace: small.workspace, modelCall: 'local' })),
      );
      for (const { runId } of started) assert.equal((await small.agents.result(runId)).status, 'completed');
      const spans = small.scripted.requests.map((r) => [r.startedAt, r.startedAt + r.ms] as const);
      assert.equal(spans.length, 4);
      const openAt = (t: number) => spans.filter(([from, to]) => from <= t && t < to).length;
      assert.ok(Math.max(...spans.map(([from]) => openAt(from))) <= 2, 'never more requests open than workflow tasks');
      await small.replayAll();
    } finally {
      await small.close();
    }
  });
});

test('a model answering 400 ends the run failed with the provider message', async () => {
  const result = await h.run({ goal: GOAL, model: scenario('http-400.ts') });
  assert.equal(result.status, 'failed');
  assert.equal(result.reason, 'model_error');
  assert.match(result.error!, /400 .*answered HTTP 400 on turn 0/);
  assert.equal(h.scripted.requests.filter((r) => r.scenario.endsWith('http-400.ts')).length, 1, 'not retried');
});

test('408, 409 and 429 are retried by Temporal; a retry-after is honoured', async () => {
  // Each run's first model request is answered by the proxy with an error; later ones reach the model.
  const first = new Map<string, { status: number; headers?: Record<string, string> }>([
    [`${GOAL} (408)`, { status: 408 }],
    [`${GOAL} (409)`, { status: 409 }],
    [`${GOAL} (429)`, { status: 429 }],
    [`${GOAL} (429, retry-after: 3)`, { status: 429, headers: { 'retry-after': '3' } }],
  ]);
  h.model.intercept = (exchange) => {
    const goal = goalOf(exchange);
    const answer = first.get(goal);
    if (!answer || exchangesFor(goal).length > 1) return undefined;
    return { status: answer.status, ...(answer.headers ? { headers: answer.headers } : {}) };
  };
  try {
    const results = await Promise.all([...first.keys()].map((goal) => h.run({ goal, model: 'scripted:plan' })));
    for (const [i, [goal, answer]] of [...first].entries()) {
      const result = results[i]!;
      assert.equal(result.status, 'completed', goal);
      assert.equal(result.turns, 3);
      assert.deepEqual(exchangesFor(goal).map((e) => e.status), [answer.status, 200, 200, 200], `${goal}: answered ${answer.status}, then retried`);
      const history = await h.temporal.workflow.getHandle(result.runId).fetchHistory();
      const call = activities(history, 'callModel')[0]!;
      assert.equal(call.attempt, 2, `${goal}: the model call's second attempt completed`);
      assert.equal(call.closedAs, 'Completed');
      assert.match(call.lastFailure?.message ?? '', new RegExp(`^${answer.status} `), 'the retried failure is the HTTP error');
      const retryDelay = durationMs(call.lastFailure?.applicationFailureInfo?.nextRetryDelay);
      const waited = eventMs(call.started!) - eventMs(call.scheduled);
      if (answer.headers) {
        assert.equal(retryDelay, 3000, 'retry-after became the next retry delay');
        assert.ok(waited >= 3000, `the retry waited for retry-after (${waited} ms by the server's clock), not the 1 s backoff`);
      } else {
        assert.equal(retryDelay, 0, 'no retry-after: the retry policy decides');
      }
    }
  } finally {
    h.model.intercept = null;
  }
});

test('a model answering 500 twice then 200 completes', async () => {
  const result = await h.run({ goal: GOAL, model: scenario('flaky-500.ts') });
  assert.equal(result.status, 'completed');
  assert.equal(result.output, 'answered on attempt 3');
  assert.deepEqual(
    h.scripted.requests.filter((r) => r.scenario.endsWith('flaky-500.ts')).map((r) => r.status),
    [500, 500, 200],
  );
});

test('malformed arguments and an unknown tool go back to the model as errors and the run goes on', async () => {
  const result = await h.run({ goal: GOAL, model: scenario('bad-calls.ts') });
  assert.equal(result.status, 'completed');
  assert.equal(result.output, 'I was told about 3 errors.');
  assert.equal(result.toolCalls, 3);
  assert.equal(result.toolRuns, 0, 'nothing ran with bad arguments');
  const tools = (await h.agents.transcript(result.runId)).filter((m) => m.role === 'tool').map((m) => m.content);
  assert.match(tools[0]!, /^Error: the arguments for read_file are not valid JSON/);
  assert.equal(tools[1], `Error: unknown tool "delete_everything". The tools that exist are: ${[...contractsByName.keys()].join(', ')}.`);
  assert.match(tools[2]!, /^Error: invalid arguments for read_file: .*path/);
});

test('paths escaping the workspace are refused', async () => {
  const outside = path.join(h.dataDir, 'outside');
  mkdirSync(outside, { recursive: true });
  writeFileSync(path.join(outside, 'secret.txt'), 'TOP-SECRET');
  symlinkSync(outside, path.join(h.workspace, 'link'));
  const result = await h.run({ goal: GOAL, model: scenario('escape.ts') });
  assert.equal(result.status, 'completed');
  const tools = (await h.agents.transcript(result.runId)).filter((m) => m.role === 'tool').map((m) => m.content);
  assert.equal(tools.length, 3);
  assert.match(tools[0]!, /^Error: .*contains "\.\."/);
  assert.match(tools[1]!, /^Error: .*absolute path/);
  assert.match(tools[2]!, /^Error: .*outside the workspace/);
  for (const text of tools) assert.doesNotMatch(text, /TOP-SECRET/);
});

/** What the proxy saw for one run's main conversation (named by its goal). */
function exchangesFor(goal: string): ModelExchange[] {
  return h.model.exchanges.filter((e) => goalOf(e) === goal);
}

function goalOf(exchange: ModelExchange): string {
  return exchange.body.messages.find((m) => m.role === 'user')?.content ?? '';
}
