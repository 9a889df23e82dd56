/** The run input as it arrives from outside (CLI, services): validated with zod before any workflow starts. */
import { z } from 'zod';
import { contractsByName } from './tools/contracts.ts';
import { isMcpToolName } from './tools/mcp-contracts.ts';
import type { RunInput } from '../workflows/types.ts';
import { MAX_GOAL_CHARS, MAX_SYSTEM_CHARS } from '../workflows/payload-bounds.ts';
import { isRecordedModel, REPLAY_TOOL_MODES } from '../workflows/replay.ts';

export const runInputSchema = z.object({
  goal: z.string().min(1, 'goal is empty: say what the agent should do').max(MAX_GOAL_CHARS, `goal is longer than ${MAX_GOAL_CHARS} characters: put large material in the workspace and name it`),
  model: z.string().min(1).max(1000),
  system: z.string().max(MAX_SYSTEM_CHARS).optional(),
  tools: z
    .array(z.string())
    .optional()
    .refine((names) => !names || names.every((n) => contractsByName.has(n) || isMcpToolName(n)), {
      message: `unknown tool name; known tools: ${[...contractsByName.keys()].join(', ')}, and the workers' MCP tools as server__tool`,
    }),
  limits: z
    .object({
      maxTurns: z.number().int().positive().optional(),
      maxBudgetUsd: z.number().positive().optional(),
      maxWallMs: z.number().int().positive().optional(),
      maxToolCalls: z.number().int().nonnegative().optional(),
      maxRepeatedCalls: z.number().int().nonnegative().optional(),
      maxStaleTurns: z.number().int().nonnegative().optional(),
      maxPolicyDenials: z.number().int().positive().optional(),
    })
    .strict()
    .optional(),
  toolErrorsAreFatal: z.boolean().optional(),
  workspace: z.string().refine((p) => p.startsWith('/'), 'workspace must be an absolute path').optional(),
  stream: z.boolean().optional(),
  policy: z
    .object({
      mediumQuota: z.number().int().nonnegative().optional(),
      allowExtreme: z.array(z.string()).optional(),
      requireApproval: z.array(z.string()).optional(),
      approvalTimeoutMs: z.number().int().positive().optional(),
    })
    .strict()
    .optional(),
  outputSchema: z
    .record(z.string(), z.unknown())
    .refine((schema) => {
      try {
        z.fromJSONSchema(schema);
        return true;
      } catch {
        return false;
      }
    }, 'outputSchema is not a JSON Schema zod can read')
    .optional(),
  continueAsNewEveryTurns: z.number().int().positive().optional(),
  replay: z.object({ tools: z.enum(REPLAY_TOOL_MODES).optional() }).strict().optional(),
  research: z
    .object({
      maxTurns: z.number().int().positive().optional(),
      maxBudgetUsd: z.number().positive().optional(),
      model: z.string().min(1).optional(),
    })
    .strict()
    .optional(),
})
  .strict() satisfies z.ZodType<RunInput>;

export class InvalidRunInputError extends Error {
  override readonly name = 'InvalidRunInputError';
}

export function parseRunInput(input: unknown): RunInput {
  const parsed = runInputSchema.safeParse(input);
  if (!parsed.success) throw new InvalidRunInputError(`Invalid run input: ${z.prettifyError(parsed.error)}`);
  if (parsed.data.replay && !isRecordedModel(parsed.data.model)) throw new InvalidRunInputError('Invalid run input: replay options need a recorded model ("recorded:<file>").');
  return parsed.data;
}
