/** What a Chat Completions reply carries besides its message: its usage details, and a refusal. */
import type { CompletionUsage } from 'openai/resources/completions';
import type { ModelReply, Usage } from '../wire/types.ts';
import type { ModelRoute } from './model-route.ts';
import { refusalFailure } from './model-errors.ts';

/** The provider's usage: cached prompt tokens and reasoning tokens kept when it reports any. */
export function usageOf(usage: CompletionUsage | null | undefined): Usage {
  const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0;
  const reasoning = usage?.completion_tokens_details?.reasoning_tokens ?? 0;
  return {
    promptTokens: usage?.prompt_tokens ?? 0,
    completionTokens: usage?.completion_tokens ?? 0,
    ...(cached > 0 ? { cachedPromptTokens: cached } : {}),
    ...(reasoning > 0 ? { reasoningTokens: reasoning } : {}),
  };
}

/** The reply, unless the model refused (a `refusal`, or a `content_filter` finish with nothing else): then the call fails, not retried. */
export function checkedReply<R extends Omit<ModelReply, 'modelMs'> & { refusal?: string }>(route: Pick<ModelRoute, 'provider' | 'model'>, raw: R): Omit<R, 'refusal'> {
  const { refusal, ...reply } = raw;
  if (refusal) throw refusalFailure(route, refusal);
  if (reply.finishReason === 'content_filter' && !reply.message.content && !reply.message.tool_calls?.length) {
    throw refusalFailure(route, 'the provider\'s content filter stopped the reply (finish_reason content_filter).');
  }
  return reply;
}
