/** An eval task file (JSON or YAML): tasks, each a goal with the expectations it is judged by. */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { RUN_STATUSES } from '../../workflows/types.ts';
import { runInputSchema } from '../run-input.ts';

const pattern = z.string().refine((p) => {
  try {
    new RegExp(p, 'i');
    return true;
  } catch {
    return false;
  }
}, 'not a valid regular expression');

export const claimSchema = z.object({
  /** When the answer matches this (case-insensitive)… */
  answer: pattern,
  /** …this tool must have run successfully in the run. */
  requires: z.string(),
});

export const taskSchema = z
  .object({
    name: z.string().min(1),
    ...runInputSchema.omit({ model: true, workspace: true }).shape,
    model: z.string().min(1).optional(),
    /** Decisions for the approvals the run asks for, in order. */
    approvals: z.array(z.union([z.literal('approve'), z.object({ reject: z.string().optional() })])).default([]),
    /** Answers to the run's ask_user questions, in order. */
    inputs: z.array(z.string()).default([]),
    expect: z
      .object({
        status: z.enum(RUN_STATUSES).default('completed'),
        answer: pattern.optional(),
        toolsRun: z.array(z.string()).default([]),
        toolsNotRun: z.array(z.string()).default([]),
        maxTurns: z.number().int().positive().optional(),
        maxToolRuns: z.number().int().nonnegative().optional(),
        maxCostUsd: z.number().positive().optional(),
        claims: z.array(claimSchema).default([]),
      })
      .strict()
      .default({ status: 'completed', toolsRun: [], toolsNotRun: [], claims: [] }),
  })
  .strict();

export const taskFileSchema = z.object({ tasks: z.array(taskSchema).min(1) }).strict();

export type EvalTask = z.infer<typeof taskSchema>;
export type Claim = z.infer<typeof claimSchema>;

export class TaskFileError extends Error {
  override readonly name = 'TaskFileError';
}

export function loadTaskFile(file: string): EvalTask[] {
  const text = readFileSync(file, 'utf8');
  let raw: unknown;
  try {
    raw = /\.ya?ml$/i.test(file) ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    throw new TaskFileError(`${file} is not valid ${/\.ya?ml$/i.test(file) ? 'YAML' : 'JSON'}: ${(error as Error).message}`);
  }
  const parsed = taskFileSchema.safeParse(raw);
  if (!parsed.success) throw new TaskFileError(`${file}: ${z.prettifyError(parsed.error)}`);
  return parsed.data.tasks;
}
