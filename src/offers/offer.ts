/**
 * What a worker offers, as it publishes it to the store (README, "Build your own agent"): its tools (name,
 * risk, read-only, where they come from) and its agents, each with the digest of its definition, and the
 * digest of them all. JSON-safe; no worker code, so the HTTP API and the CLI read it too.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../wire/canonical-json.ts';
import type { Risk } from '../tools/define-tool.ts';

/** How often a running worker refreshes its publication. */
export const OFFER_REFRESH_MS = 30_000;
/** A worker whose publication is older than this counts as gone (it died without withdrawing it). */
export const OFFER_GONE_AFTER_MS = 120_000;

/** One tool a worker offers. `digest`: of its definition (schema, flags, description). */
export interface OfferedTool {
  name: string;
  risk: Risk;
  readOnly: boolean;
  source: 'builtin' | 'own' | 'mcp';
  digest: string;
}

/** One agent a worker offers. `tools`: the names it may use (null: every tool of the worker). */
export interface OfferedAgent {
  name: string;
  model: string | null;
  tools: string[] | null;
  digest: string;
}

/** One worker's publication: a row of the store's `worker_offers`. */
export interface WorkerOffer {
  /** `hostname:pid:random`, new at every start. */
  workerId: string;
  taskQueue: string;
  /** SHA-256 of the canonical JSON of the built-in and own tools' definitions and the agents' definitions. */
  digest: string;
  tools: OfferedTool[];
  agents: OfferedAgent[];
  /** ISO times. */
  startedAt: string;
  lastSeenAt: string;
  /** Set when the queue's last worker stopped cleanly: kept as the queue's last publication. */
  stoppedAt: string | null;
}

export function sha256(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

/**
 * The digest of what a worker offers. MCP tools are listed but left out: their catalog is whatever their
 * servers list at the moment (a server that is down lists nothing), so it is no fixed property of the worker.
 */
export function offerDigest(tools: readonly OfferedTool[], agents: readonly OfferedAgent[]): string {
  const byName = <T extends { name: string }>(items: readonly T[]) => [...items].sort((a, b) => a.name.localeCompare(b.name));
  return sha256({
    tools: byName(tools.filter((t) => t.source !== 'mcp')).map((t) => ({ name: t.name, digest: t.digest })),
    agents: byName(agents).map((a) => ({ name: a.name, digest: a.digest })),
  });
}

/** Whether the worker was seen recently and has not stopped. */
export function isLive(offer: WorkerOffer, now: number): boolean {
  return offer.stoppedAt === null && now - Date.parse(offer.lastSeenAt) < OFFER_GONE_AFTER_MS;
}

/** What differs between two workers' offers (MCP tools aside), in words: empty when nothing does. */
export function offerDifferences(mine: WorkerOffer, theirs: WorkerOffer): string[] {
  const differences: string[] = [];
  const compare = (what: 'tool' | 'agent', a: readonly { name: string; digest: string }[], b: readonly { name: string; digest: string }[]) => {
    const other = new Map(b.map((x) => [x.name, x.digest]));
    const own = new Map(a.map((x) => [x.name, x.digest]));
    for (const [name, digest] of own) {
      if (!other.has(name)) differences.push(`${what} "${name}" is offered by this worker only`);
      else if (other.get(name) !== digest) differences.push(`${what} "${name}" is defined differently`);
    }
    for (const name of other.keys()) if (!own.has(name)) differences.push(`${what} "${name}" is offered by ${theirs.workerId} only`);
  };
  compare('tool', mine.tools.filter((t) => t.source !== 'mcp'), theirs.tools.filter((t) => t.source !== 'mcp'));
  compare('agent', mine.agents, theirs.agents);
  return differences;
}

/**
 * Why `mine` may not join the live workers of its queue (they offer other tools or agents), naming each
 * difference and the worker that has it; undefined when it may.
 */
export function offerConflict(mine: WorkerOffer, offers: readonly WorkerOffer[], now: number): string | undefined {
  const others = offers.filter((o) => o.taskQueue === mine.taskQueue && o.workerId !== mine.workerId && o.digest !== mine.digest && isLive(o, now));
  if (!others.length) return undefined;
  const lines = others.map((other) => `worker ${other.workerId} (last seen ${other.lastSeenAt}): ${offerDifferences(mine, other).join('; ')}`);
  return (
    `This worker's tools or agents differ from what the live workers on task queue "${mine.taskQueue}" offer, so a run would get ` +
    `different tools depending on the worker that takes it:\n  ${lines.join('\n  ')}\n` +
    'Give this worker the same tools and agents, or stop those workers first; if this is a rolling deploy (the new workers replace ' +
    'the old ones), start it with createAgentWorker({ rollingDeploy: true }) or AGENT_ROLLING_DEPLOY=1.'
  );
}
