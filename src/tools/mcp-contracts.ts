/**
 * MCP tools as tool contracts. A worker discovers its MCP servers' tools at start; a run learns them from
 * the `mcpTools` activity, whose result is in the run's history, so replay sees the same definitions. The
 * definitions are plain JSON (the server's JSON Schema and the flags the worker's configuration gives the
 * tool); this module turns one into a contract the workflow validates arguments against.
 * Sandbox-safe (zod only): the workflow bundle imports this file.
 */
import { z } from 'zod';
import { defineToolContract, type ToolContract } from './define-tool.ts';
import type { Risk } from '../wire/types.ts';

/** `server__tool`: the server's name, two underscores, the tool's name on that server. */
export const MCP_NAME_SEPARATOR = '__';

/** One MCP tool as a worker offers it: JSON-safe, it crosses the activity boundary into history. */
export interface McpToolDefinition {
  /** `server__tool` */
  name: string;
  server: string;
  /** The tool's name on its server. */
  tool: string;
  description: string;
  /** The server's JSON Schema for the arguments (an object schema). */
  inputSchema: Record<string, unknown>;
  readOnly: boolean;
  risk: Risk;
  timeoutMs: number;
  maxOutputChars: number;
  idempotent: boolean;
  redact: string[];
}

export function mcpToolName(server: string, tool: string): string {
  return `${server}${MCP_NAME_SEPARATOR}${tool}`;
}

/** Built-in tool names never contain `__`; MCP tool names always do. */
export function isMcpToolName(name: string): boolean {
  return name.includes(MCP_NAME_SEPARATOR);
}

/**
 * The contract the workflow validates a call against. Throws when zod cannot read the server's schema
 * (the worker leaves such a tool out at discovery, so this is defence in depth).
 */
export function contractFromMcpDefinition(definition: McpToolDefinition): ToolContract {
  return defineToolContract({
    name: definition.name,
    description: definition.description,
    input: z.fromJSONSchema(definition.inputSchema),
    output: z.string(),
    readOnly: definition.readOnly,
    risk: definition.risk,
    timeoutMs: definition.timeoutMs,
    maxOutputChars: definition.maxOutputChars,
    idempotent: definition.idempotent,
    redact: definition.redact,
    // A side-effect call that may have acted is not repeated blindly: the server may not honour the key.
    retry: { maximumAttempts: definition.readOnly || definition.idempotent ? 3 : 1 },
  });
}
