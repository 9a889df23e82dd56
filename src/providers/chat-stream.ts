/**
 * A streamed Chat Completions reply, put together from the chunks real providers send: text in pieces,
 * tool-call arguments split over many chunks and several calls interleaved by `index`, a final usage-only
 * chunk with empty `choices`, `refusal` deltas, and `reasoning_content` (OpenAI-compatible servers' reasoning
 * text: not part of the answer, left out). Tolerant of servers that omit `delta` or a call's `index`.
 */
import type OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ModelReply, ToolCall } from '../wire/types.ts';
import { usageOf } from './chat-reply.ts';

export type ChatRequest = { model: string; messages: ChatCompletionMessageParam[]; tools?: ChatCompletionTool[] };

/** The reply as the provider sent it; `refusal` is checked before it is accepted (`chat-reply.ts`). */
export type RawReply = Omit<ModelReply, 'modelMs'> & { refusal?: string };

export async function streamedChat(client: OpenAI, request: ChatRequest, signal: AbortSignal, onText: (text: string) => void): Promise<RawReply> {
  const stream = await client.chat.completions.create({ ...request, stream: true, stream_options: { include_usage: true } }, { signal });
  const reply = new ChatStreamReply(onText);
  for await (const chunk of stream) reply.add(chunk);
  return reply.result();
}

/** The chunks of one reply, added in order. */
export class ChatStreamReply {
  private content = '';
  private sawContent = false;
  private finishReason = 'stop';
  private usage: ModelReply['usage'] = { promptTokens: 0, completionTokens: 0 };
  private refusal = '';
  private readonly calls = new Map<number, ToolCall>();
  private readonly onText: (text: string) => void;

  constructor(onText: (text: string) => void = () => {}) {
    this.onText = onText;
  }

  add(chunk: ChatCompletionChunk): void {
    if (chunk.usage) this.usage = usageOf(chunk.usage);
    for (const choice of chunk.choices ?? []) {
      // Only the first choice is the reply (the harness asks for one).
      if (choice.index !== undefined && choice.index !== 0) continue;
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
      const delta = choice.delta ?? {};
      if (delta.refusal) this.refusal += delta.refusal;
      if (delta.content) {
        this.onText(delta.content);
        this.content += delta.content;
        this.sawContent = true;
      }
      for (const part of delta.tool_calls ?? []) this.addCall(part);
    }
  }

  result(): RawReply {
    const toolCalls = [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
    return {
      message: { role: 'assistant', content: this.sawContent ? this.content : null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
      usage: this.usage,
      finishReason: this.finishReason,
      ...(this.refusal ? { refusal: this.refusal } : {}),
    };
  }

  private addCall(part: ChatCompletionChunk.Choice.Delta.ToolCall): void {
    // No index (some servers): a part with an id starts a call, one without continues the last.
    const last = Math.max(-1, ...this.calls.keys());
    const index = typeof part.index === 'number' ? part.index : part.id ? last + 1 : Math.max(0, last);
    let call = this.calls.get(index);
    if (!call) {
      call = { id: '', name: '', arguments: '' };
      this.calls.set(index, call);
    }
    if (part.id) call.id = part.id;
    // A name is sent once; a server that repeats it in every part must not double it.
    if (part.function?.name && part.function.name !== call.name) call.name += part.function.name;
    if (part.function?.arguments) call.arguments += part.function.arguments;
  }
}
