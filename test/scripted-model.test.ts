/** The scripted model server, through the real `openai` client, JSON and streaming. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import { startScriptedModelServer, type ScriptedModelServer } from '../src/scripted-model/server.ts';

let server: ScriptedModelServer;
let client: OpenAI;
before(async () => {
  server = await startScriptedModelServer({ scenarioDirs: [new URL('./scenarios', import.meta.url).pathname] });
  client = new OpenAI({ baseURL: server.baseUrl, apiKey: 'scripted', maxRetries: 0 });
});
after(() => server.close());

const messages = [
  { role: 'system' as const, content: 'be brief' },
  { role: 'user' as const, content: 'which file mentions a timeout?' },
];

test('JSON reply: tool call and usage = ceil(chars / 4)', async () => {
  const tools = [{ type: 'function' as const, function: { name: 'list_files', parameters: { type: 'object' } } }];
  const reply = await client.chat.completions.create({ model: 'scripted:plan', messages, tools });
  const message = reply.choices[0]!.message;
  assert.equal(reply.choices[0]!.finish_reason, 'tool_calls');
  assert.equal(message.tool_calls?.[0]?.type, 'function');
  assert.deepEqual(message.tool_calls?.[0]?.type === 'function' && message.tool_calls[0].function, { name: 'list_files', arguments: '{}' });
  assert.equal(reply.usage?.prompt_tokens, Math.ceil((JSON.stringify(messages).length + JSON.stringify(tools).length) / 4));
  assert.equal(reply.usage?.completion_tokens, Math.ceil(JSON.stringify(message).length / 4));
});

test('streamed reply reassembles to the same text and carries usage', async () => {
  const conversation = [
    ...messages,
    { role: 'assistant' as const, content: null, tool_calls: [{ id: 'c1', type: 'function' as const, function: { name: 'list_files', arguments: '{}' } }] },
    { role: 'tool' as const, tool_call_id: 'c1', content: 'errors.log' },
    { role: 'assistant' as const, content: null, tool_calls: [{ id: 'c2', type: 'function' as const, function: { name: 'read_file', arguments: '{}' } }] },
    { role: 'tool' as const, tool_call_id: 'c2', content: 'timeout' },
  ];
  const stream = await client.chat.completions.create({ model: 'scripted:plan', messages: conversation, stream: true, stream_options: { include_usage: true } });
  let text = '';
  let usage: OpenAI.CompletionUsage | undefined;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta.content ?? '';
    usage = chunk.usage ?? usage;
  }
  assert.equal(text, 'errors.log mentions a timeout: worker 7 timed out after 30000 ms.');
  assert.ok(usage && usage.prompt_tokens > 0 && usage.completion_tokens > 0);
});

test('a scenario that runs out fails loudly instead of answering nothing', async () => {
  const path = new URL('./scenarios/runs-out.ts', import.meta.url).pathname;
  await assert.rejects(client.chat.completions.create({ model: `scripted:${path}`, messages }), (error: unknown) => {
    assert.ok(error instanceof OpenAI.APIError);
    assert.equal(error.status, 422);
    assert.match(error.message, /has no reply for turn 0: the script ran out/);
    return true;
  });
});

test('an unknown scenario names the built-in ones', async () => {
  await assert.rejects(client.chat.completions.create({ model: 'scripted:nope', messages }), /Unknown scenario "nope"\. Built-in: plan, runaway, recover/);
});
