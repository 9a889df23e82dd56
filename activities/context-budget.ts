/**
 * The model call's side of the run's context budget (`workflows/compaction.ts` decides; this counts): before
 * the request goes out, whether it fits the budget the workflow gave (if not, the call returns `OverBudget`
 * unsent); after a refusal, whether the provider said the context is too long (a non-retryable
 * `ContextTooLong` failure). Both carry the figures (`ContextFigures`); the workflow compacts and calls again.
 */
import { ApplicationFailure } from '@temporalio/common';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { FailureType } from '../src/wire/failures.ts';
import type { ContextFigures, OverBudget } from '../src/wire/context-window.ts';
import { contextRefusal } from './context-errors.ts';
import { counterFor, messageTokens, toolTokens } from './context-count.ts';

/** What the workflow says of the budget: the most the request may take, and the last call's prompt tokens (0: unknown). */
export interface ContextBudget {
  limitTokens: number;
  baseTokens: number;
}

interface Request {
  model: string;
  messages: ChatCompletionMessageParam[];
  tools?: ChatCompletionTool[];
}

/**
 * `OverBudget` when the request would take more than the budget, else null: counted from the last call's
 * prompt tokens plus what was added since (`appended`), or in full when the last call's figure is unknown.
 */
export async function overBudget(budget: ContextBudget | undefined, request: Request, appended: readonly ChatCompletionMessageParam[]): Promise<OverBudget | null> {
  if (!budget) return null;
  const counter = await counterFor(request.model);
  const overheadTokens = toolTokens(counter, request.tools);
  const tokens = budget.baseTokens > 0 ? budget.baseTokens + messageTokens(counter, appended) : overheadTokens + messageTokens(counter, request.messages);
  if (tokens <= budget.limitTokens) return null;
  return { overBudget: { requestedTokens: tokens, limitTokens: budget.limitTokens, overheadTokens } };
}

/** The provider's refusal of a request over the window, as `ContextTooLong` with the figures; null for any other error. */
export async function contextTooLongFailure(error: unknown, request: Request): Promise<ApplicationFailure | null> {
  const refusal = contextRefusal(error);
  if (!refusal) return null;
  const counter = await counterFor(request.model);
  const figures: ContextFigures = { ...refusal, overheadTokens: toolTokens(counter, request.tools) };
  return ApplicationFailure.create({ message: (error as Error).message, type: FailureType.contextTooLong, nonRetryable: true, details: [figures] });
}

