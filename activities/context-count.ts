/**
 * Counting what a model call sends, in the model's tokens: OpenAI's tokenizers (`gpt-tokenizer`) for OpenAI
 * models, and the scripted model server's own count (`ceil(chars / 4)` of the request's JSON) for scripted
 * and recorded models and for any model whose tokenizer the harness does not have (a documented estimate).
 * Activity side only: the tokenizer's tables never enter the workflow bundle.
 */
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';

/** Counts text in one model's tokens. */
export type TokenCounter = (text: string) => number;

/** Tokens per message the chat format adds around its content (OpenAI's published figure). */
const PER_MESSAGE = 4;

const charsOver4: TokenCounter = (text) => Math.ceil(text.length / 4);

let o200k: Promise<TokenCounter> | undefined;
let cl100k: Promise<TokenCounter> | undefined;

/** The counter for `model`: loaded once per worker, on first use. */
export async function counterFor(model: string): Promise<{ count: TokenCounter; exact: boolean }> {
  if (/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4)/.test(model)) {
    o200k ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => (text: string) => m.countTokens(text));
    return { count: await o200k, exact: true };
  }
  if (/^(gpt-4|gpt-3\.5)/.test(model)) {
    cl100k ??= import('gpt-tokenizer/encoding/cl100k_base').then((m) => (text: string) => m.countTokens(text));
    return { count: await cl100k, exact: true };
  }
  return { count: charsOver4, exact: false };
}

/**
 * The tokens these messages take in a request. With the chars/4 estimate, exactly what the scripted model
 * server counts for them (the JSON of the list), so a test's budget and the window the server enforces agree.
 */
export function messageTokens(counter: { count: TokenCounter; exact: boolean }, messages: readonly ChatCompletionMessageParam[]): number {
  if (!counter.exact) return counter.count(JSON.stringify(messages));
  let total = 3; // every reply is primed with a few tokens
  for (const message of messages) {
    total += PER_MESSAGE;
    if (typeof message.content === 'string') total += counter.count(message.content);
    if ('tool_calls' in message && message.tool_calls) {
      for (const call of message.tool_calls) if (call.type === 'function') total += counter.count(call.function.name) + counter.count(call.function.arguments);
    }
  }
  return total;
}

/** The tokens the tool definitions take in a request (an estimate for OpenAI models: their JSON, tokenized). */
export function toolTokens(counter: { count: TokenCounter }, tools: readonly ChatCompletionTool[] | undefined): number {
  return tools?.length ? counter.count(JSON.stringify(tools)) : counter.count('[]');
}
