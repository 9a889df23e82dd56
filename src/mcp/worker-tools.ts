/** A worker's tools with its MCP servers' tools behind the built-in ones. */
import type { Tool } from '../tools/define-tool.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import { mcpConfigFromEnv, type McpServerConfig } from './config.ts';
import type { McpPool } from './pool.ts';

/** The worker's MCP servers, connected (none configured: null, and the MCP SDK is never loaded). */
export async function startMcpPool(configs: readonly McpServerConfig[] = mcpConfigFromEnv()): Promise<McpPool | null> {
  if (!configs.length) return null;
  const { McpPool } = await import('./pool.ts');
  return McpPool.start(configs);
}

/** Looks a name up among the built-in tools, then among the MCP servers' (`server__tool`). */
class RegistryWithMcp extends Map<string, Tool> {
  private readonly pool: McpPool;

  constructor(builtin: ToolRegistry, pool: McpPool) {
    super(builtin);
    this.pool = pool;
  }

  override get(name: string): Tool | undefined {
    return super.get(name) ?? this.pool.tool(name);
  }

  override has(name: string): boolean {
    return this.get(name) !== undefined;
  }
}

export function withMcpTools(builtin: ToolRegistry, pool: McpPool | null): ToolRegistry {
  return pool ? new RegistryWithMcp(builtin, pool) : builtin;
}
