/**
 * A run's state and the shapes it is made of, defined once as zod schemas: the TypeScript types
 * (types.ts, receipt.ts) are inferred from them, and the HTTP API's schemas and OpenAPI document are
 * derived from them (src/http/schemas.ts). The rules are the types' own (a number is any number), so
 * what the workflow holds is what a response admits.
 *
 * The workflow imports only the types: this module builds schemas when it is evaluated, and the
 * workflow's modules are evaluated again for every run (README, "Benchmarks").
 */
import { z } from 'zod';
import { RECEIPT_OUTCOMES } from './receipt.ts';
import { RISKS, RUN_STATUSES, STOP_REASONS } from './types.ts';

export const runStatusSchema = z.enum(RUN_STATUSES);

/** Why a run stopped before a final answer (or what it waits for). */
export const interruptionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('cancelled'), reason: z.string() }),
  z.object({ type: z.literal('max_turns') }),
  z.object({ type: z.literal('max_budget') }),
  z.object({ type: z.literal('max_time') }),
  z.object({ type: z.literal('max_tool_calls') }),
  /** The model kept repeating itself: `detail` says how. */
  z.object({ type: z.literal('no_progress'), detail: z.string() }),
  z.object({ type: z.literal('policy'), denials: z.number() }),
  /** A scheduled run skipped before its first model call: the schedule's runs had spent `spentUsd` of `dailyBudgetUsd` on `day` (in its time zone). */
  z.object({ type: z.literal('schedule_budget'), scheduleId: z.string(), day: z.string(), spentUsd: z.number(), dailyBudgetUsd: z.number() }),
]);

export const usageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  /** Of `promptTokens`, those the provider served from its prompt cache (priced at the cached rate); absent: none reported. */
  cachedPromptTokens: z.number().optional(),
  /** Of `completionTokens`, those spent reasoning (priced as output); absent: none reported. */
  reasoningTokens: z.number().optional(),
});

/** A tool call waiting for a human decision. `args` are the validated arguments, redacted. */
export const pendingApprovalSchema = z.object({
  kind: z.literal('approval'),
  /** The harness's key for the call: what an approval names. */
  callKey: z.string(),
  /** The provider's id for it (display only). */
  toolCallId: z.string(),
  toolName: z.string(),
  args: z.record(z.string(), z.unknown()).describe('The validated arguments, redacted.'),
  /** SHA-256 of the canonical JSON of the unredacted arguments: an approval must quote it. */
  argsHash: z.string().describe('SHA-256 of the canonical JSON of the exact arguments: an approval quotes it.'),
  risk: z.enum(RISKS),
  why: z.string(),
  requestedAt: z.string(),
});

/** The agent asked the user a question (ask_user) and waits for the `answer` update. */
export const pendingInputSchema = z.object({ kind: z.literal('input'), callKey: z.string(), toolCallId: z.string(), question: z.string(), requestedAt: z.string() });

export const pendingSchema = z.discriminatedUnion('kind', [pendingApprovalSchema, pendingInputSchema]);

/** A child run started by this run (a child workflow): a research run, or another agent called as a tool. */
export const childRunSummarySchema = z.object({
  runId: z.string(),
  callKey: z.string(),
  question: z.string(),
  /** The agent the child runs (`ask_<agent>`); absent for research runs. */
  agent: z.string().optional(),
  status: runStatusSchema,
  turns: z.number(),
  /** The child's spend including its own children. */
  costUsd: z.number(),
  /**
   * What the child waits for (an approval or an answer), read from the child when this run's state is read:
   * decide it on the child's run id and this run's call goes on. Absent when it waits for nothing.
   */
  pending: pendingSchema.optional().describe("What the child waits for, read from the child itself: decide it on the child's run id."),
});

/** One side-effect call of a run. */
export const receiptEntrySchema = z.object({
  /** The harness's key for the call (unique in the run). */
  callKey: z.string(),
  tool: z.string(),
  /** The key arguments (the object the call acts on), redacted, as short strings. */
  args: z.record(z.string(), z.string()),
  outcome: z.enum(RECEIPT_OUTCOMES),
  /** The error, the rejection reason ("no reason" when none was given), the denial, or why it did not run. */
  detail: z.string().optional(),
  /** The agent in charge when the call was made (runs that name an agent). */
  agent: z.string().optional(),
});

