import type { Usage } from './types.ts';

export interface Price {
  /** USD per million prompt tokens. */
  inputPerMillion: number;
  /** USD per million completion tokens. */
  outputPerMillion: number;
}

/** The seed's prices: $2.00 / $12.00 per million tokens. Used for scripted and unknown models. */
export const DEFAULT_PRICE: Price = { inputPerMillion: 2.0, outputPerMillion: 12.0 };

/** Published list prices (USD per million tokens); pass `price` in the run input to override. */
export const PRICE_TABLE: Readonly<Record<string, Price>> = {
  'gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10.0 },
  'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  'gpt-4.1': { inputPerMillion: 2.0, outputPerMillion: 8.0 },
  'gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6 },
};

export function priceOf(model: string): Price {
  return PRICE_TABLE[model] ?? DEFAULT_PRICE;
}

export function costOf(usage: Usage, price: Price): number {
  return (usage.promptTokens * price.inputPerMillion + usage.completionTokens * price.outputPerMillion) / 1e6;
}
