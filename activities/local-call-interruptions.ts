/**
 * What stops a model call made as a local activity, which Temporal cannot reach while the call holds its
 * workflow's task: the run's cancel and the run's wall-time deadline (the workflow's timer only reaches the
 * server with that same task). The cancel comes two ways: announced on the run's event stream
 * (`AgentClient.cancelRun` with a store: milliseconds), and asked of Temporal every second while the call
 * waits (a cancel sent before the call began, or by a client without the store).
 */
import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import type { AgentStore, Unsubscribe } from '../src/store/store.ts';
import { FailureType } from '../src/wire/failures.ts';
import { onStopAnnounced } from './stop-announcement.ts';
import type { AnnouncedStop } from '../src/wire/stop-announcement.ts';

/** How often a local call asks Temporal whether its run was cancelled: one describe per second per call. */
const ASK_TEMPORAL_EVERY_MS = 1000;

export interface InterruptionSources {
  store: Pick<AgentStore, 'subscribe'>;
  /** Whether Temporal has a cancel request for the run (its describe). */
  cancelRequested: () => Promise<boolean>;
  runId: string;
  /** When the run's wall time is up, epoch ms. */
  wallDeadlineMs: number | undefined;
}

export class LocalCallInterruptions {
  private readonly controller = new AbortController();
  private interruption: AnnouncedStop | null = null;
  private unsubscribe: Unsubscribe = () => {};
  private deadline: ReturnType<typeof setTimeout> | undefined;
  private asking: ReturnType<typeof setInterval> | undefined;

  /** Aborts when the run is cancelled or its wall time is up; `close` it when the call ends. */
  static async listen({ store, cancelRequested, runId, wallDeadlineMs }: InterruptionSources): Promise<LocalCallInterruptions> {
    const interruptions = new LocalCallInterruptions();
    if (wallDeadlineMs !== undefined) {
      interruptions.deadline = setTimeout(() => interruptions.interrupt({ kind: 'wall_time' }), Math.max(0, wallDeadlineMs - Date.now()));
    }
    const askTemporal = () => {
      cancelRequested().then(
        (requested) => requested && interruptions.interrupt({ kind: 'cancel', reason: 'Temporal has a cancel request for the run' }),
        // Temporal unreachable: the next ask, the store or the task's heartbeat still bring the cancel.
        () => {},
      );
    };
    // Not at once: a describe contends with the run's own workflow task on the server (a plan run took 10 ms
    // longer with one per call), and most calls end within the first second.
    interruptions.asking = setInterval(askTemporal, ASK_TEMPORAL_EVERY_MS);
    interruptions.unsubscribe = await onStopAnnounced(store, runId, (stop) => interruptions.interrupt(stop));
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
    clearInterval(this.asking);
    this.unsubscribe();
  }

  private interrupt(what: AnnouncedStop): void {
    if (this.interruption) return;
    this.interruption = what;
    this.controller.abort(what.kind);
  }
}