/** From which turn an agent was in charge of the run (the first entry: the agent it named; then one per handoff). */
export const agentTurnSchema = z.object({ agent: z.string(), fromTurn: z.number(), callKey: z.string().optional() });

/** A claim in the final answer that the receipt contradicts. */
export const claimWarningSchema = z.object({
  tool: z.string(),
  /** The object the claim names (a path, a recipient), when it names one. */
  object: z.string().optional(),
  /** The clause of the answer that makes the claim. */
  clause: z.string(),
  /** The words that make it a claim ("removed", "has been deleted", "gone"). */
  verb: z.string(),
  /** What the receipt has instead: the entries for that tool (and object), or "no … call". */
  receipt: z.string(),
  /** One line for people: `delete_file access.log: "I removed access.log" — receipt: rejected: … (no reason)`. */
  message: z.string(),
});

export const runStateSchema = z.object({
  runId: z.string(),
  goal: z.string(),
  model: z.string(),
  /** The agent in charge now (runs that name an agent). */
  agent: z.string().optional(),
  /** Who was in charge of which turns: the agent the run named, then one entry per handoff. */
  agentTurns: z.array(agentTurnSchema).optional(),
  /**
   * The digest of what the worker that served the run offered (its tools and agents, as `GET /agents` shows
   * per worker), from the first model call of each execution; absent for runs served before workers published one.
   */
  offerDigest: z.string().optional(),
  status: runStatusSchema,
  reason: z.enum(STOP_REASONS).nullable(),
  interruption: interruptionSchema
    .nullable()
    .describe('Why the run stopped early: cancelled (reason), max_turns, max_budget, max_time, max_tool_calls, no_progress (detail), policy (denials).'),
  turns: z.number(),
  toolCalls: z.number(),
  toolRuns: z.number(),
  usage: usageSchema,
  perTurnPromptTokens: z.array(z.number()),
  /** Spend of this run alone. */
  costUsd: z.number(),
  /** Spend of this run and all its child runs. */
  totalCostUsd: z.number(),
  /** Turns of this run and all its child runs. */
  totalTurns: z.number(),
  children: z.array(childRunSummarySchema),
  pending: pendingSchema.nullable(),
  progress: z.string().nullable(),
  output: z.string().nullable(),
  error: z.string().nullable(),
  /**
   * The failure type of the error that ended the run, when a model call or tool failed with one
   * (`src/wire/failures.ts`: e.g. `ContextTooLong`, `ModelAuthRejected`); absent otherwise.
   */
  errorType: z.string().optional(),
  /** The model that served each turn (`model` and `fallbackModels`), in order; absent in runs recorded before it. */
  perTurnModels: z.array(z.string()).optional(),
  /** What really happened to every side-effect call (from the trajectory, not the model's prose). */
  receipt: z.array(receiptEntrySchema).describe("What really happened to every side-effect call (from the trajectory, not the model's prose)."),
  /** Claims in the final answer that the receipt contradicts (the run still completes; the caller decides). */
  warnings: z.array(claimWarningSchema).describe('Claims in the final answer that the receipt contradicts.'),
  /** ISO timestamps, from workflow time. */
  startedAt: z.string(),
  updatedAt: z.string(),
});

/** What an approval or rejection did, as the run's `approve`/`reject` update answers. */
export const approvalDecisionSchema = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('approved'), callKey: z.string(), by: z.string().optional() }),
  z.object({ decision: z.literal('rejected'), callKey: z.string(), reason: z.string().optional(), by: z.string().optional() }),
]);

/** A run as a listing shows it (src/client/run-list.ts), from Temporal's visibility: no worker needed. */
export const runSummarySchema = z.object({
  runId: z.string(),
  status: runStatusSchema,
  goal: z.string().nullable(),
  model: z.string().nullable(),
  startedAt: z.string(),
  closedAt: z.string().nullable(),
  turns: z.number().nullable(),
  costUsd: z.number().nullable(),
  /** What the run waits for, when it waits (from its state). */
  pending: pendingSchema.nullable(),
  /** The run this one is a child of (an agent called as a tool): deciding its approval resumes that run's call. */
  parentRunId: z.string().optional(),
});
