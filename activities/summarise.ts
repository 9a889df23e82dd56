/**
 * The summary call of a compaction: the run's own model is asked (the agent's summary prompt, or the
 * default) to summarise the older part of the conversation. A model call like a turn's: its usage is
 * returned (the run prices and counts it), it stops on the run's cancel, and its failures map as a turn's do.
 */
import { clientFor, type ModelRoute } from './model-endpoints.ts';
import { ApplicationFailure } from '@temporalio/common';
import { summaryRequestText } from '../src/wire/compaction-text.ts';
import { FailureType } from '../src/wire/failures.ts';
import type { ChatMessage, Usage } from '../src/wire/types.ts';
import { renderForSummary } from './compaction-plan.ts';
import { toActivityFailure } from './call-model.ts';

/** A message is shown to the summary call up to this many characters; the whole text up to `maxChars`. */
const PER_MESSAGE_CHARS = 1500;

export interface Summary {
  text: string;
  usage: Usage;
}

/**
 * Summarises `messages` (the conversation's first `turns` turns, an earlier summary included) with `model`
 * under `prompt`; `maxChars` bounds what the call is sent (it too must fit the window).
 */
export async function summarise(route: ModelRoute, prompt: string, turns: number, messages: readonly ChatMessage[], maxChars: number, signal: AbortSignal): Promise<Summary> {
  const request = [
    { role: 'system' as const, content: prompt },
    { role: 'user' as const, content: summaryRequestText(turns, renderForSummary(messages, PER_MESSAGE_CHARS, maxChars)) },
  ];
  try {
    const completion = await clientFor(route).chat.completions.create({ model: route.model, messages: request, stream: false }, { signal });
    const text = completion.choices[0]?.message.content?.trim();
    if (!text) throw ApplicationFailure.nonRetryable(`The model gave no summary (finish reason ${completion.choices[0]?.finish_reason ?? 'none'}).`, FailureType.modelRequestRejected);
    return { text, usage: { promptTokens: completion.usage?.prompt_tokens ?? 0, completionTokens: completion.usage?.completion_tokens ?? 0 } };
  } catch (error) {
    throw toActivityFailure(error, signal, route);
  }
}
