import type { AgentDefinition } from '../src/agents/define-agent.ts';
import type { McpPool } from '../src/mcp/pool.ts';
import type { ToolDefinition } from '../src/tools/tool-definition.ts';

/** The tools a worker offers that runs learn from history: its own, then its MCP servers', and the servers that are down. */
export interface WorkerToolCatalog {
  definitions: ToolDefinition[];
  down: { server: string; error: string }[];
  /** The agents the worker offers (absent from workers and histories before agents). */
  agents?: AgentDefinition[];
}

/**
 * The worker's tool definitions (and agents), for a run starting (or continuing as new): served from memory, so it runs
 * as a local activity; its result is in the run's history, which is how the workflow knows these tools.
 */
export function createWorkerTools(own: readonly ToolDefinition[], pool: McpPool | null, agents: readonly AgentDefinition[] = []) {
  return function mcpTools(): Promise<WorkerToolCatalog> {
    const mcp = pool ? pool.catalog() : { definitions: [], down: [] };
    return Promise.resolve({ definitions: [...own, ...mcp.definitions], down: mcp.down, ...(agents.length ? { agents: [...agents] } : {}) });
  };
}
