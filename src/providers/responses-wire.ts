/**
 * The Responses API as a second wire (`kind: responses`): the transcript as input items (messages, function
 * calls and their outputs, and the reasoning items of earlier turns, sent back because the provider keeps no
 * state: `store: false`, `include: ['reasoning.encrypted_content']`), the reply from the output items,
 * streamed text from `response.output_text.delta` events, usage with its cached and reasoning tokens.
 */
import { ApplicationFailure } from '@temporalio/common';
import type OpenAI from 'openai';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { Response, ResponseInputItem, ResponseStreamEvent, Tool } from 'openai/resources/responses/responses';
import { FailureType } from '../wire/failures.ts';
import type { ChatMessage, ReasoningItem, ToolCall, Usage } from '../wire/types.ts';
import type { RawReply } from './chat-stream.ts';

export interface ResponsesRequest {
  model: string;
  messages: readonly ChatMessage[];
  tools?: ChatCompletionTool[];
}

export async function responsesCall(client: OpenAI, request: ResponsesRequest, stream: boolean, signal: AbortSignal, onText: (text: string) => void): Promise<RawReply> {
  const body = {
    model: request.model,
    input: toInputItems(request.messages),
    ...(request.tools?.length ? { tools: request.tools.map(toResponsesTool) } : {}),
    store: false,
    include: ['reasoning.encrypted_content' as const],
  };
  if (!stream) return fromResponse(await client.responses.create({ ...body, stream: false }, { signal }));
  const events = await client.responses.create({ ...body, stream: true }, { signal });
  let final: Response | null = null;
  for await (const event of events as AsyncIterable<ResponseStreamEvent>) {
    if (event.type === 'response.output_text.delta') onText(event.delta);
    else if (event.type === 'response.completed' || event.type === 'response.incomplete') final = event.response;
    else if (event.type === 'response.failed') throw ApplicationFailure.retryable(`The model's response failed: ${event.response.error?.message ?? 'no reason given'}`, FailureType.modelUnavailable);
    else if (event.type === 'error') throw ApplicationFailure.retryable(`The model's stream reported an error: ${event.message}`, FailureType.modelUnavailable);
  }
  if (!final) throw ApplicationFailure.retryable('The model\'s stream ended before its response was complete.', FailureType.modelUnavailable);
  return fromResponse(final);
}

/** The reasoning items the transcript keeps (the chat wire sends none of them). */
export function reasoningItemCount(messages: readonly ChatMessage[]): number {
  return messages.reduce((n, m) => n + (m.role === 'assistant' ? (m.reasoning?.length ?? 0) : 0), 0);
}

/** The transcript as Responses input items; an assistant message's reasoning items go before it, as the model produced them. */
export function toInputItems(messages: readonly ChatMessage[]): ResponseInputItem[] {
  return messages.flatMap((message): ResponseInputItem[] => {
    switch (message.role) {
      case 'system':
      case 'user':
        return [{ role: message.role, content: message.content }];
      case 'assistant':
        return [
          ...(message.reasoning ?? []).map((r): ResponseInputItem => ({ type: 'reasoning', id: r.id, encrypted_content: r.encryptedContent, summary: r.summary.map((text) => ({ type: 'summary_text' as const, text })) })),
          ...(message.content ? [{ role: 'assistant' as const, content: message.content }] : []),
          ...(message.tool_calls ?? []).map((c): ResponseInputItem => ({ type: 'function_call', call_id: c.id, name: c.name, arguments: c.arguments })),
        ];
      case 'tool':
        return [{ type: 'function_call_output', call_id: message.tool_call_id, output: message.content }];
    }
  });
}

function toResponsesTool(tool: ChatCompletionTool): Tool {
  if (tool.type !== 'function') throw new Error(`Only function tools can be sent over the Responses API (got ${tool.type}).`);
  return { type: 'function', name: tool.function.name, description: tool.function.description ?? null, parameters: tool.function.parameters ?? null, strict: false };
}

/** The reply in a response's output items. */
export function fromResponse(response: Response): RawReply {
  let text = '';
  let sawText = false;
  let refusal = '';
  const calls: ToolCall[] = [];
  const reasoning: ReasoningItem[] = [];
  for (const item of response.output) {
    if (item.type === 'message') {
      for (const part of item.content) {
        if (part.type === 'output_text') {
          text += part.text;
          sawText = true;
        } else if (part.type === 'refusal') refusal += part.refusal;
      }
    } else if (item.type === 'function_call') calls.push({ id: item.call_id, name: item.name, arguments: item.arguments });
    else if (item.type === 'reasoning') reasoning.push({ id: item.id, encryptedContent: item.encrypted_content ?? null, summary: item.summary.map((s) => s.text) });
  }
  const usage: Usage = {
    promptTokens: response.usage?.input_tokens ?? 0,
    completionTokens: response.usage?.output_tokens ?? 0,
    ...(response.usage?.input_tokens_details?.cached_tokens ? { cachedPromptTokens: response.usage.input_tokens_details.cached_tokens } : {}),
    ...(response.usage?.output_tokens_details?.reasoning_tokens ? { reasoningTokens: response.usage.output_tokens_details.reasoning_tokens } : {}),
  };
  const incomplete = response.incomplete_details?.reason;
  return {
    message: { role: 'assistant', content: sawText ? text : null, ...(calls.length ? { tool_calls: calls } : {}), ...(reasoning.length ? { reasoning } : {}) },
    usage,
    finishReason: calls.length ? 'tool_calls' : incomplete === 'max_output_tokens' ? 'length' : (incomplete ?? 'stop'),
    ...(refusal ? { refusal } : {}),
  };
}
