/**
 * How a tool is declared. A tool is split in two:
 *  - its contract (name, description, schemas, flags, risk): sandbox-safe data the workflow imports to
 *    validate arguments and apply policy;
 *  - its implementation (`run`): I/O, imported by the worker only.
 * This module holds only types and pure helpers, so the workflow bundle may import it.
 */
import { z } from 'zod';
import type { ClaimSpec } from '../claims/claim-specs.ts';
import { DEFAULT_MAX_OUTPUT_CHARS } from '../wire/payload-bounds.ts';
import type { Risk } from '../wire/types.ts';

export type { Risk };

const stringSchema = z.string();

/** What a tool's name may be (what providers accept): 1-64 letters, digits, `_` or `-`. */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Activity retry options for one tool (a subset of Temporal's RetryPolicy, JSON-safe). */
export interface ToolRetry {
  maximumAttempts?: number;
  initialIntervalMs?: number;
}

/** What the workflow knows of a tool: its name, description, schemas, flags and risk (sandbox-safe data; no implementation). */
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
   * What the model sees of a result: a longer one is cut with a note, and the whole text is kept in the
   * store (its reference is in the trace). Keeps every result far from Temporal's payload limits.
   */
  maxOutputChars: number;
  /**
   * How an answer claiming this tool's effect reads (verbs, phrases, the argument naming the object): after
   * the final answer, each such claim is checked against the run's receipt; a contradiction is a warning.
   */
  claims?: ClaimSpec;
  /**
   * `activity`: `run` executes on a worker. `child-run`: the workflow starts a sub-agent run instead.
   * `user-input`: the workflow asks the user and waits for the answer. `handoff`: another agent takes over the run.
   */
  execution: 'activity' | 'child-run' | 'user-input' | 'handoff';
}

/** What a tool's `run` is given besides its arguments: the run's cancel signal, progress, idempotency key, call key and workspace. */
export interface ToolContext {
  /** Aborts when the run is cancelled or the activity times out. */
  signal: AbortSignal;
  /** Reports a human-readable progress label (rides on activity heartbeats). */
  progress(label: string): void;
  /** `<runId>:<callKey>`: stable across activity retries, worker restarts and continue-as-new. */
  idempotencyKey: string;
  runId: string;
  /** The harness's key for this call, unique within the run (the provider's id is not: providers reuse ids). */
  callKey: string;
  /** The id the provider gave the call (for the transcript only; may repeat or be empty). */
  toolCallId: string;
  /** Absolute directory the tool is confined to. */
  workspace: string;
}

/** A tool a worker can run: its contract and its implementation (`defineTool` makes one). */
export interface Tool<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> extends ToolContract<I, O> {
  run(args: z.infer<I>, ctx: ToolContext): Promise<z.infer<O>>;
}

type ContractOptions<I extends z.ZodType, O extends z.ZodType> = Pick<ToolContract<I, O>, 'name' | 'description' | 'input' | 'output'> &
  Partial<Omit<ToolContract<I, O>, 'name' | 'description' | 'input' | 'output'>>;

/**
 * Declares a tool's contract. The defaults are the safe ones: a contract that does not say otherwise has
 * side effects (never deduplicated) and high risk (every call waits for a human's approval); 30 s, not
 * idempotent, nothing redacted, results cut at 64 KiB characters for the model.
 */
export function defineToolContract<I extends z.ZodType, O extends z.ZodType>(options: ContractOptions<I, O>): ToolContract<I, O> {
  if (!TOOL_NAME.test(options.name)) {
    throw new Error(`Tool name "${options.name}" is invalid: use 1-64 letters, digits, "_" or "-".`);
  }
  return {
    readOnly: false,
    risk: 'high',
    timeoutMs: 30_000,
    maxOutputChars: DEFAULT_MAX_OUTPUT_CHARS,
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

/** What `defineTool` takes: the contract's fields (safe defaults for the flags) and `run`. */
export type ToolOptions<I extends z.ZodType, O extends z.ZodType> = Omit<ContractOptions<I, O>, 'output' | 'execution'> & {
  /** Result schema (default: a string). A result that breaks it reaches the model as the tool's error. */
  output?: O;
  /** Runs on a worker, with the validated arguments; a thrown error is the model's to read. */
  run: (args: z.infer<I>, ctx: ToolContext) => Promise<z.infer<O>>;
};

/**
 * Declares a tool and its implementation in one call, to give a worker (`createAgentWorker({ tools })`).
 * The defaults are the safe ones: a tool that does not say otherwise has side effects (never
 * deduplicated) and high risk (every call waits for a human's approval); 30 s, not idempotent.
 *
 * @example
 * const lookupOrder = defineTool({
 *   name: 'lookup_order',
 *   description: 'Look an order up by its id.',
 *   input: z.object({ orderId: z.string() }),
 *   readOnly: true,
 *   risk: 'low',
 *   run: async ({ orderId }) => JSON.stringify(await orders.get(orderId)),
 * });
 */
export function defineTool<I extends z.ZodType, O extends z.ZodType = z.ZodString>(options: ToolOptions<I, O>): Tool<I, O> {
  const { run, output, ...contract } = options;
  return implementTool(defineToolContract({ ...contract, output: output ?? (stringSchema as unknown as O) }), run);
}
