/**
 * The Responses API as a second wire: the scripted model server speaks `/v1/responses` (JSON and the event
 * stream), and a provider with `kind: responses` runs the same scenarios to the same answers, its reasoning
 * items carried back turn after turn (the provider keeps no state). Real client, real Temporal, replayed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { startScriptedModelServer, type ScriptedModelServer } from '../src/scripted-model/server.ts';
import { parseProvidersConfig } from '../src/providers/providers-file.ts';
import { startHarness, type Harness } from './helpers/harness.ts';
import type { TraceLine } from '../src/wire/trace-events.ts';

const ANSWER = 'errors.log mentions a timeout: worker 7 timed out after 30000 ms.';
let server: ScriptedModelServer;
before(async () => {
  server = await startScriptedModelServer({ scenarioDirs: [new URL('./scenarios', import.meta.url).pathname] });
});
after(() => server.close());

describe('the scripted server over /v1/responses, through the real client', () => {
  test('JSON: a reasoning item with encrypted content, a function call, usage details', async () => {
    const client = new OpenAI({ baseURL: server.baseUrl, apiKey: 'k', maxRetries: 0 });
    const response = await client.responses.create({ model: 'scripted:plan', input: [{ role: 'user', content: 'which file mentions a timeout?' }], store: false });
    assert.deepEqual(response.output.map((i) => i.type), ['reasoning', 'function_call']);
    const call = response.output[1]!;
    assert.ok(call.type === 'function_call');
    assert.deepEqual([call.call_id, call.name, call.arguments], ['c1', 'list_files', '{}']);
    assert.ok(response.usage!.input_tokens > 0 && response.usage!.output_tokens > 0);
  });

  test('the event stream ends in the completed response; text comes as deltas', async () => {
    const client = new OpenAI({ baseURL: server.baseUrl, apiKey: 'k', maxRetries: 0 });
    const input = [
      { role: 'user' as const, content: 'which file mentions a timeout?' },
      { type: 'function_call' as const, call_id: 'c1', name: 'list_files', arguments: '{}' },
      { type: 'function_call_output' as const, call_id: 'c1', output: 'errors.log' },
      { type: 'function_call' as const, call_id: 'c2', name: 'read_file', arguments: '{"path":"errors.log"}' },
      { type: 'function_call_output' as const, call_id: 'c2', output: 'timeout' },
    ];
    const stream = await client.responses.create({ model: 'scripted:plan', input, stream: true });
    let text = '';
    let completed: OpenAI.Responses.Response | null = null;
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    assert.equal(text, ANSWER);
    const message = completed?.output.find((i) => i.type === 'message');
    assert.ok(message?.type === 'message');
    assert.deepEqual(message.content.map((c) => (c.type === 'output_text' ? c.text : c.refusal)), [ANSWER]);
  });
});

describe('runs on a kind: responses provider', () => {
  let h: Harness;
  let chatServer: ScriptedModelServer;
  before(async () => {
    chatServer = await startScriptedModelServer();
    const providers = parseProvidersConfig({ providers: { resp: { baseUrl: server.baseUrl, kind: 'responses' }, chat: { baseUrl: chatServer.baseUrl } } });
    h = await startHarness('responses', { worker: { providers } });
  });
  after(async () => {
    await h.replayAndClose();
    await chatServer.close();
  });

  for (const stream of [true, false]) {
    test(`the plan scenario completes as on the chat wire (${stream ? 'streamed' : 'JSON'}), reasoning items sent back each turn`, async () => {
      const goal = `Which log file mentions a timeout? (responses, ${stream ? 'streamed' : 'JSON'})`;
      const result = await h.run({ goal, model: 'resp/scripted:plan', stream });
      assert.equal(result.status, 'completed');
      assert.equal(result.output, ANSWER);
      assert.equal(result.turns, 3);
      const mine = server.requests.filter((r) => r.messages.some((m) => m.content === goal));
      assert.deepEqual(mine.map((r) => [r.wire, r.reasoningItemsSent]), [['responses', 0], ['responses', 1], ['responses', 2]]);
      const transcript = await h.agents.transcript(result.runId);
      const reasoning = transcript.flatMap((m) => (m.role === 'assistant' ? (m.reasoning ?? []) : []));
      assert.deepEqual(reasoning.map((r) => r.encryptedContent), ['scripted-reasoning-turn-0', 'scripted-reasoning-turn-1', 'scripted-reasoning-turn-2']);
      assert.deepEqual(droppedNotes(await h.trace(result.runId)), [], 'a Responses model is sent every reasoning item');
    });
  }

  test('a fallback from a Responses model to a chat model sends the chat model no reasoning items, and the trace notes it once', async () => {
    const goal = 'Which log file mentions a timeout? (responses then chat)';
    // The Responses provider answers the run's first call, then is down.
    server.setOutage({ status: 503, headers: { 'retry-after-ms': '10' }, fromRequest: server.requests.length + 2 });
    try {
      const result = await h.run({ goal, model: 'resp/scripted:plan', fallbackModels: ['chat/scripted:plan'] });
      assert.equal(result.status, 'completed');
      assert.equal(result.output, ANSWER);
      const state = await h.agents.getState(result.runId);
      assert.deepEqual(state.perTurnModels, ['resp/scripted:plan', 'chat/scripted:plan', 'chat/scripted:plan']);
      const served = chatServer.requests.filter((r) => r.messages.some((m) => m.content === goal));
      assert.deepEqual(served.map((r) => [r.wire ?? 'chat', r.turn]), [['chat', 1], ['chat', 2]]);
      for (const r of served) assert.ok(!JSON.stringify(r.messages).includes('scripted-reasoning'), 'no reasoning item reaches the chat model');
      // Turn 1's reasoning item is left out of turns 2 and 3: one note, at the first turn that drops it.
      const trace = await h.trace(result.runId);
      assert.deepEqual(droppedNotes(trace), [{ turn: 2, items: 1, model: 'chat/scripted:plan' }]);
      const fallback = trace.findIndex((l) => l.type === 'model_fallback');
      const note = trace.findIndex((l) => l.type === 'reasoning_dropped');
      assert.ok(fallback >= 0 && fallback < note, 'the note follows the fallback');
    } finally {
      server.setOutage(null);
    }
  });
});

/** The trace's `reasoning_dropped` notes. */
function droppedNotes(trace: TraceLine[]) {
  return trace.flatMap((l) => (l.type === 'reasoning_dropped' ? [{ turn: l.turn, items: l.items, model: l.model }] : []));
}
