/**
 * `GET /agents` and `agent agents`: what the workers published, per task queue. A queue with live workers
 * lists what they offer (one entry per digest: two during a rolling deploy); a queue with none lists its
 * last publication, marked not live, with when it was last seen.
 */
import type { Risk } from '../tools/define-tool.ts';
import { isLive, type OfferedTool, type WorkerOffer } from './offer.ts';

export interface ListedTool {
  name: string;
  risk: Risk;
  readOnly: boolean;
  source: OfferedTool['source'];
}

export interface ListedAgent {
  name: string;
  /** null: the run names the model. */
  model: string | null;
  tools: { name: string; risk: Risk }[];
}

export interface OfferListing {
  taskQueue: string;
  digest: string;
  /** false: no worker that offers this is alive; this is the queue's last publication (stale). */
  live: boolean;
  /** ISO time the newest of its workers was last seen. */
  lastSeenAt: string;
  workers: string[];
  tools: ListedTool[];
  agents: ListedAgent[];
}

export function listOffers(offers: readonly WorkerOffer[], now: number): OfferListing[] {
  const newestFirst = [...offers].sort((a, b) => b.lastSeenAt.localeCompare(a.lastSeenAt));
  const queues = [...new Set(newestFirst.map((o) => o.taskQueue))].sort();
  return queues.flatMap((taskQueue) => {
    const ofQueue = newestFirst.filter((o) => o.taskQueue === taskQueue);
    const live = ofQueue.filter((o) => isLive(o, now));
    if (!live.length) return [entry([ofQueue[0]!], false)];
    const digests = [...new Set(live.map((o) => o.digest))];
    return digests.map((digest) => entry(live.filter((o) => o.digest === digest), true));
  });
}

/** Workers of one queue and one digest (newest first) as one entry. */
function entry(workers: WorkerOffer[], live: boolean): OfferListing {
  const newest = workers[0]!;
  const tools = newest.tools.map(({ name, risk, readOnly, source }) => ({ name, risk, readOnly, source }));
  const riskOf = new Map(tools.map((t) => [t.name, t.risk]));
  return {
    taskQueue: newest.taskQueue,
    digest: newest.digest,
    live,
    lastSeenAt: newest.lastSeenAt,
    workers: workers.map((w) => w.workerId),
    tools,
    agents: newest.agents.map((a) => ({
      name: a.name,
      model: a.model,
      // A tool the agent names that no tool of the worker has (an MCP server's, while it is down): high, the default.
      tools: (a.tools ?? tools.map((t) => t.name)).map((name) => ({ name, risk: riskOf.get(name) ?? 'high' })),
    })),
  };
}
