/**
 * JSON-safe types shared by the workflow, the activities and the client.
 * Everything here crosses a Temporal payload boundary, so: plain data only.
 *
 * The run's state and what it is made of are zod schemas (run-state.ts), and their types are inferred
 * here: imported as types only, so the workflow does not build the schemas in every run.
 */
import type { z } from 'zod';
import type { ClaimWarning, ReceiptEntry } from './receipt.ts';
import type { ToolDefinition } from '../tools/tool-definition.ts';
import type { Price } from './pricing.ts';
import type {
  approvalDecisionSchema,
  childRunSummarySchema,
  interruptionSchema,
  pendingApprovalSchema,
  pendingInputSchema,
  pendingSchema,
  runStateSchema,
  usageSchema,
} from './run-state.ts';

export const RUN_STATUSES = [
  'running',
  'waiting_approval',
  'waiting_input',
  'completed',
  'failed',
  'max_turns_exceeded',
  'budget_exceeded',
  'interrupted',
] as const;
/** Where a run is: running, waiting for a person, or one of its terminal statuses. */
export type RunStatus = (typeof RUN_STATUSES)[number];

export const TERMINAL_STATUSES: ReadonlySet<RunStatus> = new Set([
  'completed',
  'failed',
  'max_turns_exceeded',
  'budget_exceeded',
  'interrupted',
]);

/** Why a run stopped before a final answer (or what it waits for). */
export type Interruption = z.infer<typeof interruptionSchema>;

/** Machine-readable reasons recorded with every stop. */
export const STOP_REASONS = [
  'final_answer',
  'cancelled',
  'max_turns',
  'max_budget',
  'max_time',
  'max_tool_calls',
  'no_progress',
  /** A scheduled run skipped: its schedule's spend today had reached the schedule's daily cap. */
  'schedule_budget',
  'output_contract',
  'policy',
  'model_error',
  'tool_error',
  /** A worker refused the run's workspace (outside its AGENT_WORKSPACE_ROOTS). */
  'workspace_refused',
  /** Content in the store does not match its hash: the run will not go on with a different context. */
  'store_integrity',
  /** The store stayed unreachable for longer than the run allows (`limits.maxStoreOutageMs`). */
  'store_unavailable',
  'workflow_error',
] as const;
/** Why a run stopped: one of STOP_REASONS (the status each ends in is `workflows/stop.ts`'s table). */
export type StopReason = (typeof STOP_REASONS)[number];

/** How much a tool's call risks: low runs, medium within a quota, high waits for a person, extreme only where the run allows it. */
export const RISKS = ['low', 'medium', 'high', 'extreme'] as const;
/** How much harm a tool's call can do: low runs, medium runs within a quota, high waits for a human's approval, extreme is denied unless the run's policy allows it. */
export type Risk = (typeof RISKS)[number];

/** A tool call as the provider sent it. */
export interface ToolCall {
  /** The provider's tool_call_id: kept for the transcript only (providers reuse ids, or send none). */
  id: string;
  name: string;
  /** The raw JSON text the model sent; validated before any tool runs. */
  arguments: string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[]; reasoning?: ReasoningItem[] }
  | { role: 'tool'; tool_call_id: string; name: string; content: string };

/**
 * A reasoning item of a Responses API model, kept with its assistant message and sent back with the next
 * calls (the provider keeps no state: `store: false`); a Chat Completions model is not sent it.
 */
export interface ReasoningItem {
  id: string;
  /** The provider's encrypted reasoning (`include: ['reasoning.encrypted_content']`). */
  encryptedContent: string | null;
  /** The reasoning summary's texts. */
  summary: string[];
}

/** Tokens a run (or a turn) used. */
export type Usage = z.infer<typeof usageSchema>;

/** A research sub-agent run started by this run (a child workflow). */
export type ChildRunSummary = z.infer<typeof childRunSummarySchema>;

/** A tool call waiting for a human decision. `args` are the validated arguments, redacted. */
export type PendingApproval = z.infer<typeof pendingApprovalSchema>;

