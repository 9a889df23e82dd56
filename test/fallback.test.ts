/**
 * Durable fallback across providers: two scripted model servers as providers of one worker; the primary
 * goes down mid-run and the run finishes on the fallback, the decision in history (replayed), each turn
 * priced by the model that served it. A rejected request does not fall back.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startScriptedModelServer, type ScriptedModelServer } from '../src/scripted-model/server.ts';
import { parseProvidersConfig } from '../src/providers/providers-file.ts';
import { FailureType } from '../src/wire/failures.ts';
import { activities } from './helpers/histories.ts';
import { scenario, startHarness, type Harness } from './helpers/harness.ts';

let h: Harness;
let primary: ScriptedModelServer;
let fallback: ScriptedModelServer;
const PRIMARY_PRICE = { inputPerMillion: 3, outputPerMillion: 15 };
const FALLBACK_PRICE = { inputPerMillion: 0.5, outputPerMillion: 1 };

before(async () => {
  const scenarioDirs = [new URL('./scenarios', import.meta.url).pathname];
  primary = await startScriptedModelServer({ scenarioDirs });
  fallback = await startScriptedModelServer({ scenarioDirs });
  const providers = parseProvidersConfig({
    providers: {
      primary: { baseUrl: primary.baseUrl, prices: { '*': { ...PRIMARY_PRICE } } },
      backup: { baseUrl: fallback.baseUrl, prices: { '*': { ...FALLBACK_PRICE } } },
    },
  });
  h = await startHarness('fallback', { worker: { providers } });
});
after(async () => {
  await h.replayAndClose();
  await primary.close();
  await fallback.close();
});

test('the primary goes down mid-run: the same turn goes to the fallback, and the run finishes there', async () => {
  // The primary answers the run's first call, then 503s (asking for a 10 ms wait, so its retries end quickly).
  primary.setOutage({ status: 503, headers: { 'retry-after-ms': '10' }, fromRequest: 2 });
  try {
    const result = await h.run({ goal: 'Which log file mentions a timeout?', model: 'primary/scripted:plan', fallbackModels: ['backup/scripted:plan'] });
    assert.equal(result.status, 'completed');
    assert.equal(result.output, 'errors.log mentions a timeout: worker 7 timed out after 30000 ms.');
    assert.equal(result.turns, 3);
    assert.deepEqual(primary.requests.map((r) => r.status), [200, 503, 503, 503, 503, 503, 503], 'one answer, then the 6 attempts of turn 2');
    assert.deepEqual(fallback.requests.map((r) => [r.turn, r.status]), [[1, 200], [2, 200]], 'turn 2 (asked again) and turn 3');

    const state = await h.agents.getState(result.runId);
    assert.deepEqual(state.perTurnModels, ['primary/scripted:plan', 'backup/scripted:plan', 'backup/scripted:plan']);
    const trace = await h.trace(result.runId);
    const fellBack = trace.filter((l) => l.type === 'model_fallback');
    assert.equal(fellBack.length, 1);
    assert.ok(fellBack[0]!.type === 'model_fallback');
    assert.deepEqual([fellBack[0]!.turn, fellBack[0]!.from, fellBack[0]!.to], [2, 'primary/scripted:plan', 'backup/scripted:plan']);
    assert.match(fellBack[0]!.error, /^503 /);
    // Each turn at its own model's price.
    const turns = trace.flatMap((l) => (l.type === 'turn' ? [l] : []));
    assert.deepEqual(turns.map((t) => t.model), state.perTurnModels);
    const cost = (t: (typeof turns)[number], p: typeof PRIMARY_PRICE) => (t.prompt_tokens * p.inputPerMillion + t.completion_tokens * p.outputPerMillion) / 1e6;
    const expected = cost(turns[0]!, PRIMARY_PRICE) + (turns[1]!.prompt_tokens + turns[2]!.prompt_tokens) * FALLBACK_PRICE.inputPerMillion / 1e6 + (turns[1]!.completion_tokens + turns[2]!.completion_tokens) * FALLBACK_PRICE.outputPerMillion / 1e6;
    assert.ok(Math.abs(state.costUsd - expected) < 1e-12, `cost ${state.costUsd} is each turn at its model's price (${expected})`);

    // The decision is in history: the model calls and their models, and the patch marker.
    const history = await h.temporal.workflow.getHandle(result.runId).fetchHistory();
    const calls = activities(history, 'callModel');
    assert.deepEqual(calls.map((c) => (c.input as { model: string }).model), ['primary/scripted:plan', 'primary/scripted:plan', 'backup/scripted:plan', 'backup/scripted:plan']);
    assert.deepEqual(calls.map((c) => c.closedAs), ['Completed', 'Failed', 'Completed', 'Completed']);
    assert.ok(history.events!.some((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch'));
  } finally {
    primary.setOutage(null);
  }
});

test('a rejected request does not fall back', async () => {
  const before = fallback.requests.length;
  const result = await h.run({ goal: 'Anything', model: `primary/${scenario('http-400.ts')}`, fallbackModels: [`backup/${scenario('http-400.ts')}`] });
  assert.equal(result.status, 'failed');
  assert.equal((await h.agents.getState(result.runId)).errorType, FailureType.modelRequestRejected);
  assert.equal(fallback.requests.length, before, 'the fallback was not asked');
  assert.ok(!(await h.trace(result.runId)).some((l) => l.type === 'model_fallback'));
});

test('a run without fallback models fails when its model is down, as before', async () => {
  primary.setOutage({ status: 503, headers: { 'retry-after-ms': '10' } });
  try {
    const result = await h.run({ goal: 'Anything at all', model: 'primary/scripted:plan' });
    assert.equal(result.status, 'failed');
    assert.equal((await h.agents.getState(result.runId)).errorType, FailureType.modelUnavailable);
    assert.equal((await h.agents.getState(result.runId)).perTurnModels, undefined);
  } finally {
    primary.setOutage(null);
  }
});
