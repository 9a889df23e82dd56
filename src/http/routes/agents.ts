/** What the workers offer (viewer): their tools and agents as they published them to the store. */
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { listOffers } from '../../offers/listing.ts';
import type { AgentStore } from '../../store/store.ts';
import { agentListingSchema, errorSchema } from '../schemas.ts';

export const agentRoutes: FastifyPluginCallbackZod<{ store: AgentStore }> = (app, { store }, done) => {
  app.get(
    '/agents',
    {
      schema: {
        summary: 'Agents and tools the workers offer',
        description:
          'Per task queue, what its live workers published to the store at their start: tools with their risk, agents with their model and tools, and the digest (one entry per digest: two during a rolling deploy). A queue with no live worker lists its last publication with `live: false`.',
        tags: ['agents'],
        response: { 200: agentListingSchema, 401: errorSchema },
      },
    },
    async () => ({ offers: listOffers(await store.listWorkerOffers(), Date.now()) }),
  );
  done();
};
