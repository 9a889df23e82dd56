/**
 * What creates a scheduled agent (Temporal Schedules): the run input each time starts with, when (cron
 * expressions or an interval, in a time zone, with jitter), what happens when the last run has not ended
 * (overlap: by default the new one is skipped while the last still runs or waits for a person), and how
 * late a missed time may still be taken (catch-up window). Validated before anything reaches Temporal.
 */
import { z } from 'zod';
import { AgentError } from '../wire/agent-error.ts';
import { runInputSchema } from './run-input.ts';

/** What happens when a time comes while the schedule's last run has not ended (Temporal's overlap policies). */
export const OVERLAP_POLICIES = ['skip', 'buffer_one', 'buffer_all', 'cancel_other', 'terminate_other', 'allow_all'] as const;
/** What a schedule does when a run is due while its last run has not ended (default `skip`). */
export type OverlapPolicy = (typeof OVERLAP_POLICIES)[number];

/** A schedule's id: it begins every run id the schedule starts (`schedule-<id>-<time>`). */
export const SCHEDULE_ID = /^[a-zA-Z0-9_-]{1,64}$/;

/** A duration: milliseconds, or text such as `90s`, `15m`, `1h`, `1d`. */
const durationSchema = z.union([
  z.number().int().positive(),
  z.string().regex(/^\d+(ms|s|m|h|d)$/, 'a duration is a number of ms, or a number with ms, s, m, h or d (e.g. "15m")'),
]);

export const scheduleInputSchema = z
  .object({
    id: z.string().regex(SCHEDULE_ID, 'a schedule id is 1-64 letters, digits, "_" or "-"').describe('Names the schedule and begins every run id it starts.'),
    run: runInputSchema.describe('The input every run starts with (a goal and a model, or an agent).'),
    cron: z.array(z.string().min(9).max(200)).max(20).optional().describe('Cron expressions (`0 7 * * 1-5`: 07:00 on weekdays).'),
    every: durationSchema.optional().describe('An interval instead of (or besides) cron: "1h", "15m", or ms.'),
    timeZone: z.string().min(1).max(64).optional().describe('IANA time zone the cron expressions are read in (default UTC).'),
    overlap: z.enum(OVERLAP_POLICIES).optional().describe('When the last run has not ended (still running or waiting for a person): default skip.'),
    catchupWindow: durationSchema.optional().describe('How late a time missed while Temporal was down may still start a run (default: Temporal\'s, 1 year).'),
    jitter: durationSchema.optional().describe('Each run starts up to this much later than its time, at random.'),
    dailyBudgetUsd: z
      .number()
      .positive()
      .optional()
      .describe("A cap on the schedule's spend per day (USD; a day in `timeZone`): once today's runs have spent it, each further run is skipped at its first step (`interrupted`, reason `schedule_budget`) without calling the model."),
    paused: z.boolean().optional().describe('Create it paused.'),
    note: z.string().max(500).optional().describe('Why the schedule exists or is paused.'),
  })
  .strict()
  .refine((s) => (s.cron?.length ?? 0) > 0 || s.every !== undefined, { message: 'a schedule needs `cron` (one or more expressions) or `every` (an interval)', path: ['cron'] });
/** What creates a scheduled agent: an id, the run input, cron or an interval, time zone, overlap, catch-up window, jitter. */
export type ScheduleInput = z.infer<typeof scheduleInputSchema>;

/** The schedule input was refused before anything reached Temporal; the message names each field at fault. */
export class InvalidScheduleError extends AgentError {
  override readonly name = 'InvalidScheduleError';
  readonly code = 'InvalidSchedule';
}

/** No schedule with this id (of this client's task queue). */
export class ScheduleNotFoundError extends AgentError {
  override readonly name = 'ScheduleNotFoundError';
  readonly code = 'ScheduleNotFound';
}

/** A schedule with this id exists already. */
export class ScheduleExistsError extends AgentError {
  override readonly name = 'ScheduleExistsError';
  readonly code = 'ScheduleExists';
}

export function parseScheduleInput(input: unknown): ScheduleInput {
  const parsed = scheduleInputSchema.safeParse(input);
  if (!parsed.success) throw new InvalidScheduleError(`The schedule is not valid: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** A duration as milliseconds. */
export function durationMs(value: number | string): number {
  if (typeof value === 'number') return value;
  const [, amount, unit] = /^(\d+)(ms|s|m|h|d)$/.exec(value)!;
  return Number(amount) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[unit as 'ms' | 's' | 'm' | 'h' | 'd'];
}
