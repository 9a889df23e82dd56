/**
 * The run input: one zod schema, and the types derived from it. The client validates with it before any
 * workflow starts; the workflow reads the types. Each limit is defined once (payload-bounds.ts).
 */
import type { AgentRef } from '../agents/agent-tools.ts';
import { z } from 'zod';
import { MAX_GOAL_CHARS, MAX_SYSTEM_CHARS } from './payload-bounds.ts';
import { REPLAY_TOOL_MODES } from './replay.ts';

/** A run's limits once defaults are applied; the input may set any of them (`limits`). */
export const runLimitsSchema = z.object({
  /** Model calls allowed before the run stops with `max_turns_exceeded`. */
  maxTurns: z.number().int().positive(),
  /** Spend allowed (USD) before the run stops with `budget_exceeded`. */
  maxBudgetUsd: z.number().positive(),
  /** Wall time allowed (ms of workflow time, a durable timer that also interrupts work in flight). */
  maxWallMs: z.number().int().positive().optional(),
  /** Tool runs allowed, checked before each run (`budget_exceeded`, max_tool_calls). */
  maxToolCalls: z.number().int().nonnegative().optional(),
  /** The same tool with the same arguments this many times in a row stops the run (no_progress); 0 turns it off. */
  maxRepeatedCalls: z.number().int().nonnegative(),
  /** This many turns in a row whose tool results were all seen before stop the run (no_progress); 0 turns it off. */
  maxStaleTurns: z.number().int().nonnegative(),
  /** Calls denied by policy before the run stops (`interrupted`, policy). */
  maxPolicyDenials: z.number().int().positive(),
  /**
   * How long the run waits for an unreachable store (ms of workflow time) before it stops `failed`
   * (store_unavailable); the wait starts afresh each time the store answers again.
   */
  maxStoreOutageMs: z.number().int().positive(),
  /** The model's context window in tokens, when the harness's table (`context-window.ts`) does not know it or should not be used. */
  contextTokens: z.number().int().positive().optional(),
  /** `auto` (default): compact the conversation before it overflows the window (docs/context.md); `off`: never (a provider's refusal then fails the run). */
  compaction: z.enum(['auto', 'off']).optional(),
});
/** A run's limits (turns, budget, wall time, tool calls, progress checks, store outage), as `limits` in the run input sets them. */
export type RunLimits = z.infer<typeof runLimitsSchema>;

/** Per-run risk policy; defaults: medium quota 5, no extreme tool allowed, no timeout. */
export const runPolicySchema = z
  .object({
    /** Medium-risk tool runs allowed before each further one needs approval. */
    mediumQuota: z.number().int().nonnegative().optional(),
    /** Extreme-risk tools this run may use, by name. */
    allowExtreme: z.array(z.string()).optional(),
    /** Tools that always need approval in this run, whatever their risk. */
    requireApproval: z.array(z.string()).optional(),
    /** An approval not decided within this time counts as a rejection. */
    approvalTimeoutMs: z.number().int().positive().optional(),
    /**
     * After a final answer, the run's model also reads it as a claim judge (docs/claims.md): the claims it
     * finds are compared with the receipt like the rule check's. Priced and counted in the budget. Off by default.
     */
    claimJudge: z.boolean().optional(),
  })
  .strict();
/** A run's risk policy (`policy` in the run input): the medium-risk quota, the extreme tools allowed, the approval timeout. */
export type RunPolicy = z.infer<typeof runPolicySchema>;

/** Limits of the research sub-agent runs a run starts (defaults: 6 turns, $0.05, same model). */
export const researchOptionsSchema = z
  .object({
    maxTurns: z.number().int().positive().optional(),
    maxBudgetUsd: z.number().positive().optional(),
    model: z.string().min(1).optional(),
  })
  .strict();
export type ResearchOptions = z.infer<typeof researchOptionsSchema>;

/** The `replay` field: only meaningful (and only accepted) with a `recorded:` model. */
export const replayOptionsSchema = z.object({ tools: z.enum(REPLAY_TOOL_MODES).optional() }).strict();
export type ReplayOptions = z.infer<typeof replayOptionsSchema>;

/** How a run's model calls are made (`modelCall`): the first is the default. */
export const MODEL_CALLS = ['activity', 'local'] as const;
/** How a run's model calls are made: `activity` (default) or `local` (a local activity; see `RunInput.modelCall`). */
export type ModelCall = (typeof MODEL_CALLS)[number];

/**
 * Set by a schedule with a daily spend cap (`src/client/schedules.ts`), not by hand: before its first model
 * call, the run totals what today's runs of the schedule spent (a day in `timeZone`) and, at the cap, stops
 * at once (`interrupted`, `schedule_budget`) without calling the model.
 */
