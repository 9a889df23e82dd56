/**
 * A run recording: one versioned JSON file holding what a run's model said, what its tools returned,
 * what people decided and how it ended, so the run can be replayed with no model (`recorded:<file>`).
 * A recording is data, never code: it is read with JSON.parse and checked against this schema.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { RUN_STATUSES, type ChatMessage, type RunResult, type ToolCall, type Usage } from '../wire/types.ts';
import type { RunInput } from '../wire/run-input.ts';
import type { TraceLine } from '../wire/trace-events.ts';
import { runInputSchema } from '../client/run-input.ts';
import { AgentError } from '../wire/agent-error.ts';

export const RECORDING_FORMAT = 'agent-run-recording';
export const RECORDING_VERSION = 1;

/** One model call that returned: what the model had been sent (a prefix of `messages`) and what it replied. */
export interface RecordedTurn {
  /** 1-based, in this run (continue-as-new does not restart it). */
  turn: number;
  /** The model was sent `messages.slice(0, sent)`. */
  sent: number;
  /** The reply as the provider sent it (redacted argument fields stay redacted). */
  reply: { content: string | null; tool_calls?: ToolCall[] };
  usage: Usage;
  finishReason: string;
  /** Which execution of the run (0 = the first; continue-as-new starts the next). */
  execution: number;
}

/** What a tool run returned to the workflow, by the harness's call key. */
export interface RecordedToolResult {
  callKey: string;
  toolName: string;
  ok: boolean;
  content: string;
  ms?: number;
  /** The whole output, when `content` was cut for the model. */
  kept?: { ref: string; chars: number };
  /** `activity`: the tool activity's own result (from Temporal's history); `transcript`: the tool message the model was sent. */
  source: 'activity' | 'transcript';
}

export type RecordedDecision =
  | { kind: 'approval'; callKey: string; toolName: string; decision: 'approved' | 'rejected'; why?: string; reason?: string; by?: string }
  | { kind: 'answer'; callKey: string; question: string; text: string; by?: string };

/** A summary a compaction made (docs/context.md): of the conversation's first `turns` turns. */
export interface RecordedSummary {
  turns: number;
  text: string;
  usage: Usage;
}

export interface RecordedChild {
  /** The parent's call key for the research call that started the child. */
  callKey: string;
  recording: Recording;
}

export interface Recording {
  format: typeof RECORDING_FORMAT;
  version: typeof RECORDING_VERSION;
  recordedAt: string;
  /** The run id (the workflow id). */
  runId: string;
  /** Temporal run ids of the run's executions, oldest first (more than one after continue-as-new). */
  executions: string[];
  /** The run input, as the run received it. */
  input: RunInput;
  /** Whether the run had ended when it was recorded. */
  complete: boolean;
  turns: RecordedTurn[];
  /** The whole conversation the model saw, in order, then its last reply. Redacted argument fields stay redacted. */
  messages: ChatMessage[];
  /** The summaries the run's compactions made, in order (absent: it made none). */
  summaries?: RecordedSummary[];
  toolResults: RecordedToolResult[];
  /** Approvals, rejections and answers, in the order they were given. */
  decisions: RecordedDecision[];
  /** The run's trace (arguments redacted), as the store holds it. */
  trace: TraceLine[];
  /** The final result (with its receipt and warnings); null while the run goes on. */
  result: RunResult | null;
  /** Research sub-agent runs, recorded the same way. */
  children: RecordedChild[];
  /** What could not be recorded, and why. */
  gaps: string[];
}

const toolCall = z.object({ id: z.string(), name: z.string(), arguments: z.string() }).strict();
const usage = z
  .object({
    promptTokens: z.number().nonnegative(),
    completionTokens: z.number().nonnegative(),
    cachedPromptTokens: z.number().nonnegative().optional(),
    reasoningTokens: z.number().nonnegative().optional(),
  })
  .strict();
const reasoningItem = z.object({ id: z.string(), encryptedContent: z.string().nullable(), summary: z.array(z.string()) }).strict();

export const chatMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }).strict(),
  z.object({ role: z.literal('user'), content: z.string() }).strict(),
  z.object({ role: z.literal('assistant'), content: z.string().nullable(), tool_calls: z.array(toolCall).optional(), reasoning: z.array(reasoningItem).optional() }).strict(),
  z.object({ role: z.literal('tool'), tool_call_id: z.string(), name: z.string(), content: z.string() }).strict(),
]);

