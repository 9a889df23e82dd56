/** The run input as it arrives from outside (CLI, services): validated before any workflow starts. */
import { z } from 'zod';
import { TOOL_NAME } from '../tools/define-tool.ts';
import { isRecordedModel } from '../wire/replay.ts';
import { runInputSchema as wireRunInputSchema, type RunInput } from '../wire/run-input.ts';
import { AgentError } from '../wire/agent-error.ts';
import { FailureType } from '../wire/failures.ts';

/**
 * The wire schema, with tool names checked for their form: which tools exist is the workers' to say (their
 * own and MCP servers' tools besides the built-in ones), so a run naming one no worker offers fails at once,
 * naming the tools there are.
 */
export const runInputSchema = wireRunInputSchema.extend({
  tools: z
    .array(z.string().regex(TOOL_NAME, 'a tool name is 1-64 letters, digits, "_" or "-"'))
    .optional(),
});

/** The run input was refused before any run started; the message names each field at fault. */
export class InvalidRunInputError extends AgentError {
  override readonly name = 'InvalidRunInputError';
  readonly code = FailureType.invalidRunInput;
  /** The input field at fault, when it is one (`model`). */
  readonly field: string | undefined;

  constructor(message: string, field?: string) {
    super(message);
    this.field = field;
  }
}

export function parseRunInput(input: unknown): RunInput {
  const parsed = runInputSchema.safeParse(input);
  if (!parsed.success) throw new InvalidRunInputError(`Invalid run input: ${z.prettifyError(parsed.error)}`);
  if (parsed.data.model === undefined && parsed.data.agent === undefined) throw new InvalidRunInputError('Invalid run input: give `model`, or `agent` (whose definition names one).', 'model');
  if (parsed.data.replay && !isRecordedModel(parsed.data.model ?? '')) throw new InvalidRunInputError('Invalid run input: replay options need a recorded model ("recorded:<file>").');
  return parsed.data;
}
