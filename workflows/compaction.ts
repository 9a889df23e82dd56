/**
 * The run's context budget, on the workflow's side (docs/context.md). Each model call is given the budget
 * (`TARGET_FILL` of the model's window); the call counts its request (the activity holds the tokenizer) and
 * does not send one over it (`OverBudget`), or the provider refuses it as too long (`ContextTooLong`).
 * Either way the run compacts its conversation (`activities/compact-context.ts`: old tool results become
 * stubs, then older turns a summary), records it (`compacted`, a compaction link), and calls once more; a
 * second refusal ends the run `failed` with the figures. Runs recorded before this change failed at once
 * (`context-compaction`); `limits.compaction: 'off'` keeps that.
 */
import * as wf from '@temporalio/workflow';
import { recallOutputContract } from '../src/tools/recall-output.ts';
import type { ToolContract } from '../src/tools/define-tool.ts';
import { contextWindowOf, DEFAULT_SUMMARY_PROMPT, isOverBudget, KEEP_TURNS, TARGET_FILL, type ContextFigures, type OverBudget } from '../src/wire/context-window.ts';
import { FailureType } from '../src/wire/failures.ts';
import type { Price } from '../src/wire/pricing.ts';
import type { ResolvedRunInput, RunLimits } from '../src/wire/run-input.ts';
import type { TranscriptUpdate } from '../src/wire/transcript-link.ts';
import type { ModelReply } from '../src/wire/types.ts';
import { compactContext } from './activity-options.ts';
import type { LoopState } from './loop-state.ts';
import { failureMessage, failureType, isStop, type Stop } from './stop.ts';
import { throughStoreOutages } from './store-outage.ts';

/** A run's context settings, from its model and limits. */
export interface ContextSettings {
  on: boolean;
  /** The model's window (tokens), when known: without it, only the provider's refusal starts a compaction. */
  windowTokens: number | undefined;
  keepTurns: number;
  summaryPrompt: string;
}

export function contextSettings(input: ResolvedRunInput, limits: RunLimits): ContextSettings {
  return {
    on: limits.compaction !== 'off',
    windowTokens: contextWindowOf(input.model, limits.contextTokens),
    keepTurns: KEEP_TURNS,
    summaryPrompt: input.summaryPrompt ?? DEFAULT_SUMMARY_PROMPT,
  };
}

/** What a call within the budget works with. */
export interface ContextLoop {
  input: ResolvedRunInput;
  limits: RunLimits;
  run: LoopState;
  offered: Map<string, ToolContract>;
  price: Price;
  context: ContextSettings;
}

/** The budget a call is given (none when compaction is off or the window unknown). */
type Budget = { limitTokens: number; baseTokens: number } | undefined;

/** A run that has elided tool results offers `recall_output` (from then on, across continue-as-new too). */
export function offerRecall(run: LoopState, offered: Map<string, ToolContract>): void {
  if (run.context.recallOffered && !offered.has(recallOutputContract.name)) offered.set(recallOutputContract.name, recallOutputContract);
}

/**
 * The next model call, with the messages since the last one, within the run's context budget: compacts and
 * calls once more when the call says the request is over it or the provider refuses it as too long.
 */
export async function modelCallWithin(loop: ContextLoop, call: ModelCallOf): Promise<ModelReply | Stop> {
  const { run, context } = loop;
  const link = run.nextLink();
  // Only runs that may compact get a budget: a call given none sends whatever it has.
  const budget: Budget = context.on && context.windowTokens !== undefined ? { limitTokens: Math.floor(context.windowTokens * TARGET_FILL), baseTokens: run.context.tokens } : undefined;
  let reply: ModelReply | OverBudget | Stop;
  try {
    reply = await call(link, budget);
  } catch (error) {
    if (failureType(error) !== FailureType.contextTooLong || !context.on || !run.changes.has('context-compaction')) throw error;
    return compactAndCall(loop, link, figuresOf(error), 'provider', call);
  }
  if (isOverBudget(reply)) {
    // The change's marker is recorded where compaction begins (a history without it never got here).
    if (run.changes.has('context-compaction')) return compactAndCall(loop, link, reply.overBudget, 'budget', call);
    reply = await call(link, undefined);
    if (isOverBudget(reply)) return { reason: 'model_error', error: OVER_UNGIVEN_BUDGET };
  }
  if (!isStop(reply)) run.sent(link);
  return reply;
}

/** A call given no budget cannot be over it: if one says so, its worker runs other code. */
const OVER_UNGIVEN_BUDGET = 'The model call said it was over a context budget it was not given: is a worker of other code serving this run?';

/** One model call as the loop makes it, with this link and budget. */
type ModelCallOf = (link: TranscriptUpdate, budget: Budget) => Promise<ModelReply | OverBudget | Stop>;

async function compactAndCall(
  loop: ContextLoop,
  link: TranscriptUpdate,
  figures: ContextFigures,
  why: 'budget' | 'provider',
  call: ModelCallOf,
): Promise<ModelReply | Stop> {
  const { run, input, limits, context } = loop;
  const windowTokens = figures.windowTokens ?? context.windowTokens ?? null;
  // Without a known window (a refusal that names none), as small as compaction can make it.
  const targetTokens = windowTokens === null ? 0 : Math.floor(windowTokens * TARGET_FILL);
  const compacted = await throughStoreOutages(run, 'compaction', limits.maxStoreOutageMs, () =>
    compactContext({
      runId: run.runId,
      model: input.model,
      transcript: link,
      targetTokens,
      overheadTokens: figures.overheadTokens,
      keepTurns: context.keepTurns,
      summaryPrompt: context.summaryPrompt,
      force: why === 'provider',
    }),
  );
  if (isStop(compacted)) return compacted;
  run.sent(link);
  // Nothing to compact (the head is the link's): the call goes as it is, and the trace claims no compaction.
  if (compacted.head !== link.head) run.compacted(compacted, why, windowTokens, loop.price);
  offerRecall(run, loop.offered);
  const next = run.nextLink();
  let reply: ModelReply | OverBudget | Stop;
  try {
    // Once compacted, the call is sent whatever the count (no budget: never OverBudget): the provider has the last word.
    reply = await call(next, undefined);
  } catch (error) {
    if (failureType(error) !== FailureType.contextTooLong) throw error;
    const window = figuresOf(error).windowTokens ?? windowTokens;
    return {
      reason: 'model_error',
      errorType: FailureType.contextTooLong,
      error:
        `${failureMessage(error)} The run compacted its conversation from ${compacted.tokensBefore} to ${compacted.tokensAfter} tokens` +
        `${window === null ? '' : ` (window ${window})`} and asked once more; it still does not fit. ` +
        'Give the run a model with a larger window (limits.contextTokens if the harness does not know it), or tools with smaller results.',
    };
  }
  if (isOverBudget(reply)) return { reason: 'model_error', error: OVER_UNGIVEN_BUDGET };
  if (!isStop(reply)) run.sent(next);
  return reply;
}

/** The figures a context failure carries (its ApplicationFailure's details). */
function figuresOf(error: unknown): ContextFigures {
  for (let current: unknown = error; current instanceof wf.TemporalFailure; current = current.cause) {
    const details = current instanceof wf.ApplicationFailure ? (current.details?.[0] as ContextFigures | undefined) : undefined;
    if (details && typeof details.overheadTokens === 'number') return details;
  }
  return { overheadTokens: 0 };
}
