/** What a scenario is: a pure function from the conversation so far to the next reply. */
import { requestedTurns } from '../wire/compaction-text.ts';

/** One message of the conversation as a scenario sees it (the request's messages, in OpenAI's chat shape). */
export interface ScriptedMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content?: string | null;
  tool_calls?: { id: string; type?: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** What a scenario answers for one turn: text, tool calls, or an HTTP error. */
export interface ScriptedReply {
  content?: string;
  tool_calls?: { id: string; name: string; arguments: string }[];
  /** Simulated model latency before the reply starts. */
  delayMs?: number;
  /** Answer with this HTTP status (an error) instead of a completion. */
  status?: number;
  /** With `status`: the error message (default: the scenario answered HTTP …). */
  error?: string;
  /** With `status`: the error body's `code` (e.g. `context_length_exceeded`). */
  errorCode?: string;
  /** With `status`: response headers (e.g. `retry-after-ms`, `x-should-retry`). */
  headers?: Record<string, string>;
  /** The model refuses (`message.refusal`, streamed as `refusal` deltas) instead of answering. */
  refusal?: string;
  /** Usage to report instead of the deterministic estimate (a recording's), and the finish reason. */
  usage?: { promptTokens: number; completionTokens: number; cachedPromptTokens?: number; reasoningTokens?: number };
  finishReason?: string;
}

/**
 * `turn` counts the assistant messages already in `messages`. Return undefined when the script has run out.
 * A scenario may declare the model's context window (`contextTokens`): the server then refuses, as the real
 * API does, a request counted (`ceil(chars / 4)`, like its usage) over it (`withContextWindow`).
 */
export type Scenario = ((turn: number, messages: ScriptedMessage[]) => ScriptedReply | undefined | Promise<ScriptedReply | undefined>) & { contextTokens?: number };

/** `scenario` with a context window of `contextTokens`: requests over it get the provider's 400 `context_length_exceeded`. */
export const withContextWindow = (scenario: Scenario, contextTokens: number): Scenario => Object.assign((turn: number, messages: ScriptedMessage[]) => scenario(turn, messages), { contextTokens });

/** Whether this request is the harness asking for a summary of older turns (compaction, `activities/summarise.ts`), not a turn of the run. */
export const isSummaryRequest = (messages: readonly ScriptedMessage[]): boolean => messages.some((m) => m.role === 'user' && requestedTurns(m.content) !== null);

/** A scripted reply with this text (a final answer), after `delayMs` if given. */
export const text = (content: string, delayMs?: number): ScriptedReply => ({ content, ...(delayMs ? { delayMs } : {}) });

/** A scripted reply that calls one tool with these arguments (`id` is the provider's call id). */
export const call = (id: string, name: string, args: Record<string, unknown> = {}): ScriptedReply => ({
  tool_calls: [{ id, name, arguments: JSON.stringify(args) }],
});

/** Every tool message's text so far, joined: what the model "knows". */
export const toolText = (messages: ScriptedMessage[]): string =>
  messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '').join('\n');
