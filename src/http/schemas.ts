/**
 * The HTTP API's requests and responses as zod schemas: Fastify validates requests and serializes
 * responses with them, and /openapi.json is generated from them. The run's state, its pending call, a
 * listed run, a decision and the limits are the wire schemas (src/wire/run-state.ts, run-input.ts), named
 * here for the document; trace lines, whose kinds grow, pass unknown fields through.
 */
import { z } from 'zod';
import { RISKS, RUN_STATUSES } from '../wire/types.ts';
import type { TraceLine } from '../wire/trace-events.ts';
import { runLimitsSchema } from '../wire/run-input.ts';
import { approvalDecisionSchema, pendingSchema, runStateSchema, runSummarySchema as wireRunSummarySchema } from '../wire/run-state.ts';
import { MAX_ANSWER_CHARS, MAX_REASON_CHARS } from '../wire/payload-bounds.ts';
import type { RunSummary } from '../client/run-list.ts';

// Components of the OpenAPI document: registered on the wire schemas themselves, so that every use of
// one (a run's pending call, a listed run's) is a $ref to it.
pendingSchema.register(z.globalRegistry, { id: 'Pending' });

export const errorSchema = z
  .object({
    error: z.enum(['invalid_request', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'unavailable', 'internal']),
    message: z.string(),
    /** The request field at fault (400). */
    field: z.string().optional(),
  })
  .meta({ id: 'Error' });

export const runIdParams = z.object({ id: z.string().min(1).max(1000).describe('The run id (its workflow id).') });
export const callKeyParams = runIdParams.extend({ callKey: z.string().min(1).max(200).describe('The harness call key from `pending.callKey`.') });

/**
 * What runs recorded by older code may lack, so that their responses still validate: receipts and claim
 * warnings (before receipts existed), `maxStoreOutageMs` (before it existed: such runs wait 30 minutes).
 */
const olderRunState = runStateSchema.extend({
  receipt: runStateSchema.shape.receipt.optional().describe("What really happened to every side-effect call (from the trajectory, not the model's prose); absent for runs that predate receipts."),
  warnings: runStateSchema.shape.warnings.optional(),
});
const olderRunLimits = runLimitsSchema.extend({
  maxStoreOutageMs: runLimitsSchema.shape.maxStoreOutageMs.optional().describe('Absent for runs started before it existed (they wait 30 minutes).'),
});

/** `GET /runs/:id`: the state, with the limits the run was started with (null for runs started without the memo). */
export const runDetailSchema = olderRunState.extend({ limits: olderRunLimits.nullable() }).meta({ id: 'RunState' });

export const runSummarySchema = wireRunSummarySchema.meta({ id: 'RunSummary' });

export const listRunsQuery = z
  .object({
    status: z
      .string()
      .optional()
      .describe(`Comma-separated statuses: ${RUN_STATUSES.join(', ')}.`)
      .transform((text, ctx) => {
        if (text === undefined) return undefined;
        const statuses = text.split(',').map((s) => s.trim());
        const unknown = statuses.find((s) => !(RUN_STATUSES as readonly string[]).includes(s));
        if (unknown !== undefined) {
          ctx.addIssue({ code: 'custom', message: `unknown status "${unknown}"; statuses are ${RUN_STATUSES.join(', ')}` });
          return z.NEVER;
        }
        return statuses as RunSummary['status'][];
      }),
    pending: z.enum(['true', 'false']).optional().describe('true: only runs waiting for a person (approval or answer).').transform((v) => v === 'true'),
    tool: z.string().regex(/^[\w.:-]{1,100}$/, 'a tool name').optional().describe('Only runs waiting for approval of this tool.'),
    limit: z.coerce.number().int().min(1).max(500).optional().describe('At most this many runs (default 50), newest first.'),
  })
  .strict();

export const runListSchema = z.object({ runs: z.array(runSummarySchema) });

export const startRunResponse = z.object({ runId: z.string() });

export const traceLineSchema = z
  .object({ runId: z.string(), seq: z.number(), at: z.string(), type: z.string().describe('turn, tool_start, tool_progress, tool_result, approval_required, approval_decided, stopping, run_stopped, …') })
  .loose()
  .meta({ id: 'TraceLine' });
export const traceSchema = z.object({ runId: z.string(), lines: z.array(traceLineSchema) });

