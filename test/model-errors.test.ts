/**
 * Provider errors as failures that say what to do, each its own type in the run's state and trace; the
 * retry delays providers ask for; cached and reasoning tokens read and priced; a model with no price refused
 * before anything is sent. Real openai client, real scripted model servers, real Temporal.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ApplicationFailure } from '@temporalio/common';
import OpenAI from 'openai';
import { startScriptedModelServer, type ScriptedModelServer } from '../src/scripted-model/server.ts';
import { isContextTooLong, modelFailure, retryDelayMs } from '../src/providers/model-errors.ts';
import { parseProvidersConfig } from '../src/providers/providers-file.ts';
import { FailureType } from '../src/wire/failures.ts';
import { scenario, startHarness, type Harness } from './helpers/harness.ts';

const SAYS = scenario('provider-says.ts');
const KEY = 'sk-test-secret-0123456789';

describe('a provider error, through the real client, as a failure', () => {
  let server: ScriptedModelServer;
  let client: OpenAI;
  before(async () => {
    server = await startScriptedModelServer({ scenarioDirs: [new URL('./scenarios', import.meta.url).pathname] });
    client = new OpenAI({ baseURL: server.baseUrl, apiKey: KEY, maxRetries: 0 });
  });
  after(() => server.close());

  const failureFor = async (word: string): Promise<ApplicationFailure> => {
    const error = await client.chat.completions.create({ model: SAYS, messages: [{ role: 'user', content: `[${word}]` }] }).then(
      () => assert.fail('the request should fail'),
      (e: unknown) => e,
    );
    const failure = modelFailure(error, { provider: 'acme', model: 'gpt-x', apiKey: KEY });
    assert.ok(failure instanceof ApplicationFailure, `${word}: an ApplicationFailure`);
    return failure;
  };

  test('401: the key for the provider was refused, the key itself masked', async () => {
    const failure = await failureFor('bad-key');
    assert.equal(failure.type, FailureType.modelAuthRejected);
    assert.equal(failure.nonRetryable, true);
    assert.match(failure.message, /^The key for provider "acme" was refused \(401 Incorrect API key provided: \*\*\*\./);
    assert.ok(!failure.message.includes(KEY), 'the key is not in the message');
  });

  test('context too long: OpenAI code and a llama.cpp wording', async () => {
    for (const word of ['openai-context', 'llama-context']) {
      const failure = await failureFor(word);
      assert.equal(failure.type, FailureType.contextTooLong, word);
      assert.equal(failure.nonRetryable, true);
      assert.match(failure.message, /^The conversation is longer than model "gpt-x" of provider "acme" accepts/);
    }
  });

  test('404 names the model and the provider; 400 keeps the provider message', async () => {
    const missing = await failureFor('no-model');
    assert.equal(missing.type, FailureType.modelNotFound);
    assert.match(missing.message, /^Model "gpt-x" was not found at provider "acme" \(404 The model `gpt-9` does not exist/);
    const bad = await failureFor('bad-request');
    assert.equal(bad.type, FailureType.modelRequestRejected);
    assert.equal(bad.nonRetryable, true);
    assert.match(bad.message, /Invalid type for 'messages\[0\]\.content'/);
  });

  test('429: retry-after-ms wins over retry-after; x-should-retry overrides the status both ways', async () => {
    const slow = await failureFor('slow-down');
    assert.equal(slow.type, FailureType.modelUnavailable);
    assert.equal(slow.nonRetryable, false);
    assert.equal(slow.nextRetryDelay, 250);
    const stop = await failureFor('do-not-retry');
    assert.equal(stop.type, FailureType.modelUnavailable);
    assert.equal(stop.nonRetryable, true, 'x-should-retry: false on a 503');
    const go = await failureFor('do-retry');
    assert.equal(go.type, FailureType.modelUnavailable);
    assert.equal(go.nonRetryable, false, 'x-should-retry: true on a 400');
  });

  test('retry-after as seconds and as an HTTP date', () => {
    assert.equal(retryDelayMs(new Headers({ 'retry-after': '2' })), 2000);
    assert.equal(retryDelayMs(new Headers({ 'retry-after': new Date(10_000 + 5000).toUTCString() }), 10_000), 5000);
    assert.equal(retryDelayMs(new Headers({})), undefined);
    assert.equal(retryDelayMs(new Headers({ 'retry-after': 'soon' })), undefined);
  });

  test('context-too-long wordings of other servers; a plain 400 is not one', () => {
    assert.ok(isContextTooLong(400, null, "This model's maximum context length is 8192 tokens."));
    assert.ok(isContextTooLong(400, null, 'prompt is too long: 210000 tokens > 200000 maximum'));
    assert.ok(isContextTooLong(400, null, 'input length exceeds the context length'));
    assert.ok(isContextTooLong(413, null, 'Request Entity Too Large'));
    assert.ok(!isContextTooLong(400, null, 'Invalid value for temperature.'));
    assert.ok(!isContextTooLong(500, null, 'maximum context length'), 'a server error is not the caller\'s context');
  });
});

describe('runs', () => {
  let h: Harness;
  let provider: ScriptedModelServer;
  before(async () => {
    provider = await startScriptedModelServer({ scenarioDirs: [new URL('./scenarios', import.meta.url).pathname] });
    const providers = parseProvidersConfig({
      providers: {
        // A local server whose models have no price: refused before anything is sent.
        local: { baseUrl: provider.baseUrl },
        priced: { baseUrl: provider.baseUrl, prices: { [SAYS]: { inputPerMillion: 1, cachedInputPerMillion: 0.1, outputPerMillion: 4 } } },
      },
    });
    h = await startHarness('model-errors', { worker: { providers } });
  });
  after(async () => {
    await h.replayAndClose();
    await provider.close();
  });

  for (const [word, type] of [
    ['openai-context', FailureType.contextTooLong],
    ['bad-key', FailureType.modelAuthRejected],
    ['no-model', FailureType.modelNotFound],
    ['refusal', FailureType.modelRefused],
  ] as const) {
    test(`[${word}] ends the run failed with ${type} in its state and trace, not retried`, async () => {
      const goal = `Say something [${word}]`;
      const result = await h.run({ goal, model: SAYS, stream: word === 'refusal' });
      assert.equal(result.status, 'failed');
      assert.equal(result.reason, 'model_error');
      const state = await h.agents.getState(result.runId);
      assert.equal(state.errorType, type);
      const stopped = (await h.trace(result.runId)).at(-1)!;
      assert.ok(stopped.type === 'run_stopped');
      assert.equal(stopped.errorType, type);
      // A context refusal is not retried as it is: the run compacts its conversation and asks once more (`compaction.ts`).
      const asked = word === 'openai-context' ? 2 : 1;
      assert.equal(h.scripted.requests.filter((r) => r.messages.some((m) => m.content === goal)).length, asked, 'not retried');
    });
  }

  test('cached and reasoning tokens are read, and cached input priced at its rate', async () => {
    const result = await h.run({ goal: 'Answer [cached]', model: `priced/${SAYS}` });
    assert.equal(result.status, 'completed');
    const state = await h.agents.getState(result.runId);
    assert.deepEqual(state.usage, { promptTokens: 10_000, completionTokens: 2_000, cachedPromptTokens: 8_000, reasoningTokens: 1_500 });
    // 2,000 uncached at $1, 8,000 cached at $0.10, 2,000 output at $4 (reasoning included) per million.
    assert.equal(state.costUsd, (2_000 * 1 + 8_000 * 0.1 + 2_000 * 4) / 1e6);
    const turn = (await h.trace(result.runId)).find((l) => l.type === 'turn')!;
    assert.ok(turn.type === 'turn');
    assert.equal(turn.cached_tokens, 8_000);
    assert.equal(turn.reasoning_tokens, 1_500);
  });

  test('a model with no known price fails at its first step, naming it and where to set a price; nothing is sent', async () => {
    const before = provider.requests.length;
    const result = await h.run({ goal: 'Answer [cached]', model: 'local/llama3.1' });
    assert.equal(result.status, 'failed');
    assert.equal(result.turns, 0);
    assert.match(result.error!, /^Model "local\/llama3\.1" has no known price, .*providers\.local\.prices\["llama3\.1"\]/);
    assert.equal((await h.agents.getState(result.runId)).errorType, FailureType.modelPriceUnknown);
    assert.equal(provider.requests.length, before, 'no request reached the provider');
  });
});
