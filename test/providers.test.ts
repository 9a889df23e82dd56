/**
 * Providers as configuration: the providers file (YAML or JSON, `${VAR}` from the environment) and its
 * errors, model naming (`provider/model`, bare names as before), prices by precedence; then runs through
 * a provider whose calls are rate limited on a task queue of its own, with its key in no history or trace.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startScriptedModelServer, type ScriptedModelServer } from '../src/scripted-model/server.ts';
import { loadProvidersFile, parseProvidersConfig, providersFromEnv, ProvidersConfigError } from '../src/providers/providers-file.ts';
import { isRefusal, routeModel, type ModelRoute, type RouteRefusal } from '../src/providers/model-route.ts';
import { modelQueueName } from '../src/providers/model-queues.ts';
import { LIST_PRICES } from '../src/providers/prices.ts';
import { DEFAULT_PRICE } from '../src/wire/pricing.ts';
import { FailureType } from '../src/wire/failures.ts';
import { activities, allPayloads } from './helpers/histories.ts';
import { AgentClient } from '../src/client/client.ts';
import { InvalidRunInputError } from '../src/client/run-input.ts';
import { startHarness, type Harness } from './helpers/harness.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'providers-'));
const file = (name: string, text: string) => {
  const at = path.join(dir, name);
  writeFileSync(at, text);
  return at;
};

describe('the providers file', () => {
  test('YAML with ${VAR} keys and headers; defaults filled in', () => {
    const at = file('p.yaml', ['providers:', '  openai:', '    apiKey: ${TEST_OPENAI_KEY}', '    headers: { OpenAI-Organization: "${TEST_ORG}" }', '  local:', '    baseUrl: http://127.0.0.1:11434/v1', '    kind: chat', '    prices: { "*": { inputPerMillion: 0, outputPerMillion: 0 } }', 'default: openai', ''].join('\n'));
    const config = loadProvidersFile(at, { TEST_OPENAI_KEY: 'sk-1', TEST_ORG: 'org-2' });
    assert.equal(config.default, 'openai');
    const openai = config.providers.get('openai')!;
    assert.equal(openai.apiKey, 'sk-1');
    assert.deepEqual(openai.headers, { 'OpenAI-Organization': 'org-2' });
    assert.equal(openai.kind, 'chat');
    assert.equal(openai.timeoutMs, 600_000);
    assert.equal(config.providers.get('local')!.baseUrl, 'http://127.0.0.1:11434/v1');
  });

  test('a key variable that is not set names the provider, the field and the variable', () => {
    const at = file('missing.json', JSON.stringify({ providers: { openai: { apiKey: '${NOT_SET_ANYWHERE}' } } }));
    assert.throws(() => providersFromEnv({ AGENT_PROVIDERS: at }), (error: unknown) => {
      assert.ok(error instanceof ProvidersConfigError);
      assert.match(error.message, /provider "openai": apiKey uses \$\{NOT_SET_ANYWHERE\}, which is not set in the worker's environment/);
      assert.ok(error.message.includes(at), 'names the file');
      return true;
    });
  });

  test('an unknown kind, an unknown field and a default that is not a provider are refused', () => {
    assert.throws(() => parseProvidersConfig({ providers: { x: { kind: 'completions' } } }), /kind must be one of chat, responses/);
    assert.throws(() => parseProvidersConfig({ providers: { x: { baseURL: 'http://h/v1' } } }), /baseURL/);
    assert.throws(() => parseProvidersConfig({ providers: { x: {} }, default: 'y' }), /`default` names a provider the file does not define/);
    assert.throws(() => loadProvidersFile(file('bad.yaml', 'providers: [')), /is not valid YAML/);
    assert.equal(providersFromEnv({}), null, 'no file: no providers');
  });
});

describe('model names and prices', () => {
  const providers = parseProvidersConfig({
    providers: {
      openai: { apiKey: 'sk-a', prices: { 'gpt-4.1': { inputPerMillion: 1, outputPerMillion: 2 } } },
      local: { baseUrl: 'http://127.0.0.1:11434/v1', prices: { '*': { inputPerMillion: 0, outputPerMillion: 0 } } },
    },
  });
  const route = (name: string, more: object = {}) => routeModel(name, { providers, ...more });
  const ok = (r: ModelRoute | RouteRefusal): ModelRoute => {
    assert.ok(!isRefusal(r), isRefusal(r) ? r.message : '');
    return r;
  };

  test('provider/model goes to that provider, the rest of the name as the model', () => {
    const r = ok(route('local/meta-llama/Llama-3.1-8B'));
    assert.deepEqual([r.provider, r.model, r.baseUrl, r.price], ['local', 'meta-llama/Llama-3.1-8B', 'http://127.0.0.1:11434/v1', { inputPerMillion: 0, outputPerMillion: 0 }]);
  });

  test('a provider price overrides the list; the list prices the rest, dated snapshots by family', () => {
    assert.deepEqual(ok(route('openai/gpt-4.1')).price, { inputPerMillion: 1, outputPerMillion: 2 });
    assert.deepEqual(ok(route('openai/gpt-4.1-mini-2025-04-14')).price, LIST_PRICES['gpt-4.1-mini']);
    assert.deepEqual(ok(route('openai/o4-mini')).price, LIST_PRICES['o4-mini']);
  });

  test('a bare name keeps its meaning: the OPENAI_BASE_URL provider; a "/" that names no provider is part of the name', () => {
    const r = ok(route('gpt-4o-mini', { providerApiKey: 'sk-env' }));
    assert.deepEqual([r.provider, r.model, r.apiKey], ['default', 'gpt-4o-mini', 'sk-env']);
    const refused = route('acme/gpt-4o');
    assert.ok(isRefusal(refused));
    assert.equal(refused.type, FailureType.providerUnknown);
    assert.match(refused.message, /"acme" is not a provider in AGENT_PROVIDERS, which defines openai, local/);
  });

  test('scripted models carry the seed\'s price; an unpriced model is refused naming where to set one', () => {
    assert.deepEqual(ok(route('scripted:plan', { scriptedBaseUrl: 'http://127.0.0.1:1/v1' })).price, DEFAULT_PRICE);
    const refused = route('openai/my-fine-tune');
    assert.ok(isRefusal(refused));
    assert.equal(refused.type, FailureType.modelPriceUnknown);
    assert.match(refused.message, /providers\.openai\.prices\["my-fine-tune"\]/);
  });
});

describe('runs through a rate-limited provider', () => {
  const KEY = 'sk-live-very-secret-key-0042';
  let h: Harness;
  let limited: ScriptedModelServer;
  before(async () => {
    limited = await startScriptedModelServer();
    const providers = parseProvidersConfig(
      { providers: { slow: { baseUrl: limited.baseUrl, apiKey: '${SLOW_KEY}', callsPerSecond: 5, maxConcurrentCalls: 2 } } },
      { SLOW_KEY: KEY },
    );
    h = await startHarness('providers', { worker: { providers } });
  });
  after(async () => {
    await h.replayAndClose();
    await limited.close();
  });

  test('its model calls go to its own task queue; its key is in no history and no trace', async () => {
    const results = await Promise.all([1, 2, 3].map((n) => h.run({ goal: `Which log file mentions a timeout? (${n})`, model: 'slow/scripted:plan' })));
    for (const result of results) {
      assert.equal(result.status, 'completed');
      const history = await h.temporal.workflow.getHandle(result.runId).fetchHistory();
      const queues = activities(history, 'callModel').map((c) => c.scheduled.activityTaskScheduledEventAttributes?.taskQueue?.name);
      assert.deepEqual(queues, Array(3).fill(modelQueueName(h.taskQueue, 'slow')));
      // Every payload, decoded (inputs, results, markers, memos): the model calls' inputs name the model, not its key.
      const payloads = allPayloads(history).map(({ payload }) => Buffer.from(payload.data ?? []).toString('utf8'));
      assert.ok(payloads.some((text) => text.includes('slow/scripted:plan')), 'the payloads are readable here');
      assert.ok(!payloads.some((text) => text.includes(KEY)), 'the key is not in history');
      assert.ok(!JSON.stringify(await h.trace(result.runId)).includes(KEY), 'the key is not in the trace');
    }
    assert.equal(limited.requests.length, 9);
  });

  test('a client that knows the providers file refuses a model with no price before the run starts', async () => {
    const providers = parseProvidersConfig({ providers: { slow: { baseUrl: limited.baseUrl } } });
    const client = new AgentClient(h.temporal, { taskQueue: h.taskQueue, workspaceRoots: [h.dataDir], providers });
    await assert.rejects(client.startRun({ goal: 'Anything', model: 'scripted:plan', fallbackModels: ['slow/llama3.1'] }), (error: unknown) => {
      assert.ok(error instanceof InvalidRunInputError);
      assert.equal(error.field, 'model');
      assert.match(error.message, /Model "slow\/llama3\.1" has no known price/);
      return true;
    });
  });
});
