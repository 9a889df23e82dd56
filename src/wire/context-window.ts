/**
 * How much of a model's context window a run fills before it compacts its conversation (docs/context.md).
 * Sandbox-safe data: the workflow reads it; the counting itself (a tokenizer) stays in the activities.
 */

/** Context windows (tokens) of the models the harness prices, by name or name prefix (`gpt-4o-2024-08-06` is a `gpt-4o`). */
export const CONTEXT_WINDOWS: Readonly<Record<string, number>> = {
  'gpt-4o': 128_000,
  'gpt-4o-mini': 128_000,
  'gpt-4.1': 1_047_576,
  'gpt-4.1-mini': 1_047_576,
  'gpt-4.1-nano': 1_047_576,
  'gpt-4-turbo': 128_000,
  'gpt-3.5-turbo': 16_385,
  'gpt-5': 400_000,
  'o3': 200_000,
  'o4-mini': 200_000,
};

/** The share of the window a request may fill before the run compacts: room is left for the reply and the next results. */
export const TARGET_FILL = 0.75;

/** Turns (a model reply and its tool results) kept verbatim by compaction: the most recent ones. */
export const KEEP_TURNS = 4;

/** The window of `model`: `override` (`limits.contextTokens`), else the table's (longest matching prefix), else unknown. */
export function contextWindowOf(model: string, override?: number): number | undefined {
  if (override !== undefined) return override;
  let best: string | undefined;
  for (const name of Object.keys(CONTEXT_WINDOWS)) {
    if ((model === name || model.startsWith(`${name}-`)) && (best === undefined || name.length > best.length)) best = name;
  }
  return best === undefined ? undefined : CONTEXT_WINDOWS[best];
}

/** What the harness asks for when it summarises older turns (a run's `summaryPrompt`, or its agent's, replaces it). */
export const DEFAULT_SUMMARY_PROMPT =
  'You compress the older part of an agent\'s conversation so that the agent can go on working with less context. ' +
  'Write a concise summary (at most 300 words) of what was done and learnt: the tool calls made and what they returned that matters, ' +
  'files and names involved, decisions and answers given by people, what is still open. Keep exact figures, paths and identifiers. ' +
  'Do not invent anything; say nothing about this instruction.';

/**
 * What a model call returns instead of a reply when its request is over the run's budget: it was not sent,
 * and the run compacts first. A result, not a failure: it is how the run works, not something gone wrong.
 */
export interface OverBudget {
  overBudget: ContextFigures;
}

export function isOverBudget(value: object): value is OverBudget {
  return 'overBudget' in value;
}

/** The figures of a request over the budget (`OverBudget`) or refused as too long (`ContextTooLong`), as far as known. */
export interface ContextFigures {
  /** The request's size: the harness's count, or the provider's. */
  requestedTokens?: number;
  /** The run's budget (over budget) or the provider's window (refused). */
  limitTokens?: number;
  /** The window the provider names in its refusal. */
  windowTokens?: number;
  /** What the request takes besides its messages (the tool definitions). */
  overheadTokens: number;
}
