/**
 * A worker's publication of what it offers (offer.ts), worker side: written at its start, refreshed every
 * OFFER_REFRESH_MS while it runs, and withdrawn when it stops cleanly — kept, marked stopped, when it was the
 * last worker of its queue, so that a server with no worker alive still lists the queue's tools and agents.
 */
import type { AgentStore } from '../store/store.ts';
import { isLive, OFFER_REFRESH_MS, type WorkerOffer } from './offer.ts';

export interface OfferPublication {
  /** Stops the refresh and withdraws the publication. */
  withdraw(): Promise<void>;
}

/** Writes `offer` (dropping the queue's publications of workers that are gone) and keeps it fresh. */
export async function publishOffer(store: AgentStore, offer: WorkerOffer, stored: readonly WorkerOffer[]): Promise<OfferPublication> {
  const now = Date.now();
  const gone = stored.filter((o) => o.taskQueue === offer.taskQueue && o.workerId !== offer.workerId && !isLive(o, now)).map((o) => o.workerId);
  await store.deleteWorkerOffers(gone);
  await store.putWorkerOffer(offer);
  let warned = false;
  const timer = setInterval(() => {
    store.putWorkerOffer({ ...offer, lastSeenAt: new Date().toISOString() }).catch((error: unknown) => {
      // The next refresh tries again; a worker unseen for OFFER_GONE_AFTER_MS is listed as gone meanwhile.
      if (!warned) console.warn(`Could not refresh this worker's published tools in the store: ${(error as Error).message}`);
      warned = true;
    });
  }, OFFER_REFRESH_MS);
  timer.unref();
  return {
    async withdraw() {
      clearInterval(timer);
      const at = new Date().toISOString();
      const others = (await store.listWorkerOffers()).filter((o) => o.taskQueue === offer.taskQueue && o.workerId !== offer.workerId && isLive(o, Date.now()));
      if (others.length) await store.deleteWorkerOffers([offer.workerId]);
      else await store.putWorkerOffer({ ...offer, lastSeenAt: at, stoppedAt: at });
    },
  };
}
