/**
 * Runs that outlive the model's context window (docs/context.md): the scripted model enforces an 8k-token
 * window (test/scenarios/long-reads.ts) and every tool result is 4 KB.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { contextRefusal } from '../activities/context-errors.ts';
import { elidable, summarisable, summaryMessage, turnsCovered } from '../activities/compaction-plan.ts';
import { isSummaryRequest, type ScriptedMessage } from '../src/scripted-model/scenario.ts';
import type { ChatMessage } from '../src/wire/types.ts';
import type { TraceLine } from '../src/wire/trace-events.ts';
import { AgentClient } from '../src/client/client.ts';
import { recordRun } from '../src/recording/record.ts';
import { replayRecording } from '../src/recording/replay.ts';
import { renderReplayReport } from '../src/recording/report.ts';
import { loadRecording } from '../src/recording/schema.ts';
import { createAgentWorker } from '../src/worker/worker.ts';
import { eventually } from './helpers/eventually.ts';
import { spawnWorker } from './helpers/worker-process.ts';
import { scenario, startHarness, type Harness } from './helpers/harness.ts';

const MODEL = scenario('long-reads.ts');
const WINDOW = 8000;
/** A long run repeats no call, but its results look alike and its turns are many. */
const LONG = { maxTurns: 400, maxBudgetUsd: 50, maxRepeatedCalls: 0, maxStaleTurns: 0 };
const FILES = 300;

let h: Harness;
before(async () => {
  h = await startHarness('compaction');
  mkdirSync(path.join(h.workspace, 'notes'));
  for (let i = 0; i < FILES; i++) writeFileSync(path.join(h.workspace, 'notes', `n${i}.txt`), noteText(i));
});
after(() => h.replayAndClose());

/** 4 KB of notes, different for each file. */
function noteText(i: number): string {
  const line = `note ${i}: ${'abcdefghij'.repeat(6)}\n`;
  return `first line of n${i}\n${line.repeat(Math.ceil(4096 / line.length))}`.slice(0, 4096);
}

const compactions = (trace: TraceLine[]) => trace.flatMap((l) => (l.type === 'compacted' ? [l] : []));
const requestsOf = (goal: string) => h.scripted.requests.filter((r) => r.messages.find((m) => m.role === 'user')?.content === goal);
const tokensOf = (messages: ScriptedMessage[]) => Math.ceil(JSON.stringify(messages).length / 4);

describe('a 120-turn run with 4 KB tool results behind an 8k window', () => {
  test('completes with compaction: old results elided, older turns summarised, every request under the window', async () => {
    const goal = 'Read 120 files.';
    const result = await h.run({ goal, model: MODEL, tools: ['read_file'], limits: { ...LONG, contextTokens: WINDOW } });
    assert.equal(result.status, 'completed', result.error ?? '');
    assert.equal(result.output, 'read 120 files');
    assert.equal(result.toolRuns, 120, 'every read ran');
    const trace = await h.trace(result.runId);
    const compacted = compactions(trace);
    assert.ok(compacted.some((c) => c.elided > 0), 'tool results were elided');
    assert.ok(compacted.some((c) => c.summarised > 0), 'older turns were summarised');
    const summaries = h.scripted.requests.filter((r) => isSummaryRequest(r.messages) && r.messages.at(-1)?.content?.includes('notes/n0.txt'));
    assert.ok(summaries.length >= 1, 'the summary call was sent the oldest turns');
    for (const c of compacted) {
      assert.equal(c.why, 'budget');
      assert.ok(c.tokensAfter < c.tokensBefore, `compaction shrank the request (${c.tokensBefore} → ${c.tokensAfter})`);
    }
    // The model server refused nothing: every request fit.
    const requests = requestsOf(goal);
    assert.ok(requests.every((r) => r.status === 200));
    const turnRequests = requests.filter((r) => !isSummaryRequest(r.messages));
    assert.equal(turnRequests.length, 121);
    const { perTurnPromptTokens } = await h.agents.getState(result.runId);
    assert.ok(Math.max(...perTurnPromptTokens) <= WINDOW, `largest prompt ${Math.max(...perTurnPromptTokens)}`);
    // The summary calls were priced: the run's usage is its turns' and its summaries'.
    const summaryCost = compacted.reduce((sum, c) => sum + c.costUsd, 0);
    assert.ok(summaryCost > 0);
    assert.ok(result.usage.promptTokens > perTurnPromptTokens.reduce((a, b) => a + b, 0), 'summary tokens counted');
    // The trace still has every tool run (the receipt reads it, not the transcript).
    assert.equal(trace.filter((l) => l.type === 'tool_result').length, 120);
  });

  test('the same run with compaction off fails with the provider\'s error', async () => {
    const goal = 'Read 120 files, without compaction.';
    const result = await h.run({ goal, model: MODEL, tools: ['read_file'], limits: { ...LONG, contextTokens: WINDOW, compaction: 'off' } });
    assert.equal(result.status, 'failed');
    assert.equal(result.reason, 'model_error');
    assert.match(result.error ?? '', /maximum context length is 8000 tokens/);
    assert.ok(result.turns < 10, `failed early (turn ${result.turns})`);
    assert.equal(compactions(await h.trace(result.runId)).length, 0);
    assert.equal(requestsOf(goal).at(-1)?.status, 400);
  });
});

