/** The run input as it arrives from outside (CLI, services): validated before any workflow starts. */
import { z } from 'zod';
import { contractsByName } from '../tools/contracts.ts';
import { isMcpToolName } from '../tools/mcp-contracts.ts';
import { isRecordedModel } from '../wire/replay.ts';
import { runInputSchema as wireRunInputSchema, type RunInput } from '../wire/run-input.ts';
import { AgentError } from '../wire/agent-error.ts';
import { FailureType } from '../wire/failures.ts';

/** The wire schema, with tool names this process knows (its own tools, or an MCP server's `server__tool`). */
export const runInputSchema = wireRunInputSchema.extend({
  tools: z
    .array(z.string())
    .refine((names) => names.every((n) => contractsByName.has(n) || isMcpToolName(n)), {
      message: `unknown tool name; known tools: ${[...contractsByName.keys()].join(', ')}, and the workers' MCP tools as server__tool`,
    })
    .optional(),
});

export class InvalidRunInputError extends AgentError {
  override readonly name = 'InvalidRunInputError';
  readonly code = FailureType.invalidRunInput;
}

export function parseRunInput(input: unknown): RunInput {
  const parsed = runInputSchema.safeParse(input);
  if (!parsed.success) throw new InvalidRunInputError(`Invalid run input: ${z.prettifyError(parsed.error)}`);
  if (parsed.data.replay && !isRecordedModel(parsed.data.model)) throw new InvalidRunInputError('Invalid run input: replay options need a recorded model ("recorded:<file>").');
  return parsed.data;
}