/** `GET /runs/:id/events`: the stream, or nothing once the run has ended and no event is left after the cursor. */
export const eventStreamResponses = {
  200: {
    description: 'The run\'s events as Server-Sent Events.',
    content: { 'text/event-stream': { schema: z.string().describe('`id: <n>` and `data: <event JSON>` per event, `retry:` and comment lines; UTF-8.') } },
  },
  204: z.null().describe('The run has ended and nothing is left after the cursor: EventSource stops reconnecting.'),
};

export const cancelBody = z.object({ reason: z.string().min(1).max(MAX_REASON_CHARS).optional() }).strict();
export const cancelResponse = z.object({ runId: z.string(), cancelRequested: z.literal(true) });

export const decisionBody = z
  .object({
    decision: z.enum(['approve', 'reject']),
    argsHash: z.string().regex(/^[0-9a-f]{64}$/, 'argsHash: the 64 hex digits shown with the pending call').optional().describe('Required to approve: the hash of the arguments you were shown.'),
    reason: z.string().min(1).max(MAX_REASON_CHARS).optional().describe('Why (a rejection tells the model).'),
  })
  .strict()
  .refine((body) => body.decision !== 'approve' || body.argsHash !== undefined, {
    path: ['argsHash'],
    message: 'argsHash is required to approve: quote the hash of the arguments you were shown (pending.argsHash)',
  });

export const decisionResponse = approvalDecisionSchema.meta({ id: 'ApprovalDecision' });

export const answerBody = z
  .object({
    text: z.string().min(1, 'text is empty: write the answer').max(MAX_ANSWER_CHARS),
    callKey: z.string().min(1).max(200).optional().describe('The question\'s call key; defaults to the one pending.'),
  })
  .strict();
export const answerResponse = z.object({ callKey: z.string() });

export const meResponse = z.object({
  name: z.string(),
  roles: z.array(z.enum(['viewer', 'approver', 'operator'])),
  /** False when no token is configured (loopback only). */
  authRequired: z.boolean(),
});

/** Temporal's codec server convention: proto3 JSON payloads (base64 bytes). */
const jsonPayload = z.object({ metadata: z.record(z.string(), z.string()).optional(), data: z.string().optional() });
export const codecBody = z.object({ payloads: z.array(jsonPayload) });

export const eventsQuery = z
  .object({
    after: z.coerce.number().int().min(0).optional().describe('Replay events after this id (as Last-Event-ID does; the header wins).'),
    access_token: z.string().optional().describe('The bearer token, for EventSource, which cannot send headers (prefer `ticket`: a URL is easily logged).'),
    ticket: z.string().optional().describe('A ticket from `POST /runs/{id}/events/ticket`: opens this run\'s stream for 60 s after it was minted.'),
  })
  .strict();

export const eventsTicketResponse = z.object({
  ticket: z.string().describe('Pass as `?ticket=` to `GET /runs/{id}/events`.'),
  expiresAt: z.string().describe('ISO time after which the ticket opens no stream (a stream opened before stays open).'),
});

const riskSchema = z.enum(RISKS);

/** `GET /agents`: what the workers published to the store (src/offers/listing.ts). */
export const agentListingSchema = z
  .object({
    offers: z.array(
      z.object({
        taskQueue: z.string(),
        digest: z.string().describe('SHA-256 of the tools\' and agents\' definitions (MCP tools aside): workers with the same digest offer the same.'),
        live: z.boolean().describe('false: no worker offering this is alive; this is the task queue\'s last publication (stale since `lastSeenAt`).'),
        lastSeenAt: z.string().describe('ISO time the newest of its workers was last seen (workers refresh every 30 s; unseen for 2 min is gone).'),
        workers: z.array(z.string()).describe('Worker ids, `hostname:pid:random`.'),
        tools: z.array(z.object({ name: z.string(), risk: riskSchema, readOnly: z.boolean(), source: z.enum(['builtin', 'own', 'mcp']) })),
        agents: z.array(
          z.object({
            name: z.string(),
            model: z.string().nullable().describe('null: the run names the model.'),
            tools: z.array(z.object({ name: z.string(), risk: riskSchema })),
          }),
        ),
      }),
    ),
  })
  .meta({ id: 'AgentListing' });

// Trace lines are described loosely (their kinds grow): the schema must still admit every line (checked
// by the compiler, not at run time).
type Known<T> = T extends readonly (infer E)[] ? Known<E>[] : T extends object ? { [K in keyof T as string extends K ? never : K]: Known<T[K]> } : T;
type Admits<Schema extends z.ZodType, T extends Known<z.input<Schema>>> = T;
export type _TraceFits = Admits<typeof traceLineSchema, TraceLine>;
