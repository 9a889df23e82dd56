/**
 * Hearing that a run's work in flight is being stopped, as the run's event stream announces it
 * (`src/wire/stop-announcement.ts`): milliseconds after the stop, where Temporal tells an activity only in the
 * answer to a heartbeat (and cannot reach a local activity at all while it holds its workflow's task).
 */
import type { AgentStore, Unsubscribe } from '../src/store/store.ts';
import { announcedStop, type AnnouncedStop } from '../src/wire/stop-announcement.ts';

/**
 * Calls `onStop` when the run's stop is announced. A store that cannot be reached costs only this quick
 * path: Temporal's own delivery of the cancel still comes.
 */
export async function onStopAnnounced(store: Pick<AgentStore, 'subscribe'>, runId: string, onStop: (stop: AnnouncedStop) => void): Promise<Unsubscribe> {
  try {
    return await store.subscribe(runId, ({ event }) => {
      const stop = announcedStop(event);
      if (stop) onStop(stop);
    });
  } catch {
    return () => {};
  }
}
