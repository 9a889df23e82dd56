/**
 * A worker's MCP servers: connected at worker start (a `required` server or tool that is not there stops
 * the worker; any other down server is reported and its tools are left out), kept open and shared by
 * every call, and reconnected when needed. Its catalog — each tool as a JSON-safe definition with the
 * configuration's flags — is what runs learn through the `mcpTools` activity.
 */
import { z } from 'zod';
import type { Tool } from '../tools/define-tool.ts';
import { mcpToolName, type McpToolDefinition } from '../tools/mcp-contracts.ts';
import { toolSettings, type McpServerConfig } from './config.ts';
import { McpServerConnection } from './connection.ts';
import { McpRequiredError } from './errors.ts';
import { createMcpTool } from './tool.ts';

export interface McpCatalog {
  definitions: McpToolDefinition[];
  /** Configured servers whose tools are not offered now, and why. */
  down: { server: string; error: string }[];
}

/** A server that is down is tried again by a later catalog request, at most this often. */
const RETRY_DOWN_EVERY_MS = 30_000;

export class McpPool {
  private readonly connections: Map<string, McpServerConnection>;
  private readonly log: (line: string) => void;
  private catalogCache: McpCatalog | null = null;
  /** Tools left out of the catalog, already reported (each is reported once). */
  private readonly reported = new Set<string>();

  private constructor(configs: readonly McpServerConfig[], log: (line: string) => void) {
    this.log = log;
    this.connections = new Map(configs.map((c) => [c.name, new McpServerConnection(c)]));
    for (const connection of this.connections.values()) connection.onToolsChanged = () => (this.catalogCache = null);
  }

  /** Connects every server. Throws McpRequiredError when a required server or tool is missing. */
  static async start(configs: readonly McpServerConfig[], log: (line: string) => void = (line) => console.warn(line)): Promise<McpPool> {
    const pool = new McpPool(configs, log);
    const failures = await Promise.all(
      [...pool.connections.values()].map((c) =>
        c.connect().then(
          () => null,
          (error: unknown) => ({ connection: c, message: (error as Error).message }),
        ),
      ),
    );
    const problems: string[] = [];
    for (const failure of failures) {
      if (!failure) continue;
      if (failure.connection.config.required) problems.push(failure.message);
      else log(`${failure.message}. The worker starts without its tools; a later run start tries it again.`);
    }
    for (const connection of pool.connections.values()) {
      if (!connection.connected) continue;
      const listed = new Set(connection.tools.map((t) => t.name));
      const absent = Object.entries(connection.config.tools).filter(([name, settings]) => settings.required && !listed.has(name)).map(([name]) => name);
      if (absent.length) problems.push(`MCP server "${connection.config.name}" does not offer the required tool${absent.length > 1 ? 's' : ''} ${absent.join(', ')} (it offers: ${[...listed].join(', ') || 'none'})`);
    }
    if (problems.length) {
      await pool.close();
      throw new McpRequiredError(`The worker does not start: ${problems.join('; ')}. Fix the server or set \`required: false\` in AGENT_MCP_CONFIG.`);
    }
    return pool;
  }

  /** The tools runs may use now, as contracts' data; servers that are down are named (and tried again in the background). */
  catalog(): McpCatalog {
    this.retryDownServers();
    if (this.catalogCache) return this.catalogCache;
    const definitions: McpToolDefinition[] = [];
    const down: McpCatalog['down'] = [];
    for (const connection of this.connections.values()) {
      if (!connection.connected && connection.tools.length === 0) {
        down.push({ server: connection.config.name, error: connection.lastError ?? 'not connected yet' });
        continue;
      }
      for (const tool of connection.tools) {
        const definition = this.definitionOf(connection.config, tool.name, tool.description ?? '', tool.inputSchema);
        if (definition) definitions.push(definition);
      }
    }
    this.catalogCache = { definitions, down };
    return this.catalogCache;
  }

  /** The implementation of `server__tool` for the runTool activity: any tool of a configured server (the call says when it is gone). */
  tool(name: string): Tool | undefined {
    for (const connection of this.connections.values()) {
      const prefix = mcpToolName(connection.config.name, '');
      if (!name.startsWith(prefix)) continue;
      const toolName = name.slice(prefix.length);
      // A listed tool's definition is the catalog's; one the server no longer lists gets the configured flags.
      const definition = this.definition(name) ?? this.definitionOf(connection.config, toolName, '', { type: 'object' });
      return definition ? createMcpTool(connection, definition) : undefined;
    }
    return undefined;
  }

  /** The model-facing schema of an MCP tool the worker offers now (undefined when it does not). */
  definition(name: string): McpToolDefinition | undefined {
    return this.catalog().definitions.find((d) => d.name === name);
  }

  connection(server: string): McpServerConnection | undefined {
    return this.connections.get(server);
  }

  async close(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.close()));
  }

  private definitionOf(server: McpServerConfig, tool: string, description: string, inputSchema: Record<string, unknown>): McpToolDefinition | null {
    const name = mcpToolName(server.name, tool);
    const problem = !/^[a-zA-Z0-9_-]{1,64}$/.test(name) ? `its name "${name}" is not 1-64 letters, digits, "_" or "-"` : unreadableSchema(inputSchema);
    if (problem) {
      if (!this.reported.has(name)) this.log(`MCP tool "${tool}" of server "${server.name}" is left out: ${problem}.`);
      this.reported.add(name);
      return null;
    }
    return { name, server: server.name, tool, description: description || `${tool} (MCP server ${server.name})`, inputSchema, ...toolSettings(server, tool) };
  }

  private retryDownServers(): void {
    for (const connection of this.connections.values()) {
      if (connection.connected || Date.now() - connection.lastAttemptAt < RETRY_DOWN_EVERY_MS) continue;
      connection.connect().then(
        () => this.log(`MCP server "${connection.config.name}" is up again; runs started from now on offer its tools.`),
        () => {},
      );
    }
  }
}

function unreadableSchema(schema: Record<string, unknown>): string | null {
  try {
    z.fromJSONSchema(schema);
    return null;
  } catch (error) {
    return `zod cannot read its input schema (${(error as Error).message})`;
  }
}
