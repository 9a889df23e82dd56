/**
 * A regular activity's heartbeats (a tool's, a model call's), and how it hears that its run is stopping.
 *
 * Temporal tells an activity of a cancel only in the answer to a heartbeat. Beating 20 times a second got a
 * cancel there within 100 ms, at 20 RPCs a second for every running tool and waiting model call: each a
 * write on the Temporal server, and a billed action on Temporal Cloud. So an activity beats once a second,
 * enough for the 5 s heartbeat timeout (how a dead worker's activity moves on), and listens on the run's
 * event stream, where the stop is announced as it is decided (`src/wire/stop-announcement.ts`): by
 * `AgentClient.cancelRun`, and by the workflow itself for any cancel or its wall time. Once it is announced,
 * the work stops at once (`signal`) and the activity beats every 50 ms until Temporal's own cancellation
 * arrives, then ends cancelled as it always did: the workflow sees nothing new.
 *
 * Only when the store cannot be reached does the cancel come with a heartbeat alone: within a second.
 */
import type { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { AgentStore, Unsubscribe } from '../src/store/store.ts';
import { runAndAncestors } from '../src/wire/run-ids.ts';
import { FailureType } from '../src/wire/failures.ts';
import { onStopAnnounced } from './stop-announcement.ts';
import { describeStop, type AnnouncedStop } from '../src/wire/stop-announcement.ts';

export const HEARTBEAT_EVERY_MS = 1000;
/** Once the run's stop is announced: how often the activity asks Temporal for its cancel. */
const CANCELLING_HEARTBEAT_EVERY_MS = 50;
/** How long an activity stopped by an announcement waits for Temporal's cancel before it gives up on it. */
const TEMPORAL_CANCEL_WITHIN_MS = 10_000;

export class ActivityHeartbeats {
  /** What the next heartbeat carries (a tool's latest progress label). */
  details: unknown;
  /** Aborts when Temporal cancels the activity or the run's stop is announced, whichever comes first. */
  readonly signal: AbortSignal;
  private readonly ctx: Context;
  private readonly announced = new AbortController();
  private timer: ReturnType<typeof setInterval>;
  private unsubscribe: Unsubscribe = () => {};

  private constructor(ctx: Context) {
    this.ctx = ctx;
    this.signal = AbortSignal.any([ctx.cancellationSignal, this.announced.signal]);
    this.timer = setInterval(() => this.beat(), HEARTBEAT_EVERY_MS);
  }

  /**
   * Starts beating, and listening in `store` for the stop of the run or of a run it is a research child
   * of (a parent's stop cancels its children); `close` it when the activity ends.
   */
  static async start(ctx: Context, store: Pick<AgentStore, 'subscribe'>, runId: string): Promise<ActivityHeartbeats> {
    const heartbeats = new ActivityHeartbeats(ctx);
    const listening = await Promise.all(runAndAncestors(runId).map((id) => onStopAnnounced(store, id, (stop) => heartbeats.stopAnnounced(stop))));
    heartbeats.unsubscribe = () => listening.forEach((unsubscribe) => unsubscribe());
    return heartbeats;
  }

  /**
   * For work `signal` stopped: resolves once Temporal has cancelled the activity, which then ends cancelled as
   * usual. If Temporal has not within TEMPORAL_CANCEL_WITHIN_MS (an announcement it never followed), throws a
   * non-retryable `RunCancelRequested` failure: the tool's result is an error for the model, and a model
   * call's is waited on by the workflow (`model-call.ts`).
   */
  async untilTemporalCancels(what: string): Promise<void> {
    const temporal = this.ctx.cancellationSignal;
    if (!temporal.aborted) {
      await new Promise<void>((resolve) => {
        const giveUp = setTimeout(resolve, TEMPORAL_CANCEL_WITHIN_MS);
        temporal.addEventListener('abort', () => (clearTimeout(giveUp), resolve()), { once: true });
      });
    }
    if (temporal.aborted) return;
    throw ApplicationFailure.nonRetryable(
      `${what} stopped for the run's stop announced in the store (${this.signal.reason instanceof Error ? this.signal.reason.message : 'no reason'}), but Temporal did not cancel it within ${TEMPORAL_CANCEL_WITHIN_MS / 1000} s.`,
      FailureType.runCancelRequested,
    );
  }

  close(): void {
    clearInterval(this.timer);
    this.unsubscribe();
  }

  private stopAnnounced(stop: AnnouncedStop): void {
    if (this.signal.aborted) return;
    this.announced.abort(new Error(describeStop(stop)));
    clearInterval(this.timer);
    this.beat();
    this.timer = setInterval(() => this.beat(), CANCELLING_HEARTBEAT_EVERY_MS);
  }

  private beat(): void {
    this.ctx.heartbeat(this.details);
  }
}
