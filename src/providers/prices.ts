/**
 * List prices of the models people use now, in USD per million tokens: data with a date. A provider's own
 * prices (the providers file, `prices`) come first; a model in neither is not priced at all: its run fails
 * at the first step, naming the model and where to set a price (`price-lookup.ts`).
 *
 * Source: OpenAI's published API pricing (standard tier), as of PRICES_AS_OF. Prices change: check
 * https://openai.com/api/pricing and set a provider's `prices` to override any of these.
 */
import type { Price } from '../wire/pricing.ts';

/** When the prices below were taken from the provider's published list. */
export const PRICES_AS_OF = '2025-08-07';

const p = (inputPerMillion: number, cachedInputPerMillion: number, outputPerMillion: number): Price => ({ inputPerMillion, cachedInputPerMillion, outputPerMillion });

/** By model name as the provider knows it; a dated snapshot (`gpt-4.1-2025-04-14`) takes its family's price. */
export const LIST_PRICES: Readonly<Record<string, Price>> = {
  'gpt-5': p(1.25, 0.125, 10.0),
  'gpt-5-mini': p(0.25, 0.025, 2.0),
  'gpt-5-nano': p(0.05, 0.005, 0.4),
  'gpt-4.1': p(2.0, 0.5, 8.0),
  'gpt-4.1-mini': p(0.4, 0.1, 1.6),
  'gpt-4.1-nano': p(0.1, 0.025, 0.4),
  'gpt-4o': p(2.5, 1.25, 10.0),
  'gpt-4o-mini': p(0.15, 0.075, 0.6),
  o3: p(2.0, 0.5, 8.0),
  'o4-mini': p(1.1, 0.275, 4.4),
};

/** The list price of `model` (or of its family, for a dated snapshot); undefined when the table has none. */
export function listPrice(model: string): Price | undefined {
  if (Object.hasOwn(LIST_PRICES, model)) return LIST_PRICES[model];
  const family = model.replace(/-\d{4}-\d{2}-\d{2}$/, '');
  return family !== model && Object.hasOwn(LIST_PRICES, family) ? LIST_PRICES[family] : undefined;
}
