/** `GET /runs/:id/events`: the run's live event stream (SSE, resumable with Last-Event-ID). */
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { AgentClient } from '../../client/client.ts';
import { HttpError } from '../errors.ts';
import type { EventStreams } from '../event-stream.ts';
import { errorSchema, eventsQuery, eventStreamResponses, runIdParams } from '../schemas.ts';

export const eventRoutes: FastifyPluginCallbackZod<{ agents: AgentClient; streams: EventStreams; heartbeatMs: number | undefined }> = (app, { agents, streams, heartbeatMs }, done) => {
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
          'EventSource cannot send headers: pass the token as `?access_token=`.',
        ].join(' '),
        tags: ['runs'],
        params: runIdParams,
        querystring: eventsQuery,
        response: { ...eventStreamResponses, 400: errorSchema, 401: errorSchema, 404: errorSchema },
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
  done();
};

function lastEventId(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const text = Array.isArray(header) ? header[0]! : header;
  if (!/^\d{1,15}$/.test(text.trim())) throw new HttpError('invalid_request', `Last-Event-ID must be an event id (a whole number), not ${JSON.stringify(text)}.`, 'headers.last-event-id');
  return Number(text);
}
