/** Runs: start (operator), list, state, trace (viewer), cancel (operator). */
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isTerminal, type AgentClient } from '../../client/client.ts';
import { runInputSchema } from '../../client/run-input.ts';
import type { AgentStore } from '../../store/store.ts';
import { HttpError } from '../errors.ts';
import {
  cancelBody,
  cancelResponse,
  errorSchema,
  listRunsQuery,
  runDetailSchema,
  runIdParams,
  runListSchema,
  startRunResponse,
  traceSchema,
} from '../schemas.ts';

export const runRoutes: FastifyPluginCallbackZod<{ agents: AgentClient; store: AgentStore }> = (app, { agents, store }, done) => {
  app.post(
    '/runs',
    {
      config: { role: 'operator' },
      schema: {
        summary: 'Start a run',
        description: 'Validates the run input and starts the run; returns at once with its id. `?runId=` makes a retried start safe (409 if it exists).',
        tags: ['runs'],
        body: runInputSchema,
        querystring: z.object({ runId: z.string().regex(/^[\w.:-]{1,200}$/, 'letters, digits and . _ : - only').optional() }).strict(),
        response: { 201: startRunResponse, 400: errorSchema, 401: errorSchema, 403: errorSchema, 409: errorSchema },
      },
    },
    async (request, reply) => {
      try {
        const started = await agents.startRun(request.body, request.query.runId ? { runId: request.query.runId } : {});
        return reply.code(201).send(started);
      } catch (error) {
        if (error instanceof WorkflowExecutionAlreadyStartedError) throw new HttpError('conflict', `A run with id "${request.query.runId}" already exists.`);
        throw error;
      }
    },
  );

  app.get(
    '/runs',
    {
      schema: {
        summary: 'List runs',
        description: 'Newest first, through Temporal visibility (custom search attributes AgentStatus, AgentPendingTool, …).',
        tags: ['runs'],
        querystring: listRunsQuery,
        response: { 200: runListSchema, 400: errorSchema, 401: errorSchema },
      },
    },
    async (request) => {
      const { status, pending, tool, limit } = request.query;
      const runs = await agents.listRuns({ ...(status ? { status } : {}), pending, ...(tool ? { tool } : {}), ...(limit ? { limit } : {}) });
      return { runs };
    },
  );

  app.get(
    '/runs/:id',
    {
      schema: {
        summary: "A run's state",
        description: 'Live from the workflow while it runs, from its memo once closed; with the limits it was started with.',
        tags: ['runs'],
        params: runIdParams,
        response: { 200: runDetailSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const state = await agents.getState(request.params.id);
      const memo = await agents.runMemo(request.params.id);
      return { ...state, limits: memo?.limits ?? null };
    },
  );

  app.get(
    '/runs/:id/trace',
    {
      schema: {
        summary: "A run's trace",
        description: 'Every trace line, in order, from the store every worker host writes to.',
        tags: ['runs'],
        params: runIdParams,
        response: { 200: traceSchema, 400: errorSchema, 401: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      await agents.requireRun(request.params.id);
      return { runId: request.params.id, lines: await store.readTrace(request.params.id) };
    },
  );

  app.post(
    '/runs/:id/cancel',
    {
      config: { role: 'operator' },
      schema: {
        summary: 'Cancel a run',
        description: 'The model call and tools in flight are aborted; the run ends `interrupted` with the reason.',
        tags: ['runs'],
        params: runIdParams,
        body: cancelBody.nullish(),
        response: { 202: cancelResponse, 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema },
      },
    },
    async (request, reply) => {
      const runId = request.params.id;
      const state = await agents.getState(runId);
      if (isTerminal(state)) throw new HttpError('conflict', `Run ${runId} has already ended (${state.status}).`);
      await agents.cancelRun(runId, request.body?.reason ?? `cancelled by ${request.principal.name} over HTTP`);
      return reply.code(202).send({ runId, cancelRequested: true as const });
    },
  );
  done();
};
