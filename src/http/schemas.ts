/**
 * The HTTP API's requests and responses as zod schemas: Fastify validates requests and serializes
 * responses with them, and /openapi.json is generated from them. The run's state and pending call are
 * described field by field (the compiler checks below fail when src/wire/types.ts gains a field these
 * lack); trace lines, whose kinds grow, pass unknown fields through.
 */
import { z } from 'zod';
import { RUN_STATUSES, type ApprovalDecision, type PendingApproval, type PendingInput, type RunState } from '../wire/types.ts';
import type { RunLimits } from '../wire/run-input.ts';
import type { TraceLine } from '../wire/trace-events.ts';
import { RECEIPT_OUTCOMES } from '../wire/receipt.ts';
import { MAX_ANSWER_CHARS, MAX_REASON_CHARS } from '../wire/payload-bounds.ts';
import type { RunSummary } from '../client/run-list.ts';

export const runStatusSchema = z.enum(RUN_STATUSES);

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

const pendingApprovalSchema = z
  .object({
    kind: z.literal('approval'),
    callKey: z.string(),
    toolCallId: z.string(),
    toolName: z.string(),
    args: z.record(z.string(), z.unknown()).describe('The validated arguments, redacted.'),
    argsHash: z.string().describe('SHA-256 of the canonical JSON of the exact arguments: an approval quotes it.'),
    risk: z.enum(['low', 'medium', 'high', 'extreme']),
    why: z.string(),
    requestedAt: z.string(),
  });
const pendingInputSchema = z.object({ kind: z.literal('input'), callKey: z.string(), toolCallId: z.string(), question: z.string(), requestedAt: z.string() });
export const pendingSchema = z.discriminatedUnion('kind', [pendingApprovalSchema, pendingInputSchema]).meta({ id: 'Pending' });

export const runLimitsSchema = z
  .object({
    maxTurns: z.number(),
    maxBudgetUsd: z.number(),
    maxWallMs: z.number().optional(),
    maxToolCalls: z.number().optional(),
    maxRepeatedCalls: z.number(),
    maxStaleTurns: z.number(),
    maxPolicyDenials: z.number(),
    maxStoreOutageMs: z.number().optional().describe('Absent for runs started before it existed (they wait 30 minutes).'),
  });

export const runStateSchema = z
  .object({
    runId: z.string(),
    goal: z.string(),
    model: z.string(),
    status: runStatusSchema,
    reason: z.string().nullable(),
    interruption: z
      .object({ type: z.string(), reason: z.string().optional(), detail: z.string().optional(), denials: z.number().optional() })
      .nullable()
      .describe('Why the run stopped early: cancelled (reason), max_turns, max_budget, max_time, max_tool_calls, no_progress (detail), policy (denials).'),
    turns: z.number(),
    toolCalls: z.number(),
    toolRuns: z.number(),
    usage: z.object({ promptTokens: z.number(), completionTokens: z.number() }),
    perTurnPromptTokens: z.array(z.number()),
    costUsd: z.number(),
    totalCostUsd: z.number(),
    totalTurns: z.number(),
    children: z.array(z.object({ runId: z.string(), callKey: z.string(), question: z.string(), status: runStatusSchema, turns: z.number(), costUsd: z.number() })),
    pending: pendingSchema.nullable(),
    progress: z.string().nullable(),
    output: z.string().nullable(),
    error: z.string().nullable(),
    receipt: z
      .array(z.object({ callKey: z.string(), tool: z.string(), args: z.record(z.string(), z.string()), outcome: z.enum(RECEIPT_OUTCOMES), detail: z.string().optional() }))
      .optional()
      .describe('What really happened to every side-effect call (from the trajectory, not the model\'s prose); absent for runs that predate receipts.'),
    warnings: z
      .array(z.object({ tool: z.string(), object: z.string().optional(), clause: z.string(), verb: z.string(), receipt: z.string(), message: z.string() }))
      .optional()
      .describe('Claims in the final answer that the receipt contradicts.'),
    startedAt: z.string(),
    updatedAt: z.string(),
  });

/** `GET /runs/:id`: the state, with the limits the run was started with (null for runs started without the memo). */
export const runDetailSchema = runStateSchema.extend({ limits: runLimitsSchema.nullable() }).meta({ id: 'RunState' });

export const runSummarySchema = z
  .object({
    runId: z.string(),
    status: runStatusSchema,
    goal: z.string().nullable(),
    model: z.string().nullable(),
    startedAt: z.string(),
    closedAt: z.string().nullable(),
    turns: z.number().nullable(),
    costUsd: z.number().nullable(),
    pending: pendingSchema.nullable(),
  })
  .meta({ id: 'RunSummary' });

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

export const decisionResponse = z
  .discriminatedUnion('decision', [
    z.object({ decision: z.literal('approved'), callKey: z.string(), by: z.string().optional() }),
    z.object({ decision: z.literal('rejected'), callKey: z.string(), reason: z.string().optional(), by: z.string().optional() }),
  ])
  .meta({ id: 'ApprovalDecision' });

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

// The schemas must admit what the run's own types hold, and name every field they have (checked by the
// compiler, not at run time): a field added to RunState must be added here, or responses would drop it.
type Known<T> = T extends readonly (infer E)[] ? Known<E>[] : T extends object ? { [K in keyof T as string extends K ? never : K]: Known<T[K]> } : T;
type Admits<Schema extends z.ZodType, T extends Known<z.input<Schema>>> = T;
type Names<Schema extends z.ZodType, T, Missing extends Exclude<keyof T, keyof z.output<Schema>> = Exclude<keyof T, keyof z.output<Schema>>> = [Missing] extends [never] ? T : { missing: Missing };
export type _StateFits = Admits<typeof runStateSchema, Names<typeof runStateSchema, RunState>>;
export type _ApprovalFits = Admits<typeof pendingApprovalSchema, Names<typeof pendingApprovalSchema, PendingApproval>>;
export type _InputFits = Admits<typeof pendingInputSchema, Names<typeof pendingInputSchema, PendingInput>>;
export type _SummaryFits = Admits<typeof runSummarySchema, Names<typeof runSummarySchema, RunSummary>>;
export type _LimitsFit = Admits<typeof runLimitsSchema, Names<typeof runLimitsSchema, RunLimits>>;
export type _DecisionFits = Admits<typeof decisionResponse, ApprovalDecision>;
export type _TraceFits = Admits<typeof traceLineSchema, TraceLine>;