test('elided results are stubs naming their kept output, and recall_output reads one back', async () => {
  const goal = 'Read 8 files, then recall.';
  const result = await h.run({ goal, model: MODEL, tools: ['read_file'], limits: { ...LONG, contextTokens: WINDOW } });
  assert.equal(result.status, 'completed', result.error ?? '');
  assert.equal(result.output, 'recalled: first line of n0');
  const requests = requestsOf(goal);
  const last = requests.at(-1)!.messages;
  const stub = last.find((m) => m.role === 'tool' && m.content?.startsWith('[Elided'))!;
  const ref = `output:${createHash('sha256').update(noteText(0)).digest('hex')}`;
  assert.ok(stub.content!.includes(ref), `the stub names the kept output: ${stub.content}`);
  assert.match(stub.content!, /read_file \(call c0\), 4096 characters/);
  assert.equal(await h.store.getOutput(ref), noteText(0));
  // The model was offered recall_output once something was elided, and the trace shows its run.
  const trace = await h.trace(result.runId);
  assert.ok(trace.some((l) => l.type === 'tool_result' && l.toolName === 'recall_output' && l.ok));
  assert.equal(last.at(-1)!.content, noteText(0), 'the recalled text is the whole output');
});

test('a provider refusal for context compacts once and calls again', async () => {
  // No contextTokens: the harness does not know the scripted model's window, so only the 400 tells it.
  const goal = 'Read 12 files.';
  const result = await h.run({ goal, model: MODEL, tools: ['read_file'], limits: LONG });
  assert.equal(result.status, 'completed', result.error ?? '');
  assert.equal(result.output, 'read 12 files');
  const compacted = compactions(await h.trace(result.runId));
  assert.ok(compacted.length >= 1);
  for (const c of compacted) {
    assert.equal(c.why, 'provider');
    assert.equal(c.windowTokens, WINDOW, 'the window read off the refusal');
    assert.ok(c.tokensAfter <= WINDOW * 0.75, `compacted under the target (${c.tokensAfter})`);
  }
  const refused = requestsOf(goal).filter((r) => r.status === 400);
  assert.equal(refused.length, compacted.length, 'one refusal per compaction: each retry fit');
  for (const r of refused) assert.ok(tokensOf(r.messages) > WINDOW - 1000);
});

