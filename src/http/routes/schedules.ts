/**
 * Scheduled agents over HTTP: list and describe (viewer); create, pause, unpause, trigger, delete (operator).
 * The same operations as `npm run agent -- schedule …` (`AgentSchedules`).
 */
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { InvalidRunInputError } from '../../client/run-input.ts';
import { InvalidScheduleError, OVERLAP_POLICIES, SCHEDULE_ID, ScheduleExistsError, ScheduleNotFoundError, scheduleInputSchema } from '../../client/schedule-input.ts';
import type { AgentSchedules } from '../../client/schedules.ts';
import { WorkspaceRefusedError } from '../../tools/workspace-roots.ts';
import { HttpError } from '../errors.ts';
import { errorSchema } from '../schemas.ts';

const scheduleSchema = z
  .object({
    id: z.string(),
    paused: z.boolean(),
    note: z.string().nullable(),
    goal: z.string(),
    model: z.string().describe('The model the run input names, or `agent:<name>`.'),
    cron: z.array(z.string()),
    everyMs: z.array(z.number()),
    timeZone: z.string(),
    overlap: z.enum(OVERLAP_POLICIES),
    dailyBudgetUsd: z.number().optional().describe("Its cap on spend per day (USD, a day in `timeZone`): further runs that day are skipped, `interrupted` with reason `schedule_budget`."),
    catchupWindowMs: z.number().optional(),
    jitterMs: z.number().optional(),
    recentRuns: z.array(z.object({ runId: z.string(), scheduledAt: z.string(), startedAt: z.string() })).describe('The runs it started last, oldest first; a run id is `schedule-<id>-<time>`.'),
    runningRunIds: z.array(z.string()).optional().describe('Its runs that have not ended (running or waiting for a person).'),
    nextRunTimes: z.array(z.string()),
    runsStarted: z.number().optional(),
    skippedOverlap: z.number().optional().describe('Times skipped because its last run had not ended.'),
    missedCatchupWindow: z.number().optional(),
  })
  .meta({ id: 'Schedule' });

const scheduleIdParams = z.object({ id: z.string().regex(SCHEDULE_ID, 'a schedule id is 1-64 letters, digits, "_" or "-"').describe('The schedule id.') });
const noteBody = z.object({ note: z.string().max(500).optional().describe('Why (shown with the schedule).') }).strict();

/** Schedule errors as HTTP errors; anything else goes to the app's error handler. */
function asHttp(error: unknown): never {
  if (error instanceof InvalidScheduleError || error instanceof InvalidRunInputError) throw new HttpError('invalid_request', error.message, 'body');
  if (error instanceof WorkspaceRefusedError) throw new HttpError('invalid_request', error.message, 'body.run.workspace');
  if (error instanceof ScheduleNotFoundError) throw new HttpError('not_found', error.message);
  if (error instanceof ScheduleExistsError) throw new HttpError('conflict', error.message);
  throw error;
}

export const scheduleRoutes: FastifyPluginCallbackZod<{ schedules: AgentSchedules }> = (app, { schedules }, done) => {
  const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };
  app.post(
    '/schedules',
    {
      config: { role: 'operator' },
      schema: {
        summary: 'Create a scheduled agent',
        description: 'A Temporal Schedule that starts a run with `run` at each time of `cron` or `every` (in `timeZone`); overlap `skip` by default: no new run while its last one still runs or waits for a person.',
        tags: ['schedules'],
        body: scheduleInputSchema,
        response: { 201: scheduleSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 409: errorSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await schedules.create(request.body).catch(asHttp)),
  );

  app.get(
    '/schedules',
    {
      schema: {
        summary: 'List scheduled agents',
        description: "This task queue's schedules, by id.",
        tags: ['schedules'],
        response: { 200: z.object({ schedules: z.array(scheduleSchema) }), 401: errorSchema },
      },
    },
    async () => ({ schedules: await schedules.list() }),
  );

  app.get(
    '/schedules/:id',
    {
      schema: {
        summary: 'A scheduled agent',
        description: 'Its spec and policies, its recent and running runs, what it skipped, its next times.',
        tags: ['schedules'],
        params: scheduleIdParams,
        response: { 200: scheduleSchema, 400: errorSchema, 401: errorSchema, 404: errorSchema },
      },
    },
    async (request) => schedules.describe(request.params.id).catch(asHttp),
  );

  for (const action of ['pause', 'unpause'] as const) {
    app.post(
      `/schedules/:id/${action}`,
      {
        config: { role: 'operator' },
        schema: {
          summary: action === 'pause' ? 'Pause a scheduled agent' : 'Unpause a scheduled agent',
          description: action === 'pause' ? 'No run starts at its times until it is unpaused (runs already started go on).' : 'Its times start runs again.',
          tags: ['schedules'],
          params: scheduleIdParams,
          body: noteBody.nullish(),
          response: { 200: scheduleSchema, ...errors },
        },
      },
      async (request) => {
        const note = request.body?.note ?? `${action}d by ${request.principal.name} over HTTP`;
        return (action === 'pause' ? schedules.pause(request.params.id, note) : schedules.unpause(request.params.id, note)).catch(asHttp);
      },
    );
  }

  app.post(
    '/schedules/:id/trigger',
    {
      config: { role: 'operator' },
      schema: {
        summary: 'Trigger a scheduled agent now',
        description: 'Starts a run now under the schedule’s overlap policy (with `skip`, nothing starts while its last run has not ended: see `skippedOverlap`).',
        tags: ['schedules'],
        params: scheduleIdParams,
        response: { 202: z.object({ id: z.string(), triggered: z.literal(true) }), ...errors },
      },
    },
    async (request, reply) => {
      await schedules.trigger(request.params.id).catch(asHttp);
      return reply.code(202).send({ id: request.params.id, triggered: true as const });
    },
  );

  app.delete(
    '/schedules/:id',
    {
      config: { role: 'operator' },
      schema: {
        summary: 'Delete a scheduled agent',
        description: 'The runs it started go on.',
        tags: ['schedules'],
        params: scheduleIdParams,
        response: { 204: z.null().describe('Deleted.'), ...errors },
      },
    },
    async (request, reply) => {
      await schedules.delete(request.params.id).catch(asHttp);
      return reply.code(204).send(null);
    },
  );
  done();
};
