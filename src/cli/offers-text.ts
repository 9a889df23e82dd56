/** `agent agents`: what the workers published, per task queue, as readable tables. */
import type { OfferListing } from '../offers/listing.ts';
import { table } from './table.ts';

export function offersText(offers: readonly OfferListing[], storeLocation: string, startWorker: string): string {
  if (!offers.length) return `No worker has published what it offers to the store (${storeLocation}): start one (${startWorker}).`;
  return offers
    .map((offer) => {
      const who = offer.live
        ? `${offer.workers.length} live worker${offer.workers.length === 1 ? '' : 's'}`
        : `stale: no live worker, last seen ${offer.lastSeenAt}`;
      const agents = offer.agents.length
        ? table(
            ['agent', 'model', 'tools (risk)'],
            offer.agents.map((a) => [a.name, a.model ?? '(the run names it)', a.tools.map((t) => `${t.name} (${t.risk})`).join(', ')]),
          )
        : 'no agents';
      const tools = table(
        ['tool', 'risk', 'read-only', 'source'],
        offer.tools.map((t) => [t.name, t.risk, t.readOnly ? 'yes' : 'no', t.source]),
      );
      return `task queue ${offer.taskQueue} — digest ${offer.digest.slice(0, 12)} — ${who}\n\n${agents}\n\n${tools}`;
    })
    .join('\n\n');
}