test('continue-as-new right after a compaction goes on from the compacted conversation', async () => {
  const goal = 'Read 20 files.';
  const result = await h.run({ goal, model: MODEL, tools: ['read_file'], limits: LONG, continueAsNewEveryTurns: 1 });
  assert.equal(result.status, 'completed', result.error ?? '');
  assert.equal(result.output, 'read 20 files');
  const trace = await h.trace(result.runId);
  const compacted = compactions(trace);
  assert.ok(compacted.length >= 1);
  // Each compaction is followed, at the next turn, by a new execution.
  const at = trace.findIndex((l) => l.type === 'compacted');
  assert.ok(trace.slice(at).some((l) => l.type === 'continued_as_new'));
  // Had a new execution gone back to the whole transcript, the model would have refused it again.
  assert.equal(requestsOf(goal).filter((r) => r.status === 400).length, compacted.length);
  const executions = (await h.histories()).filter((e) => e.workflowId === result.runId);
  assert.ok(executions.length >= 20, `${executions.length} executions`);
});

test('a run cancelled during its summary call stops cleanly (the summary asked for with the run\'s own prompt)', async () => {
  const goal = 'Read 12 files, summarised slowly.';
  // The scenario's summary takes 30 s when its prompt says "slowly".
  const summaryPrompt = 'Summarise the conversation slowly.';
  const { runId } = await h.agents.startRun({ goal, model: MODEL, tools: ['read_file'], limits: LONG, summaryPrompt, workspace: h.workspace });
  const summary = await eventually(() => h.scripted.requests.find((r) => isSummaryRequest(r.messages) && r.messages[0]?.content === summaryPrompt), 'the summary call to start', 60_000);
  await h.agents.cancelRun(runId, 'stop during the summary');
  const result = await h.agents.result(runId);
  assert.equal(result.status, 'interrupted');
  assert.deepEqual(result.interruption, { type: 'cancelled', reason: 'stop during the summary' });
  await eventually(() => summary.aborted || undefined, 'the summary request to be aborted');
  const trace = await h.trace(runId);
  assert.equal(compactions(trace).length, 0, 'no compaction was recorded');
  assert.equal(trace.at(-1)?.type, 'run_stopped');
});

test('record → replay of a compacted run is the same: the replay compacts where the run did, with the recorded summaries', async () => {
  const goal = 'Read 30 files.';
  const result = await h.run({ goal, model: MODEL, tools: ['read_file'], limits: { ...LONG, contextTokens: WINDOW } });
  assert.equal(result.status, 'completed', result.error ?? '');
  const compacted = compactions(await h.trace(result.runId));
  assert.ok(compacted.some((c) => c.summarised > 0) && compacted.some((c) => c.elided > 0));

  const dir = path.join(h.dataDir, 'recordings');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'compacted.json');
  writeFileSync(file, JSON.stringify(await recordRun({ agents: h.agents, store: h.store }, result.runId), null, 2));
  const recording = loadRecording(file);
  assert.deepEqual(recording.gaps, [], 'a call that led to a compaction is no gap');
  assert.equal(recording.summaries?.length, compacted.filter((c) => c.summarised > 0).length);

  // A worker whose scripted model may read the recording (and no scenario).
  const taskQueue = `${h.taskQueue}-replay`;
  const worker = await createAgentWorker({
    ...h.workerBase(),
    taskQueue,
    scriptedModel: { scenarioDirs: [], recordingDirs: [dir] },
  });
  const running = worker.run();
  try {
    const agents = new AgentClient(h.temporal, { taskQueue, workspaceRoots: [h.dataDir] });
    const { report, result: replayed, runId } = await replayRecording({ agents, store: h.store }, recording, { file, workspace: h.workspace, pollMs: 20 });
    assert.ok(report.same, renderReplayReport(report));
    assert.equal(replayed.output, result.output);
    assert.equal(replayed.totalCostUsd, result.totalCostUsd, 'the recorded usage, summaries included, is replayed');
    const again = compactions(await h.trace(runId));
    assert.deepEqual(
      again.map(({ why, tokensBefore, tokensAfter, elided, summarised }) => ({ why, tokensBefore, tokensAfter, elided, summarised })),
      compacted.map(({ why, tokensBefore, tokensAfter, elided, summarised }) => ({ why, tokensBefore, tokensAfter, elided, summarised })),
      'the replay compacted at the same points, to the same sizes',
    );
    assert.deepEqual(h.scripted.divergences, []);
  } finally {
    worker.shutdown();
    await running;
  }
});

