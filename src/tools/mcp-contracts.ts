/**
 * MCP tools as tool contracts. A worker discovers its MCP servers' tools at start; a run learns them from
 * the `mcpTools` activity, whose result is in the run's history, so replay sees the same definitions. The
 * definitions are plain JSON (the server's JSON Schema and the flags the worker's configuration gives the
 * tool); this module turns one into a contract the workflow validates arguments against.
 * Sandbox-safe (zod only): the workflow bundle imports this file.
 */
import type { ToolContract } from './define-tool.ts';
import { contractFromDefinition, type ToolDefinition } from './tool-definition.ts';

/** `server__tool`: the server's name, two underscores, the tool's name on that server. */
export const MCP_NAME_SEPARATOR = '__';

/** One MCP tool as a worker offers it: JSON-safe, it crosses the activity boundary into history. */
export interface McpToolDefinition extends ToolDefinition {
  server: string;
  /** The tool's name on its server. */
  tool: string;
}

export function mcpToolName(server: string, tool: string): string {
  return `${server}${MCP_NAME_SEPARATOR}${tool}`;
}

/** Built-in tool names never contain `__`; MCP tool names always do. */
export function isMcpToolName(name: string): boolean {
  return name.includes(MCP_NAME_SEPARATOR);
}

/** The contract the workflow validates a call against (`tool-definition.ts`). */
export function contractFromMcpDefinition(definition: McpToolDefinition): ToolContract {
  return contractFromDefinition(definition);
}
