/**
 * What stops a model call made as a local activity, which Temporal cannot reach while the call holds its
 * workflow's task: the run's cancel, announced on the run's event stream (`AgentClient.cancelRun`), and
 * the run's wall-time deadline (the workflow's timer only reaches the server with that same task).
 */
import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import type { AgentStore, Unsubscribe } from '../src/store/store.ts';
import { isCancelRequested } from '../src/wire/cancel-request.ts';
import { FailureType } from '../src/wire/failures.ts';

type Interruption = { kind: 'cancel'; reason: string } | { kind: 'wall_time' };

export class LocalCallInterruptions {
  private readonly controller = new AbortController();
  private interruption: Interruption | null = null;
  private unsubscribe: Unsubscribe = () => {};
  private deadline: ReturnType<typeof setTimeout> | undefined;

  /** Aborts when the run is cancelled or its wall time is up; `close` it when the call ends. */
  static async listen(store: Pick<AgentStore, 'subscribe'>, runId: string, wallDeadlineMs: number | undefined): Promise<LocalCallInterruptions> {
    const interruptions = new LocalCallInterruptions();
    if (wallDeadlineMs !== undefined) {
      interruptions.deadline = setTimeout(() => interruptions.interrupt({ kind: 'wall_time' }), Math.max(0, wallDeadlineMs - Date.now()));
    }
    try {
      interruptions.unsubscribe = await store.subscribe(runId, ({ event }) => {
        if (isCancelRequested(event)) interruptions.interrupt({ kind: 'cancel', reason: event.reason });
      });
    } catch {
      // A store that cannot be reached only costs the quick path: the cancel still comes with the task's next heartbeat.
    }
    return interruptions;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * The failure to end the call with, once it was interrupted: non-retryable (the workflow decides what
   * follows) and benign (an expected stop: the worker logs it at debug level, not as a warning).
   */
  failure(): ApplicationFailure | null {
    const what = this.interruption;
    if (!what) return null;
    return ApplicationFailure.create({
      nonRetryable: true,
      category: ApplicationFailureCategory.BENIGN,
      ...(what.kind === 'cancel'
        ? { message: `The run was cancelled (${what.reason}): the model call stopped.`, type: FailureType.runCancelRequested }
        : { message: "The run's wall time ran out during the model call: the call stopped.", type: FailureType.wallTimeUp }),
    });
  }

  close(): void {
    clearTimeout(this.deadline);
    this.unsubscribe();
  }

  private interrupt(what: Interruption): void {
    if (this.interruption) return;
    this.interruption = what;
    this.controller.abort(what.kind);
  }
}