test('a worker SIGKILLed during a summary call: the compaction is retried on a new worker and the run completes', async () => {
  const goal = 'Read 12 files, with a crash during the summary.';
  const summaryPrompt = 'Summarise the conversation slowly once.';
  await h.stopWorker(); // worker processes only, so the kill hits the worker that runs the summary call
  let worker = await spawnWorker(h);
  try {
    const { runId } = await h.agents.startRun({ goal, model: MODEL, tools: ['read_file'], limits: LONG, summaryPrompt, workspace: h.workspace });
    const cut = await eventually(() => h.scripted.requests.find((r) => isSummaryRequest(r.messages) && r.messages[0]?.content === summaryPrompt), 'the summary call to start', 60_000);
    await worker.kill();
    worker = await spawnWorker(h);
    const result = await h.agents.result(runId);
    assert.equal(result.status, 'completed', result.error ?? '');
    assert.equal(result.output, 'read 12 files');
    assert.equal(result.toolRuns, 12);
    await eventually(() => cut.aborted || undefined, 'the cut summary request to show as aborted');
    const summaries = h.scripted.requests.filter((r) => isSummaryRequest(r.messages) && r.messages[0]?.content === summaryPrompt);
    assert.ok(summaries.length >= 2, 'the summary call was made again');
    const compacted = compactions(await h.trace(runId));
    assert.equal(compacted.length, summaries.length - 1, 'each compaction recorded once: the cut one once it was redone');
  } finally {
    await worker.kill();
    await h.startWorker();
  }
});

describe('pure parts', () => {
  test('context refusals: OpenAI\'s code and other servers\' wordings, with their figures; other 400s are not', () => {
    const refusal = (status: number, message: string, code?: string) => contextRefusal(new OpenAI.APIError(status, { message, ...(code ? { code } : {}) }, message, new Headers()));
    assert.deepEqual(refusal(400, "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.", 'context_length_exceeded'), { windowTokens: 8192, requestedTokens: 9000 });
    assert.deepEqual(refusal(400, 'prompt is too long: 210000 tokens > 200000 maximum'), { requestedTokens: 210000 });
    assert.deepEqual(refusal(400, 'the request exceeds the available context size, try increasing it'), {});
    assert.ok(refusal(400, 'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 5000 `inputs` tokens', 'context_window_exceeded'));
    assert.equal(refusal(400, 'Invalid value for temperature'), null);
    assert.equal(refusal(500, 'maximum context length is 8192 tokens'), null, 'a server error is retried, not compacted');
  });

  test('the plan: the opening and the last K turns are kept, a person\'s answers never elided, a lone summary not summarised again', () => {
    const big = 'x'.repeat(4000);
    const turn = (n: number, tool = 'read_file'): ChatMessage[] => [
      { role: 'assistant', content: null, tool_calls: [{ id: `c${n}`, name: tool, arguments: '{}' }] },
      { role: 'tool', tool_call_id: `c${n}`, name: tool, content: big },
    ];
    const messages: ChatMessage[] = [{ role: 'system', content: 's' }, { role: 'user', content: 'goal' }, ...turn(0), ...turn(1, 'ask_user'), ...turn(2), ...turn(3), ...turn(4), ...turn(5)];
    assert.deepEqual(elidable(messages, 4), [3], 'turn 0 only: turn 1 is a person\'s answer, turns 2-5 are kept');
    assert.deepEqual(summarisable(messages, 4), { from: 2, to: 6 });
    assert.equal(turnsCovered(messages, 2, 6), 2);
    const summarised = [...messages.slice(0, 2), summaryMessage(2, 'S'), ...messages.slice(6)];
    assert.equal(summarisable(summarised, 4), null);
    assert.equal(turnsCovered([...summarised.slice(0, 5), ...summarised.slice(3)], 2, 5), 3, 'an earlier summary\'s turns count');
  });
});