const turnSchema = z
  .object({
    turn: z.number().int().positive(),
    sent: z.number().int().nonnegative(),
    reply: z.object({ content: z.string().nullable(), tool_calls: z.array(toolCall).optional() }).strict(),
    usage,
    finishReason: z.string(),
    execution: z.number().int().nonnegative(),
  })
  .strict();

const toolResultSchema = z
  .object({
    callKey: z.string(),
    toolName: z.string(),
    ok: z.boolean(),
    content: z.string(),
    ms: z.number().nonnegative().optional(),
    kept: z.object({ ref: z.string(), chars: z.number().int().nonnegative() }).strict().optional(),
    source: z.enum(['activity', 'transcript']),
  })
  .strict();

const decisionSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('approval'),
      callKey: z.string(),
      toolName: z.string(),
      decision: z.enum(['approved', 'rejected']),
      why: z.string().optional(),
      reason: z.string().optional(),
      by: z.string().optional(),
    })
    .strict(),
  z.object({ kind: z.literal('answer'), callKey: z.string(), question: z.string(), text: z.string(), by: z.string().optional() }).strict(),
]);

/** Trace lines are kept as the store wrote them; only their frame is checked. */
const traceLineSchema = z.looseObject({ type: z.string(), runId: z.string(), seq: z.number(), at: z.string() });

/** The result is what the workflow returned; its status is checked, the rest is kept as written. */
const resultSchema = z.looseObject({
  status: z.enum(RUN_STATUSES),
  turns: z.number(),
  toolRuns: z.number(),
  totalTurns: z.number(),
  costUsd: z.number(),
  totalCostUsd: z.number(),
  output: z.string().nullable(),
  receipt: z.array(z.looseObject({ callKey: z.string(), tool: z.string(), outcome: z.string() })),
});

export const recordingSchema: z.ZodType<Recording> = z.lazy(() =>
  z
    .object({
      format: z.literal(RECORDING_FORMAT),
      version: z.literal(RECORDING_VERSION),
      recordedAt: z.string(),
      runId: z.string().min(1),
      executions: z.array(z.string()),
      input: runInputSchema,
      complete: z.boolean(),
      turns: z.array(turnSchema),
      messages: z.array(chatMessageSchema),
      summaries: z.array(z.object({ turns: z.number().int().positive(), text: z.string(), usage }).strict()).optional(),
      toolResults: z.array(toolResultSchema),
      decisions: z.array(decisionSchema),
      trace: z.array(traceLineSchema).transform((lines) => lines as unknown as TraceLine[]),
      result: resultSchema.nullable().transform((r) => r as unknown as RunResult | null),
      children: z.array(z.object({ callKey: z.string(), recording: recordingSchema }).strict()),
      gaps: z.array(z.string()),
    })
    .strict(),
);

export class RecordingError extends AgentError {
  override readonly name = 'RecordingError';
  readonly code = 'Recording';
}

/** Parses a recording's JSON text (never evaluates it); `source` names it in errors. */
export function parseRecording(text: string, source: string): Recording {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new RecordingError(`${source} is not JSON: ${(error as Error).message}`);
  }
  const version = (raw as { version?: unknown } | null)?.version;
  if ((raw as { format?: unknown } | null)?.format === RECORDING_FORMAT && version !== RECORDING_VERSION) {
    throw new RecordingError(`${source} is a recording of version ${String(version)}; this code reads version ${RECORDING_VERSION}: replay it with the version that recorded it, or record the run again.`);
  }
  const parsed = recordingSchema.safeParse(raw);
  if (!parsed.success) throw new RecordingError(`${source} is not a run recording: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export function loadRecording(file: string): Recording {
  return parseRecording(readFileSync(file, 'utf8'), file);
}

/** The recording and every nested child recording, depth first, with the call-key path that leads to each. */
export function* recordingTree(recording: Recording, path: readonly string[] = []): Generator<{ path: readonly string[]; recording: Recording }> {
  yield { path, recording };
  for (const child of recording.children) yield* recordingTree(child.recording, [...path, child.callKey]);
}
