import type { McpCatalog, McpPool } from '../src/mcp/pool.ts';

/**
 * The worker's MCP tool definitions, for a run starting (or continuing as new): served from memory, so it
 * runs as a local activity; its result is in the run's history, which is how the workflow knows MCP tools.
 */
export function createMcpTools(pool: McpPool | null) {
  return function mcpTools(): Promise<McpCatalog> {
    return Promise.resolve(pool ? pool.catalog() : { definitions: [], down: [] });
  };
}
