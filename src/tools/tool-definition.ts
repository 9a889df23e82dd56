/**
 * A tool as a worker offers it to runs: plain JSON (the arguments' JSON Schema and the contract's flags),
 * for the tools the workflow cannot import — a team's own tools (`defineTool`, given to the worker) and MCP
 * servers' tools. A run learns them from history (the worker's catalog, `workflows/worker-tools.ts`) and
 * builds contracts from them, so the same validation, policy, approval, call keys, dedupe, bounds and
 * receipts apply as to the built-in tools, and a replay sees the same definitions.
 * Sandbox-safe (zod only): the workflow bundle imports this file.
 */
import { z } from 'zod';
import { defineToolContract, type Risk, type ToolContract, type ToolRetry } from './define-tool.ts';

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema). */
  inputSchema: Record<string, unknown>;
  readOnly: boolean;
  risk: Risk;
  timeoutMs: number;
  maxOutputChars: number;
  idempotent: boolean;
  redact: string[];
  retry?: ToolRetry;
}

/** A worker's own tool (not an MCP server's) as it offers it: its contract, with the arguments' schema as JSON Schema. Worker side. */
export function definitionOf(contract: ToolContract): ToolDefinition {
  return {
    name: contract.name,
    description: contract.description,
    inputSchema: z.toJSONSchema(contract.input),
    readOnly: contract.readOnly,
    risk: contract.risk,
    timeoutMs: contract.timeoutMs,
    maxOutputChars: contract.maxOutputChars,
    idempotent: contract.idempotent,
    redact: [...contract.redact],
    ...(contract.retry ? { retry: contract.retry } : {}),
  };
}

/**
 * The contract the workflow validates a call against. Throws when zod cannot read the schema (a worker
 * leaves such a tool out of its catalog, so this is defence in depth). The result is what the worker's
 * activity checks against the tool's own output schema: here, any JSON.
 */
export function contractFromDefinition(definition: ToolDefinition): ToolContract {
  return defineToolContract({
    name: definition.name,
    description: definition.description,
    input: z.fromJSONSchema(definition.inputSchema),
    output: z.unknown(),
    readOnly: definition.readOnly,
    risk: definition.risk,
    timeoutMs: definition.timeoutMs,
    maxOutputChars: definition.maxOutputChars,
    idempotent: definition.idempotent,
    redact: definition.redact,
    ...(definition.retry ? { retry: definition.retry } : {}),
  });
}

/** The definition's contract, or null when its schema cannot be read back (the workflow leaves such a tool out). */
export function readableContract(definition: ToolDefinition): ToolContract | null {
  try {
    return contractFromDefinition(definition);
  } catch {
    return null;
  }
}

/** Whether the workflow can read the definition's schema (a worker offers only those it can). */
export function readableDefinition(definition: ToolDefinition): boolean {
  return readableContract(definition) !== null;
}
