/**
 * The store is the harness's, not the tool's or the model's. An activity that cannot reach it fails at once
 * (`StoreUnavailable`, non-retryable: it must not use up the tool's own attempts), and the run waits here
 * on durable timers, then calls again — a tool with the same call key, so its idempotency key keeps a side
 * effect to once — until the store answers or the run's outage budget (`limits.maxStoreOutageMs`) is spent.
 * Nothing of the outage reaches the model; the run's state and trace show the wait.
 */
import * as wf from '@temporalio/workflow';
import { FailureType } from '../src/wire/failures.ts';
import type { LoopState } from './loop-state.ts';
import { storeWaitSummary } from '../src/wire/summaries.ts';
import { failureMessage, failureType, type Stop } from './stop.ts';

/** Waits between calls: doubling from a second up to this. */
const MAX_WAIT_MS = 30_000;

/**
 * `call` until it gets past the store; a `store_unavailable` stop once the store has been unreachable for
 * longer than `budgetMs`. `what` names the call in the trace and the stop: a tool call's key, or `model`.
 */
export async function throughStoreOutages<T>(run: LoopState, what: string, budgetMs: number, call: () => Promise<T>): Promise<T | Stop> {
  let since: number | null = null;
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await call();
      if (since !== null) run.storeWaitOver(what, Date.now() - since, true);
      return result;
    } catch (error) {
      // Histories recorded before the run waited for the store handle its failure as they did then.
      if (failureType(error) !== FailureType.storeUnavailable || !run.changes.has('store-outage-waits')) throw error;
      const message = failureMessage(error);
      since ??= Date.now();
      const waited = Date.now() - since;
      if (waited >= budgetMs) {
        run.storeWaitOver(what, waited, false);
        return { reason: 'store_unavailable', error: `The store was unreachable for ${Math.round(waited / 1000)} s during ${what}, longer than the run allows (limits.maxStoreOutageMs): ${message}` };
      }
      if (attempt === 1) run.waitingForStore(what, message, since);
      await wf.sleep(Math.min(MAX_WAIT_MS, 1000 * 2 ** (attempt - 1), budgetMs - waited), { summary: storeWaitSummary(what) });
    }
  }
}
