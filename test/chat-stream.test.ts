/**
 * Streams shaped like real providers' (not our scripted server's), over real HTTP through the real openai
 * client: tool-call arguments split over many chunks, calls interleaved by index, a final usage-only chunk
 * with empty choices, refusal deltas, reasoning_content, parts without index or delta.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import { streamedChat } from '../src/providers/chat-stream.ts';
import { checkedReply } from '../src/providers/chat-reply.ts';
import { FailureType } from '../src/wire/failures.ts';
import { ApplicationFailure } from '@temporalio/common';

/** The chunks the next request is answered with (each one `data:` line). */
let chunks: object[] = [];
let server: Server;
let client: OpenAI;
before(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const chunk of chunks) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new OpenAI({ baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, apiKey: 'k', maxRetries: 0 });
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm' };
const choice = (delta: object, finish_reason: string | null = null, index = 0) => ({ ...base, choices: [{ index, delta, finish_reason }] });
const request = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };
const stream = async (sent: object[]) => {
  chunks = sent;
  let text = '';
  const reply = await streamedChat(client, request, new AbortController().signal, (t) => (text += t));
  return { reply, text };
};

test("OpenAI's shape: two tool calls interleaved by index, arguments in many pieces, a usage-only last chunk with details", async () => {
  const { reply } = await stream([
    choice({ role: 'assistant', content: null }),
    choice({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '' } }] }),
    choice({ tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'list_files', arguments: '' } }] }),
    choice({ tool_calls: [{ index: 0, function: { arguments: '{"pa' } }] }),
    choice({ tool_calls: [{ index: 1, function: { arguments: '{' } }] }),
    choice({ tool_calls: [{ index: 0, function: { arguments: 'th":"errors' } }] }),
    choice({ tool_calls: [{ index: 1, function: { arguments: '}' } }] }),
    choice({ tool_calls: [{ index: 0, function: { arguments: '.log"}' } }] }),
    choice({}, 'tool_calls'),
    { ...base, choices: [], usage: { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150, prompt_tokens_details: { cached_tokens: 64 }, completion_tokens_details: { reasoning_tokens: 12 } } },
  ]);
  assert.deepEqual(reply.message.tool_calls, [
    { id: 'call_a', name: 'read_file', arguments: '{"path":"errors.log"}' },
    { id: 'call_b', name: 'list_files', arguments: '{}' },
  ]);
  assert.equal(reply.message.content, null);
  assert.equal(reply.finishReason, 'tool_calls');
  assert.deepEqual(reply.usage, { promptTokens: 120, completionTokens: 30, cachedPromptTokens: 64, reasoningTokens: 12 });
});

test('reasoning_content (DeepSeek, vLLM) is not part of the answer; the text streams as it comes', async () => {
  const { reply, text } = await stream([
    choice({ role: 'assistant', reasoning_content: 'The user greets; ' }),
    choice({ reasoning_content: 'answer briefly.' }),
    choice({ content: 'Hel' }),
    choice({ content: 'lo!' }),
    choice({}, 'stop'),
  ]);
  assert.equal(reply.message.content, 'Hello!');
  assert.equal(text, 'Hello!');
});

test('refusal deltas make a refusal: the reply is refused, as ModelRefused', async () => {
  const { reply } = await stream([choice({ role: 'assistant', refusal: "I'm sorry, " }), choice({ refusal: "I can't help with that." }), choice({}, 'stop')]);
  assert.equal(reply.refusal, "I'm sorry, I can't help with that.");
  assert.throws(
    () => checkedReply({ provider: 'p', model: 'm' }, reply),
    (error: unknown) => error instanceof ApplicationFailure && error.type === FailureType.modelRefused && /refused: I'm sorry, I can't help with that\./.test(error.message),
  );
});

test('servers that omit index, repeat the name, or send a finish chunk without delta', async () => {
  const { reply } = await stream([
    choice({ tool_calls: [{ id: 'x1', type: 'function', function: { name: 'read_file', arguments: '{"path":' } }] }),
    choice({ tool_calls: [{ function: { name: 'read_file', arguments: '"a.txt"}' } }] }),
    choice({ tool_calls: [{ id: 'x2', type: 'function', function: { name: 'list_files', arguments: '{}' } }] }),
    { ...base, choices: [{ index: 0, finish_reason: 'tool_calls' }] },
  ]);
  assert.deepEqual(reply.message.tool_calls, [
    { id: 'x1', name: 'read_file', arguments: '{"path":"a.txt"}' },
    { id: 'x2', name: 'list_files', arguments: '{}' },
  ]);
  assert.equal(reply.finishReason, 'tool_calls');
});
