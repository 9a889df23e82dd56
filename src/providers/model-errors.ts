/**
 * A provider's error as the failure that says what to do: a refused key, a bad request with the provider's
 * own words, a context that is too long, an unknown model, a refusal: each its own type (failures.ts), and
 * none retried. 408/409/429/5xx and lost connections are `ModelUnavailable`, retried by Temporal after the
 * delay the provider asks for (`retry-after-ms`, `retry-after`); `x-should-retry` overrides the status.
 */
import { ApplicationFailure } from '@temporalio/common';
import OpenAI from 'openai';
import { FailureType } from '../wire/failures.ts';
import type { ModelRoute } from './model-route.ts';

/** The words OpenAI-compatible servers use for a prompt longer than the model's context window. */
const CONTEXT_TOO_LONG = [
  /context[_ ]length[_ ]exceeded/i,
  /maximum context length/i,
  /context (window|size|length) (is )?(exceeded|too (small|long))/i,
  /exceeds? (the )?(model'?s? )?(maximum |available )?context (window|size|length)/i,
  /prompt is too long/i,
  /too many (input )?tokens/i,
  /input (length|tokens?) exceeds?/i,
  /reduce the length of the (messages|prompt|input)/i,
];

export function isContextTooLong(status: number | undefined, code: unknown, message: string): boolean {
  if (code === 'context_length_exceeded' || code === 'string_above_max_length') return true;
  if (status === 413) return true;
  return (status === undefined || status === 400 || status === 422) && CONTEXT_TOO_LONG.some((pattern) => pattern.test(message));
}

/** How long the provider asks to wait before the next attempt (ms), from its headers; undefined when it says nothing. */
export function retryDelayMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  const ms = Number(headers?.get('retry-after-ms'));
  if (headers?.get('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return Math.max(1, Math.round(ms));
  const after = headers?.get('retry-after')?.trim();
  if (!after) return undefined;
  if (/^\d+(\.\d+)?$/.test(after)) return Math.max(1, Math.round(Number(after) * 1000));
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(1, date - now);
}

/** The provider's error as a Temporal failure. `route` names the provider and model; its key is masked out of every message. */
export function modelFailure(error: unknown, route: Pick<ModelRoute, 'provider' | 'model' | 'apiKey'>): unknown {
  if (error instanceof ApplicationFailure) return error;
  const masked = (text: string) => (route.apiKey.length >= 8 ? text.split(route.apiKey).join('***') : text);
  const at = `provider "${route.provider}"`;
  if (error instanceof OpenAI.APIConnectionError) {
    return ApplicationFailure.retryable(`Model endpoint unreachable (${at}): ${masked(error.message)}`, FailureType.modelUnavailable);
  }
  if (!(error instanceof OpenAI.APIError) || typeof error.status !== 'number') return error;
  const status = error.status;
  const headers = error.headers as Headers | undefined;
  // The client's message: the status, then the provider's own words.
  const said = masked(error.message);
  const shouldRetry = headers?.get('x-should-retry');
  const transient = status === 408 || status === 409 || status === 429 || status >= 500;
  if (isContextTooLong(status, error.code, providerMessage(error))) {
    return ApplicationFailure.nonRetryable(
      `The conversation is longer than model "${route.model}" of ${at} accepts (${said}). Shorten the context (fewer or smaller tool results), or use a model with a larger context window.`,
      FailureType.contextTooLong,
    );
  }
  if ((transient && shouldRetry !== 'false') || shouldRetry === 'true') {
    const delay = retryDelayMs(headers);
    return ApplicationFailure.create({
      message: `${said} (model "${route.model}" of ${at} is unavailable)`,
      type: FailureType.modelUnavailable,
      ...(delay !== undefined ? { nextRetryDelay: delay } : {}),
    });
  }
  if (transient) {
    // The provider said not to retry (x-should-retry: false): the retries are used up now (a fallback model may follow).
    return ApplicationFailure.nonRetryable(`${said} (model "${route.model}" of ${at} is unavailable, and asks not to be retried: x-should-retry: false)`, FailureType.modelUnavailable);
  }
  if (status === 401 || status === 403) {
    return ApplicationFailure.nonRetryable(
      `The key for ${at} was refused (${said}). Check the provider's apiKey in the providers file (AGENT_PROVIDERS), or OPENAI_API_KEY for bare model names, and that the key may use model "${route.model}".`,
      FailureType.modelAuthRejected,
    );
  }
  if (status === 404) {
    return ApplicationFailure.nonRetryable(
      `Model "${route.model}" was not found at ${at} (${said}). Check the model's name (as the provider spells it) and the provider's baseUrl.`,
      FailureType.modelNotFound,
    );
  }
  return ApplicationFailure.nonRetryable(`Provider "${route.provider}" rejected the request for model "${route.model}": ${said}`, FailureType.modelRequestRejected);
}

/** The model refused to answer: not retried (the same request would be refused again). */
export function refusalFailure(route: Pick<ModelRoute, 'provider' | 'model'>, refusal: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(`Model "${route.model}" of provider "${route.provider}" refused: ${refusal}`, FailureType.modelRefused);
}

/** The provider's own words: its error body's message, else the client's. */
function providerMessage(error: { error?: unknown; message: string }): string {
  const body = error.error as { message?: unknown } | undefined;
  return typeof body?.message === 'string' && body.message ? body.message : error.message;
}
