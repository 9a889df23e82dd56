/**
 * An MCP tool as one of our tool implementations: the runTool activity runs it like any tool (heartbeats,
 * cancellation, progress, output bounds); this sends `tools/call` on the pooled connection, with the
 * run's AbortSignal (a cancelled run cancels the MCP request), progress notifications as our progress,
 * and the idempotency key in `_meta`.
 */
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { implementTool, type Tool } from '../tools/define-tool.ts';
import { RetryableToolError } from '../tools/errors.ts';
import { contractFromMcpDefinition, type McpToolDefinition } from '../tools/mcp-contracts.ts';
import type { McpServerConnection } from './connection.ts';
import { McpServerUnavailableError } from './errors.ts';
import { progressLabel, resultText } from './result-text.ts';

/** `_meta` key carrying `<runId>:<callKey>` to the server: a server that honours it acts once per call. */
export const IDEMPOTENCY_META_KEY = 'io.github.durable-agent-harness/idempotency-key';

const tracer = () => trace.getTracer('agent-harness');

export function createMcpTool(connection: McpServerConnection, definition: McpToolDefinition): Tool {
  // The workflow's contract, with the arguments taken as they come: the workflow validated them against the
  // schema the run was given, and the server validates again.
  const contract = { ...contractFromMcpDefinition(definition), input: z.record(z.string(), z.unknown()) };
  const server = connection.config.name;
  return implementTool(contract, (args, ctx) =>
    tracer().startActiveSpan(
      `tools/call ${definition.tool}`,
      { kind: SpanKind.CLIENT, attributes: { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': definition.name, 'agent.mcp.server': server, 'network.transport': connection.transportName === 'stdio' ? 'pipe' : 'tcp' } },
      async (span) => {
        try {
          await ensureListed(connection, definition.tool);
          const result = await connection.callTool(definition.tool, args, {
            signal: ctx.signal,
            onprogress: (progress) => ctx.progress(progressLabel(progress)),
            timeoutMs: definition.timeoutMs,
            meta: { [IDEMPOTENCY_META_KEY]: ctx.idempotencyKey },
          });
          span.setAttribute('agent.mcp.is_error', result.isError === true);
          return resultText(result);
        } catch (error) {
          span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
          throw classify(error, definition, connection);
        } finally {
          span.end();
        }
      },
    ),
  );
}

/** A tool the server no longer lists is reported as gone (after one fresh listing), not sent. */
async function ensureListed(connection: McpServerConnection, tool: string): Promise<void> {
  await connection.connect();
  if (connection.tools.some((t) => t.name === tool)) return;
  await connection.refreshTools();
  if (connection.tools.some((t) => t.name === tool)) return;
  const offered = connection.tools.map((t) => t.name).join(', ') || 'none';
  throw new Error(`MCP server "${connection.config.name}" no longer offers the tool "${tool}" (it offers: ${offered}).`);
}

/**
 * Which failures Temporal retries: a server that cannot be reached (nothing was sent, so a retry cannot act
 * twice); a connection lost mid-call only for tools that are read-only or honour the idempotency key.
 * Anything else is the model's to read.
 */
function classify(error: unknown, definition: McpToolDefinition, connection: McpServerConnection): unknown {
  if (McpServerUnavailableError.isInstance(error)) return new RetryableToolError(error.message);
  if (error instanceof McpError && error.code === (ErrorCode.ConnectionClosed as number)) {
    const message = `MCP server "${connection.config.name}" closed the connection during the call${connection.lastError ? ` (${connection.lastError})` : ''}`;
    if (definition.readOnly || definition.idempotent) return new RetryableToolError(`${message}; retrying`);
    return new Error(`${message}: whether ${definition.tool} acted is unknown, and it is not retried because it has side effects and is not marked idempotent.`);
  }
  return error;
}
