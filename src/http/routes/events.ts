/**
 * `GET /runs/:id/events`: the run's live event stream (SSE, resumable with Last-Event-ID), and
 * `POST /runs/:id/events/ticket`: a short-lived ticket that opens it, for EventSource, which sends no headers.
 */
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { AgentClient } from '../../client/client.ts';
import { HttpError } from '../errors.ts';
import type { EventStreams } from '../event-stream.ts';
import { TICKET_TTL_MS, type EventTickets } from '../event-tickets.ts';
import { errorSchema, eventsQuery, eventStreamResponses, eventsTicketResponse, runIdParams } from '../schemas.ts';

export const eventRoutes: FastifyPluginCallbackZod<{ agents: AgentClient; streams: EventStreams; tickets: EventTickets; heartbeatMs: number | undefined }> = (
  app,
  { agents, streams, tickets, heartbeatMs },
  done,
) => {
  app.get(
    '/runs/:id/events',
    {
      config: { queryToken: true },
      schema: {
        summary: "A run's live events (Server-Sent Events)",
        description: [
          'text/event-stream: `id: <n>` and `data: <event JSON>` per event — turn, model_delta (streamed model text),',
          'tool_start, tool_progress, tool_result, approval_required, approval_decided, input_required, input_received,',
          'cancel_requested (a cancel Temporal has taken, with its reason), stopping (the run cancels its work in flight: cancelled, or out of wall time), run_stopped (then the stream ends), … A comment line every 15 s keeps the stream open.',
          'run_stopped is sent once the run has closed in Temporal; a trace line whose seq was sent before replaces it (Temporal refused the task that wrote the first).',
          'Reconnect with `Last-Event-ID` (or `?after=`) to get exactly the events after it; 204 when the run has ended and nothing is left.',
          'EventSource cannot send headers: pass a ticket from `POST /runs/{id}/events/ticket` as `?ticket=` (or the token as `?access_token=`, which puts it in the URL).',
        ].join(' '),
        tags: ['runs'],
        params: runIdParams,
        querystring: eventsQuery,
        response: { ...eventStreamResponses, 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      const runId = request.params.id;
      const afterId = lastEventId(request.headers['last-event-id']) ?? request.query.after ?? 0;
      const { open } = await agents.requireRun(runId);
      await streams.serve(request, reply, runId, afterId, {
        open,
        ...(heartbeatMs ? { heartbeatMs } : {}),
        runIsOpen: async () => (await agents.requireRun(runId)).open,
      });
    },
  );
  app.post(
    '/runs/:id/events/ticket',
    {
      schema: {
        summary: "A short-lived ticket for a run's event stream",
        description: `Opens \`GET /runs/{id}/events?ticket=…\` for ${TICKET_TTL_MS / 1000} s, for this run only, with the viewer role only, so a long-lived token never sits in a URL.`,
        tags: ['runs'],
        params: runIdParams,
        response: { 201: eventsTicketResponse, 401: errorSchema, 404: errorSchema },
      },
    },
    async (request, reply) => {
      await agents.requireRun(request.params.id);
      return reply.code(201).send(tickets.mint(request.params.id, request.principal));
    },
  );
  done();
};

function lastEventId(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const text = Array.isArray(header) ? header[0]! : header;
  if (!/^\d{1,15}$/.test(text.trim())) throw new HttpError('invalid_request', `Last-Event-ID must be an event id (a whole number), not ${JSON.stringify(text)}.`, 'headers.last-event-id');
  return Number(text);
}
