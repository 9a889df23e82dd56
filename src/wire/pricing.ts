/**
 * What model calls cost. Sandbox-safe (the workflow adds each turn's cost): the price of a turn comes with
 * its reply (`ModelReply.price`, set by the model call from `src/providers/prices.ts` and the providers
 * file), so a price change never changes a recorded run's replay.
 */
import type { Usage } from './types.ts';

export interface Price {
  /** USD per million prompt tokens. */
  inputPerMillion: number;
  /** USD per million completion tokens (reasoning tokens included: providers bill them as output). */
  outputPerMillion: number;
  /** USD per million prompt tokens served from the provider's prompt cache; absent: the input rate. */
  cachedInputPerMillion?: number;
}

/** The seed's prices: $2.00 / $12.00 per million tokens: what scripted and recorded models cost. */
export const DEFAULT_PRICE: Price = { inputPerMillion: 2.0, outputPerMillion: 12.0 };

/**
 * The table the workflow priced turns with before replies carried their price. Frozen: a run recorded
 * then replays with the same costs (and the same budget stops). Today's prices: `src/providers/prices.ts`.
 */
const RECORDED_RUNS_PRICE_TABLE: Readonly<Record<string, Price>> = {
  'gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10.0 },
  'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  'gpt-4.1': { inputPerMillion: 2.0, outputPerMillion: 8.0 },
  'gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6 },
};

/** The price of a turn whose reply carries none (recorded before replies carried their price). */
export function recordedRunPrice(model: string): Price {
  return RECORDED_RUNS_PRICE_TABLE[model] ?? DEFAULT_PRICE;
}

/** Cost in USD: uncached prompt tokens at the input rate, cached ones at the cached rate, completion at the output rate. */
export function costOf(usage: Usage, price: Price): number {
  const cached = Math.min(usage.cachedPromptTokens ?? 0, usage.promptTokens);
  if (cached === 0 || price.cachedInputPerMillion === undefined) {
    return (usage.promptTokens * price.inputPerMillion + usage.completionTokens * price.outputPerMillion) / 1e6;
  }
  return ((usage.promptTokens - cached) * price.inputPerMillion + cached * price.cachedInputPerMillion + usage.completionTokens * price.outputPerMillion) / 1e6;
}

/** Two prices the same (a run's cost is summed over the turns of each price). */
export function samePrice(a: Price, b: Price): boolean {
  return a.inputPerMillion === b.inputPerMillion && a.outputPerMillion === b.outputPerMillion && a.cachedInputPerMillion === b.cachedInputPerMillion;
}

/** Usage added up (cached and reasoning tokens kept only when some were reported). */
export function addUsage(total: Usage, more: Usage): Usage {
  const sum: Usage = { promptTokens: total.promptTokens + more.promptTokens, completionTokens: total.completionTokens + more.completionTokens };
  const cached = (total.cachedPromptTokens ?? 0) + (more.cachedPromptTokens ?? 0);
  const reasoning = (total.reasoningTokens ?? 0) + (more.reasoningTokens ?? 0);
  if (cached) sum.cachedPromptTokens = cached;
  if (reasoning) sum.reasoningTokens = reasoning;
  return sum;
}
