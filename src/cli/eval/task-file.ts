/** An eval task file (JSON or YAML): tasks, each a goal with the expectations it is judged by. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { RUN_STATUSES } from '../../wire/types.ts';
import { runInputSchema } from '../../client/run-input.ts';
import { expandRecordedTasks } from '../../recording/as-task.ts';
import { AgentError } from '../../wire/agent-error.ts';

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
    /** A run recording (path relative to the task file) replayed instead of a model; it fills in the rest (src/recording/as-task.ts). */
    recording: z.string().optional(),
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
        /** The receipt, exactly as the CLI prints it ("done: write_file a.txt · rejected: …"). */
        receipt: z.string().optional(),
      })
      .strict()
      .default({ status: 'completed', toolsRun: [], toolsNotRun: [], claims: [] }),
  })
  .strict();

export const taskFileSchema = z.object({ tasks: z.array(taskSchema).min(1) }).strict();

export type EvalTask = z.infer<typeof taskSchema>;
export type Claim = z.infer<typeof claimSchema>;

export class TaskFileError extends AgentError {
  override readonly name = 'TaskFileError';
  readonly code = 'TaskFile';
}

export function loadTaskFile(file: string): EvalTask[] {
  const text = readFileSync(file, 'utf8');
  let raw: unknown;
  try {
    raw = /\.ya?ml$/i.test(file) ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    throw new TaskFileError(`${file} is not valid ${/\.ya?ml$/i.test(file) ? 'YAML' : 'JSON'}: ${(error as Error).message}`);
  }
  let expanded: unknown;
  try {
    expanded = expandRecordedTasks(raw, path.dirname(file));
  } catch (error) {
    throw new TaskFileError(`${file}: ${(error as Error).message}`);
  }
  const parsed = taskFileSchema.safeParse(expanded);
  if (!parsed.success) throw new TaskFileError(`${file}: ${z.prettifyError(parsed.error)}`);
  return parsed.data.tasks;
}
