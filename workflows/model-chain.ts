/**
 * The models a run may use, in order (`model`, then `fallbackModels`). When a model call's retries are used
 * up with `ModelUnavailable` (5xx, 429 past its retry budget, connection errors) or its attempts time out,
 * the same turn goes to the next model: the decision is the workflow's, so it is in history and a replay
 * takes the same path. A rejected request (any other failure type) does not fall back: another model
 * would be sent the same bad request. The run stays on the model that served; a new execution
 * (continue-as-new) starts again from the first.
 */
import * as wf from '@temporalio/workflow';
import { FailureType } from '../src/wire/failures.ts';
import type { Changes } from './changes.ts';
import { failureMessage, failureType } from './stop.ts';
import { modelQueues } from './activity-options.ts';

export class ModelChain {
  private models: readonly string[];
  private index = 0;
  /** The task queue of each model whose provider is rate limited (`src/providers/model-queues.ts`); null until asked. */
  private queues: Record<string, string> | null = null;
  private readonly changes: Changes;
  private readonly onFallback: (from: string, to: string, error: string) => void;

  constructor(model: string, fallbackModels: readonly string[] | undefined, changes: Changes, onFallback: (from: string, to: string, error: string) => void) {
    this.models = [model, ...(fallbackModels ?? [])];
    this.changes = changes;
    this.onFallback = onFallback;
  }

  /** The run's models change (another agent takes over the run): the next call goes to the first of them. */
  restart(model: string, fallbackModels: readonly string[] | undefined): void {
    this.models = [model, ...(fallbackModels ?? [])];
    this.index = 0;
    this.queues = null;
  }

  /** The model the next call goes to. */
  get current(): string {
    return this.models[this.index]!;
  }

  /** The run names fallback models: its trace and state say which model served each turn. */
  get hasFallbacks(): boolean {
    return this.models.length > 1;
  }

  /**
   * Calls `attempt` with the current model (and its provider's task queue when that is rate limited, else
   * undefined), and with each next model while the current one is unavailable.
   */
  async call<T>(attempt: (model: string, taskQueue: string | undefined) => Promise<T>): Promise<T> {
    const queues = (this.queues ??= await this.askQueues());
    for (;;) {
      try {
        return await attempt(this.current, Object.hasOwn(queues, this.current) ? queues[this.current] : undefined);
      } catch (error) {
        const next = this.models[this.index + 1];
        if (next === undefined || !unavailable(error) || !this.changes.has('model-fallback')) throw error;
        this.onFallback(this.current, next, failureMessage(error));
        this.index++;
      }
    }
  }

  /**
   * Asks the worker (a local activity, in history) which of the models go to a rate-limited provider's
   * queue: only when one names a provider (`provider/model`), so other runs' histories do not change.
   */
  private async askQueues(): Promise<Record<string, string>> {
    if (!this.models.some(namesProvider) || !this.changes.has('model-queues')) return {};
    return modelQueues([...this.models]);
  }
}

/** `provider/model` (a bare name may hold a `/` too: the worker tells them apart; scripted and recorded models never name one). */
function namesProvider(model: string): boolean {
  return model.includes('/') && !model.startsWith('scripted:') && !model.startsWith('recorded:');
}

/** The model call's retries were used up because the model could not answer (not because it refused the request). */
function unavailable(error: unknown): boolean {
  if (!(error instanceof wf.ActivityFailure)) return false;
  return failureType(error) === FailureType.modelUnavailable || error.cause instanceof wf.TimeoutFailure;
}