export const scheduleCapSchema = z
  .object({
    id: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'a schedule id is 1-64 letters, digits, "_" or "-"'),
    dailyBudgetUsd: z.number().positive(),
    timeZone: z.string().min(1).max(64),
  })
  .strict();
/** A scheduled run's daily spend cap: the schedule, the cap (USD per day), the time zone its day is read in. */
export type ScheduleCap = z.infer<typeof scheduleCapSchema>;

export const runInputSchema = z
  .object({
    goal: z.string().min(1, 'goal is empty: say what the agent should do').max(MAX_GOAL_CHARS, `goal is longer than ${MAX_GOAL_CHARS} characters: put large material in the workspace and name it`),
    /** `scripted:<name|path>` for the scripted model server, otherwise a provider model name. Required unless the agent names one. */
    model: z.string().min(1).max(1000).optional(),
    /**
     * Models to try in order when `model` is unavailable past its retries (5xx, 429, timeouts, lost
     * connections): the same turn goes to the next one, and the run stays on it. A rejected request (bad
     * key, bad request, context too long, unknown model) does not fall back.
     */
    fallbackModels: z.array(z.string().min(1).max(1000)).max(5).optional(),
    /**
     * The agent to run (`defineAgent`, given to the workers): its instructions, tools, limits and policy; the
     * run may set only what the agent allows. Without it, the run is configured by its own input.
     */
    agent: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'an agent name is 1-64 letters, digits, "_" or "-"').optional(),
    system: z.string().max(MAX_SYSTEM_CHARS).optional(),
    /** Tool names the model may use; defaults to every registered tool. */
    tools: z.array(z.string()).optional(),
    limits: runLimitsSchema.partial().strict().optional(),
    /** End the run `failed` on the first tool error instead of telling the model. */
    toolErrorsAreFatal: z.boolean().optional(),
    /** Absolute directory the file tools are confined to; defaults to the worker's workspace. */
    workspace: z.string().refine((p) => p.startsWith('/'), 'workspace must be an absolute path').optional(),
    /** Stream the model's reply (its text reaches the run's event stream as it arrives). Default true. */
    stream: z.boolean().optional(),
    /**
     * How the model is called. `activity` (default): an activity like any other, so the run answers
     * queries and hears cancels while the model thinks. `local`: a local activity on the workflow's own
     * worker, one Temporal round trip less per turn, but the run's workflow task stays open until the
     * reply: its state reads come from its memo meanwhile, and a cancel reaches the call through the
     * store's event stream (`AgentClient.cancelRun` with a store) or within a second (the call asks Temporal).
     */
    modelCall: z.enum(MODEL_CALLS).optional(),
    policy: runPolicySchema.optional(),
    /** JSON Schema the final answer (parsed as JSON) must meet; one repair is asked for, then the run fails. */
    outputSchema: z
      .record(z.string(), z.unknown())
      .refine((schema) => {
        try {
          z.fromJSONSchema(schema);
          return true;
        } catch {
          return false;
        }
      }, 'outputSchema is not a JSON Schema zod can read')
      .optional(),
    /** Continue-as-new after this many turns in one execution (also whenever Temporal suggests it). */
    continueAsNewEveryTurns: z.number().int().positive().optional(),
    /** With a `recorded:<file>` model: how the replay's tools run (default dry-run: side effects are not repeated). */
    replay: replayOptionsSchema.optional(),
    research: researchOptionsSchema.optional(),
    /** What the harness asks the model when it summarises older turns to fit the context window (default: `DEFAULT_SUMMARY_PROMPT`). */
    summaryPrompt: z.string().min(1).max(MAX_SYSTEM_CHARS).optional(),
    /** Set by a schedule that caps its spend per day (`dailyBudgetUsd`): which schedule, the cap, its time zone. */
    schedule: scheduleCapSchema.optional(),
  })
  .strict();
/** What starts a run: the goal, the model, and optionally its tools, limits, policy, workspace, output schema and more. */
export type RunInput = z.infer<typeof runInputSchema>;

/**
 * A run input with its agent applied (`workflows/run-agent.ts`): the model is known, and for an agent's run,
 * which agent is in charge and the agents it may call or hand over to. It is what continue-as-new carries.
 */
export type ResolvedRunInput = Omit<RunInput, 'agent'> & { model: string } & AgentRunFields;

/** What the workflow keeps of an agent's run (never set by a client: a run names an agent with `agent`). */
export interface AgentRunFields {
  /** The agent in charge (the one the run named, or the last one it was handed to). */
  agentName?: string;
  subAgents?: AgentRef[];
  handoffs?: AgentRef[];
  /** A child run of another agent: it may spend at most this (what its parent had left). */
  budgetCapUsd?: number;
}
