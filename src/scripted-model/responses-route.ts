/**
 * The scripted model server's second wire: `POST /v1/responses` (the Responses API), so every scenario runs
 * on either. The request's input items become the conversation a scenario reads (function calls and their
 * outputs as assistant tool calls and tool messages; reasoning items sent back are counted, for tests);
 * the reply becomes output items (a reasoning item with encrypted content, the message, function calls),
 * as JSON or as the event stream real providers send.
 */
import type { ServerResponse } from 'node:http';
import type { ScriptedMessage } from './scenario.ts';

type InputItem = {
  type?: string;
  role?: string;
  content?: unknown;
  call_id?: string;
  name?: string;
  arguments?: string;
  output?: unknown;
  encrypted_content?: string | null;
};

/** The Responses request as the chat request the server already plays: its messages and function tools. */
export function responsesAsChat(body: { model?: unknown; input?: unknown; instructions?: unknown; tools?: unknown; stream?: unknown }): {
  model: string;
  messages: ScriptedMessage[];
  tools: unknown[];
  stream: boolean;
  reasoningItemsSent: number;
} {
  const items: InputItem[] = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : Array.isArray(body.input) ? (body.input as InputItem[]) : [];
  const messages: ScriptedMessage[] = typeof body.instructions === 'string' ? [{ role: 'system', content: body.instructions }] : [];
  let reasoningItemsSent = 0;
  // Output items of one turn (reasoning, message, function calls) make one assistant message.
  let assistant: ScriptedMessage | null = null;
  const turnOpen = () => {
    if (!assistant) {
      assistant = { role: 'assistant', content: null };
      messages.push(assistant);
    }
    return assistant;
  };
  for (const item of items) {
    if (item.type === 'reasoning') {
      reasoningItemsSent++;
      turnOpen();
    } else if (item.type === 'function_call') {
      (turnOpen().tool_calls ??= []).push({ id: item.call_id ?? '', type: 'function', function: { name: item.name ?? '', arguments: item.arguments ?? '' } });
    } else if (item.type === 'function_call_output') {
      assistant = null;
      messages.push({ role: 'tool', tool_call_id: item.call_id ?? '', content: typeof item.output === 'string' ? item.output : JSON.stringify(item.output) });
    } else if (item.role === 'assistant') {
      turnOpen().content = textOf(item.content);
    } else if (item.role === 'user' || item.role === 'system' || item.role === 'developer') {
      assistant = null;
      messages.push({ role: item.role === 'developer' ? 'system' : item.role, content: textOf(item.content) });
    }
  }
  const tools = Array.isArray(body.tools) ? (body.tools as { name?: string; description?: string; parameters?: unknown }[]).map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } })) : [];
  return { model: typeof body.model === 'string' ? body.model : '', messages, tools, stream: body.stream === true, reasoningItemsSent };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: { text?: string }) => part.text ?? '').join('');
  return '';
}

export interface ResponsesReply {
  id: string;
  created: number;
  model: string;
  message: { content: string | null; refusal?: string; tool_calls?: { id: string; function: { name: string; arguments: string } }[] };
  usage: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details?: { cached_tokens: number }; completion_tokens_details?: { reasoning_tokens: number } };
  /** The turn: the reasoning item's encrypted content names it, so a test can see it come back. */
  turn: number;
}

/** The reply as a Responses API response object. */
export function responseObject(r: ResponsesReply): Record<string, unknown> {
  const output: Record<string, unknown>[] = [
    { type: 'reasoning', id: `rs_${r.id}`, summary: [{ type: 'summary_text', text: `Thinking about turn ${r.turn}.` }], encrypted_content: `scripted-reasoning-turn-${r.turn}` },
  ];
  if (r.message.content !== null || r.message.refusal) {
    output.push({
      type: 'message',
      id: `msg_${r.id}`,
      role: 'assistant',
      status: 'completed',
      content: [
        ...(r.message.content !== null ? [{ type: 'output_text', text: r.message.content, annotations: [] }] : []),
        ...(r.message.refusal ? [{ type: 'refusal', refusal: r.message.refusal }] : []),
      ],
    });
  }
  r.message.tool_calls?.forEach((c, i) => output.push({ type: 'function_call', id: `fc_${r.id}_${i}`, call_id: c.id, name: c.function.name, arguments: c.function.arguments, status: 'completed' }));
  return {
    id: `resp_${r.id}`,
    object: 'response',
    created_at: r.created,
    status: 'completed',
    model: r.model,
    output,
    incomplete_details: null,
    error: null,
    usage: {
      input_tokens: r.usage.prompt_tokens,
      input_tokens_details: { cached_tokens: r.usage.prompt_tokens_details?.cached_tokens ?? 0 },
      output_tokens: r.usage.completion_tokens,
      output_tokens_details: { reasoning_tokens: r.usage.completion_tokens_details?.reasoning_tokens ?? 0 },
      total_tokens: r.usage.prompt_tokens + r.usage.completion_tokens,
    },
  };
}

/** The reply as the Responses event stream: created, each item added and done, text and argument deltas in pieces, completed. */
export function writeResponsesStream(res: ServerResponse, r: ResponsesReply): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  let seq = 0;
  const event = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
  const full = responseObject(r);
  event('response.created', { response: { ...full, status: 'in_progress', output: [], usage: null } });
  (full.output as Record<string, unknown>[]).forEach((item, output_index) => {
    event('response.output_item.added', { output_index, item: item.type === 'reasoning' ? { ...item, encrypted_content: null } : { ...item, ...(item.type === 'message' ? { content: [] } : {}), ...(item.type === 'function_call' ? { arguments: '' } : {}) } });
    if (item.type === 'message') {
      for (const piece of r.message.content?.match(/.{1,16}/gs) ?? []) event('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta: piece, logprobs: [] });
    }
    if (item.type === 'function_call') {
      for (const piece of (item.arguments as string).match(/.{1,8}/gs) ?? []) event('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: piece });
    }
    event('response.output_item.done', { output_index, item });
  });
  event('response.completed', { response: full });
  res.end();
}
