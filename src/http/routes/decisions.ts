/**
 * What people decide (approver): approve or reject a pending tool call, answer a question. Each is the
 * run's Workflow Update, so the caller learns at once whether the run took it (200) or refused it (409,
 * with the run's reason). The token's name is recorded as `by`.
 */
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { AgentClient } from '../../client/client.ts';
import { HttpError } from '../errors.ts';
import { answerBody, answerResponse, callKeyParams, decisionBody, decisionResponse, errorSchema, runIdParams } from '../schemas.ts';

export const decisionRoutes: FastifyPluginCallbackZod<{ agents: AgentClient }> = (app, { agents }, done) => {
  /** A decision sent to a run that is gone: 404 if it never existed, 409 if it has ended. */
  const toRun = async <T>(runId: string, send: () => Promise<T>): Promise<T> => {
    try {
      return await send();
    } catch (error) {
      if ((error as Error).name !== 'WorkflowNotFoundError') throw error;
      await agents.requireRun(runId);
      throw new HttpError('conflict', `Run ${runId} has ended: nothing waits for a decision.`);
    }
  };

  app.post(
    '/runs/:id/approvals/:callKey',
    {
      config: { role: 'approver' },
      schema: {
        summary: 'Approve or reject a pending tool call',
        description: 'Approving quotes the `argsHash` you were shown: if the arguments differ, the run refuses (409).',
        tags: ['decisions'],
        params: callKeyParams,
        body: decisionBody,
        response: { 200: decisionResponse, 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema },
      },
    },
    async (request) => {
      const { id: runId, callKey } = request.params;
      const { decision, argsHash, reason } = request.body;
      const by = request.principal.name;
      const decided = await toRun(runId, () =>
        decision === 'approve'
          ? agents.approve(runId, { callKey, argsHash: argsHash!, by })
          : agents.reject(runId, { callKey, ...(reason ? { reason } : {}), by }),
      );
      return decided!;
    },
  );

  app.post(
    '/runs/:id/answer',
    {
      config: { role: 'approver' },
      schema: {
        summary: 'Answer the question the agent asked (ask_user)',
        tags: ['decisions'],
        params: runIdParams,
        body: answerBody,
        response: { 200: answerResponse, 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema },
      },
    },
    async (request) => {
      const { text, callKey } = request.body;
      return toRun(request.params.id, () => agents.answer(request.params.id, text, { ...(callKey ? { callKey } : {}), by: request.principal.name }));
    },
  );
  done();
};
