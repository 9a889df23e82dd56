/**
 * How a run says, on its live event stream, that the work it has in flight is being stopped: Temporal
 * itself tells a running activity only in the answer to its next heartbeat (up to a second later), and
 * cannot reach a local activity at all while it holds its workflow's task. Two announcements, each
 * written right as the stop is decided:
 * - `cancel_requested`: appended by `AgentClient.cancelRun` once Temporal has the cancel;
 * - the workflow's own `stopping` trace line: written by the worker before the task that cancels the work
 *   completes, whatever the stop came from (a client without the store, Temporal's CLI or Web UI, the
 *   run's wall-time timer).
 * The run's activities stop on the first they hear (`activities/heartbeats.ts`).
 */
import type { TraceLine } from './trace-events.ts';

export interface CancelRequestedEvent {
  type: 'cancel_requested';
  reason: string;
}

/** Why a run's work in flight is stopped. */
export type AnnouncedStop = { kind: 'cancel'; reason: string } | { kind: 'wall_time' };

/** The stop `event` (one of a run's stream) announces, if it announces one. */
export function announcedStop(event: unknown): AnnouncedStop | null {
  if (typeof event !== 'object' || event === null) return null;
  const { type } = event as { type?: unknown };
  if (type === 'cancel_requested') return { kind: 'cancel', reason: (event as CancelRequestedEvent).reason };
  if (type !== 'stopping') return null;
  const stopping = event as Extract<TraceLine, { type: 'stopping' }>;
  return stopping.reason === 'max_time' ? { kind: 'wall_time' } : { kind: 'cancel', reason: stopping.why };
}

/** The stop in words, as an aborted signal's reason gives it. */
export function describeStop(stop: AnnouncedStop): string {
  return stop.kind === 'cancel' ? `the run was cancelled: ${stop.reason}` : "the run's wall time ran out";
}
