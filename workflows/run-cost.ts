/**
 * A run's spend, turn by turn, each turn at the price of the model that served it. Turns of one price are
 * priced from their running total (exactly Σ usage × price, no accumulated rounding); a turn at another
 * price (a fallback model) closes the total so far. Sandbox-safe and pure.
 */
import { addUsage, costOf, samePrice, type Price } from '../src/wire/pricing.ts';
import type { Usage } from '../src/wire/types.ts';

export class RunCost {
  /** Spend of the turns at earlier prices. */
  private before: number;
  private price: Price;
  /** Usage of the turns at `price` since it changed. */
  private usage: Usage;

  /** Starts from a run's totals so far (a fresh run's are zero), taken as priced at `price`. */
  constructor(totals: { costUsd: number; usage: Usage }, price: Price) {
    this.price = price;
    this.usage = totals.usage;
    // Exactly 0 for a run whose turns were all at `price` (its cost was computed by the same formula).
    this.before = totals.costUsd - costOf(totals.usage, price);
  }

  /** Adds a turn; returns the run's spend so far. */
  add(usage: Usage, price: Price): number {
    if (!samePrice(price, this.price)) {
      this.before += costOf(this.usage, this.price);
      this.price = price;
      this.usage = { promptTokens: 0, completionTokens: 0 };
    }
    this.usage = addUsage(this.usage, usage);
    return this.before + costOf(this.usage, this.price);
  }
}
