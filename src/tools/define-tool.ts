/**
 * How a tool is declared. A tool is split in two:
 *  - its contract (name, description, schemas, flags, risk): sandbox-safe data the workflow imports to
 *    validate arguments and apply policy;
 *  - its implementation (`run`): I/O, imported by the worker only.
 * This module holds only types and pure helpers, so the workflow bundle may import it.
 */
import type { z } from 'zod';

export const RISKS = ['low', 'medium', 'high', 'extreme'] as const;
export type Risk = (typeof RISKS)[number];

/** Activity retry options for one tool (a subset of Temporal's RetryPolicy, JSON-safe). */
export interface ToolRetry {
  maximumAttempts?: number;
  initialIntervalMs?: number;
}

export interface ToolContract<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  name: string;
  /** What the model reads to decide whether to call the tool. */
  description: string;
  /** Arguments schema; the model gets JSON Schema generated from it. */
  input: I;
  /** Result schema; a tool that breaks it reports an error instead of its result. */
  output: O;
  /** No side effects: identical calls in one run may be deduplicated. */
  readOnly: boolean;
  risk: Risk;
  timeoutMs: number;
  retry?: ToolRetry;
  /** The implementation honours `ctx.idempotencyKey`, so a retried run does not act twice. */
  idempotent: boolean;
  /** Top-level argument/result fields masked in traces, logs and query output. */
  redact: readonly string[];
  /**
   * `activity`: `run` executes on a worker. `child-run`: the workflow starts a sub-agent run instead.
   * `user-input`: the workflow asks the user and waits for the answer.
   */
  execution: 'activity' | 'child-run' | 'user-input';
}

export interface ToolContext {
  /** Aborts when the run is cancelled or the activity times out. */
  signal: AbortSignal;
  /** Reports a human-readable progress label (rides on activity heartbeats). */
  progress(label: string): void;
  /** `<workflowId>:<tool_call_id>`: stable across activity retries and worker restarts. */
  idempotencyKey: string;
  runId: string;
  callId: string;
  /** Absolute directory the tool is confined to. */
  workspace: string;
}

export interface Tool<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> extends ToolContract<I, O> {
  run(args: z.infer<I>, ctx: ToolContext): Promise<z.infer<O>>;
}

type ContractOptions<I extends z.ZodType, O extends z.ZodType> = Pick<ToolContract<I, O>, 'name' | 'description' | 'input' | 'output'> &
  Partial<Omit<ToolContract<I, O>, 'name' | 'description' | 'input' | 'output'>>;

/** Declares a tool's contract with safe defaults: read-only, low risk, 30 s, not idempotent, nothing redacted. */
export function defineToolContract<I extends z.ZodType, O extends z.ZodType>(options: ContractOptions<I, O>): ToolContract<I, O> {
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(options.name)) {
    throw new Error(`Tool name "${options.name}" is invalid: use 1-64 letters, digits, "_" or "-".`);
  }
  return {
    readOnly: true,
    risk: 'low',
    timeoutMs: 30_000,
    idempotent: false,
    redact: [],
    execution: 'activity',
    ...options,
  };
}

/** Attaches the implementation to a contract (worker side only). */
export function implementTool<I extends z.ZodType, O extends z.ZodType>(
  contract: ToolContract<I, O>,
  run: (args: z.infer<I>, ctx: ToolContext) => Promise<z.infer<O>>,
): Tool<I, O> {
  return { ...contract, run };
}
