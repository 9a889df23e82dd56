/**
 * Worker Versioning over HTTP: the build a run is on (viewer), and moving a pinned run to a build
 * (operator) after replaying its history with this server's workflow code — so call it on a server built
 * from the code being rolled out. A run that would not replay is refused (409) with the first difference.
 */
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isTerminal, type AgentClient } from '../../client/client.ts';
import { runBuild } from '../../client/run-build.ts';
import { RunUpgradeRefusedError, upgradeRun } from '../../client/upgrade.ts';
import { HttpError } from '../errors.ts';
import { errorSchema, runIdParams } from '../schemas.ts';

const versionSchema = z.object({ deploymentName: z.string(), buildId: z.string() });
const runBuildSchema = z
  .object({
    version: versionSchema.nullable().describe('The build the run is on (null: unversioned).'),
    behavior: z.enum(['pinned', 'auto-upgrade']).nullable(),
    pinnedTo: versionSchema.nullable().describe('The build an operator pinned it to (`upgrade`), if any.'),
  })
  .meta({ id: 'RunBuild' });
const upgradeBody = z
  .object({
    deploymentName: z.string().min(1).max(200).describe('The Worker Deployment (as the new workers declare it).'),
    buildId: z.string().min(1).max(200).describe('The build to move the run to: the one this server runs.'),
  })
  .strict();

export const versioningRoutes: FastifyPluginCallbackZod<{ agents: AgentClient }> = (app, { agents }, done) => {
  app.get(
    '/runs/:id/build',
    {
      schema: {
        summary: "A run's build",
        description: 'Its Worker Deployment version, whether it is pinned or auto-upgrades, and an operator override.',
        tags: ['versioning'],
        params: runIdParams,
        response: { 200: runBuildSchema, 400: errorSchema, 401: errorSchema, 404: errorSchema },
      },
    },
    async (request) => runBuild(agents, request.params.id),
  );

  app.post(
    '/runs/:id/upgrade',
    {
      config: { role: 'operator' },
      schema: {
        summary: 'Move a pinned run to a build',
        description: "Replays the run's history with this server's workflow code; only if it replays is the run pinned to the build (its next workflow task runs there). 409: it does not replay (the first difference), or it has ended.",
        tags: ['versioning'],
        params: runIdParams,
        body: upgradeBody,
        response: { 200: runBuildSchema, 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema },
      },
    },
    async (request) => {
      const runId = request.params.id;
      if (isTerminal(await agents.getState(runId))) throw new HttpError('conflict', `Run ${runId} has ended: there is nothing to move.`);
      try {
        return await upgradeRun(agents, runId, request.body);
      } catch (error) {
        if (error instanceof RunUpgradeRefusedError) throw new HttpError('conflict', error.message);
        throw error;
      }
    },
  );
  done();
};
