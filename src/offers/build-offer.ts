/** A worker's offer (offer.ts) from its tools, its MCP servers' catalog and its agents. Worker side. */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { contractsByName } from '../tools/contracts.ts';
import type { Tool } from '../tools/define-tool.ts';
import { definitionOf } from '../tools/tool-definition.ts';
import { agentDefinition, type Agent } from '../agents/define-agent.ts';
import type { McpPool } from '../mcp/pool.ts';
import { offerDigest, sha256, type OfferedAgent, type OfferedTool, type WorkerOffer } from './offer.ts';

/** `hostname:pid:random`: a new id at every start, so a restarted worker is a new publication. */
export function newWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

export function buildOffer(workerId: string, taskQueue: string, tools: Iterable<Tool>, mcp: McpPool | null, agents: readonly Agent[]): WorkerOffer {
  const offered: OfferedTool[] = [...tools].map((tool) => ({
    name: tool.name,
    risk: tool.risk,
    readOnly: tool.readOnly,
    source: contractsByName.has(tool.name) ? 'builtin' : 'own',
    // Built-in and own tools all survive the trip to JSON Schema (own ones are checked at the worker's start).
    digest: sha256(definitionOf(tool)),
  }));
  for (const definition of mcp?.catalog().definitions ?? []) {
    offered.push({ name: definition.name, risk: definition.risk, readOnly: definition.readOnly, source: 'mcp', digest: sha256(definition) });
  }
  const offeredAgents: OfferedAgent[] = agents.map((agent) => {
    const definition = agentDefinition(agent);
    return { name: agent.name, model: definition.model ?? null, tools: definition.tools ?? null, digest: sha256(definition) };
  });
  const at = new Date().toISOString();
  return { workerId, taskQueue, digest: offerDigest(offered, offeredAgents), tools: offered, agents: offeredAgents, startedAt: at, lastSeenAt: at, stoppedAt: null };
}