/** The agent asked the user a question (ask_user) and waits for the `answer` update. */
export type PendingInput = z.infer<typeof pendingInputSchema>;

/** What a run waits for from a person: an approval of a tool call, or an answer to its question. */
export type Pending = z.infer<typeof pendingSchema>;

export interface AnswerRequest {
  text: string;
  /** The question's call key; defaults to the one pending. */
  callKey?: string;
  by?: string;
}

/** A decision the run took: the call it names, approved or rejected, and by whom. */
export type ApprovalDecision = z.infer<typeof approvalDecisionSchema>;

/**
 * `callId` is how requests named the call before harness call keys (v0.2 histories carry it); new callers
 * send `callKey`.
 */
interface NamesCall {
  callKey?: string;
  /** @deprecated use callKey */
  callId?: string;
}

export interface ApproveRequest extends NamesCall {
  argsHash: string;
  /** Who decided, for the trace. */
  by?: string;
}

export interface RejectRequest extends NamesCall {
  reason?: string;
  by?: string;
}

/** The call a decision names (callKey, or the field older clients sent). */
export function calledKey(request: NamesCall): string {
  return request.callKey ?? request.callId ?? '';
}

/** A run's state as `AgentClient.getState` returns it: status, counters, cost, what it waits for, its answer and receipt. */
export type RunState = z.infer<typeof runStateSchema>;

/** How a run ended, as `AgentClient.result` returns it: status and reason, answer or error, receipt, usage and cost. */
export interface RunResult {
  runId: string;
  status: RunStatus;
  reason: StopReason | null;
  interruption: Interruption | null;
  output: string | null;
  error: string | null;
  receipt: ReceiptEntry[];
  warnings: ClaimWarning[];
  turns: number;
  toolCalls: number;
  toolRuns: number;
  usage: Usage;
  costUsd: number;
  totalCostUsd: number;
  totalTurns: number;
  startedAt: string;
  finishedAt: string;
}

/** What `callModel` returns: the assistant message plus bookkeeping. */
export interface ModelReply {
  message: { role: 'assistant'; content: string | null; tool_calls?: ToolCall[]; reasoning?: ReasoningItem[] };
  usage: Usage;
  finishReason: string;
  /** Time the provider took, as the activity measured it (the trace's `turn` line shows it). */
  modelMs: number;
  /** Asked for (`withMcpTools`): the worker's MCP tools the model was offered besides `toolNames` (absent: none). */
  mcpTools?: ToolDefinition[];
  /** Asked for (`withOfferDigest`): the digest of what the serving worker offers (tools and agents). */
  offerDigest?: string;
  /**
   * A Chat Completions model was sent the transcript without this many reasoning items (kept from turns a
   * Responses model served, e.g. before a fallback): that wire has no place for them. Absent: none dropped.
   */
  droppedReasoningItems?: number;
  /**
   * What this turn's tokens cost, as the worker priced the model that served it (the providers file, else
   * the price table). Absent in replies recorded before: those are priced by `recordedRunPrice`.
   */
  price?: Price;
  /**
   * Asked for (`claimCheck`) and the reply is a final answer: its claims checked against the receipt the call
   * was given. Absent: not asked, not a final answer, or the check could not run there (the run checks it).
   */
  claimWarnings?: ClaimWarning[];
}

export interface ToolOutcome {
  ok: boolean;
  /** Text handed to the model as the tool message (cut to the tool's maxOutputChars). */
  content: string;
  ms: number;
  /** The whole output, when `content` had to be cut: where it is kept and how long it is. */
  kept?: { ref: string; chars: number };
}

/** The part of a run's state the server keeps in its memo while it runs (readable with no worker alive). */
export type LiveRunState = Pick<RunState, 'status' | 'pending' | 'turns' | 'toolCalls' | 'toolRuns' | 'costUsd' | 'totalCostUsd' | 'progress' | 'updatedAt'>;
