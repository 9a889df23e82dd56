/**
 * The run's cancel as `AgentClient.cancelRun` announces it on the run's event stream, right after Temporal
 * has it: milliseconds after the request, where Temporal itself tells an activity only in the answer to a
 * heartbeat (and cannot reach a local activity at all while it holds its workflow's task).
 */
import type { AgentStore, Unsubscribe } from '../src/store/store.ts';
import { isCancelRequested } from '../src/wire/cancel-request.ts';

/**
 * Calls `onCancel` with the reason when the run's cancel is announced. A store that cannot be reached costs
 * only this quick path: Temporal's own delivery of the cancel still comes.
 */
export async function onCancelAnnounced(store: Pick<AgentStore, 'subscribe'>, runId: string, onCancel: (reason: string) => void): Promise<Unsubscribe> {
  try {
    return await store.subscribe(runId, ({ event }) => {
      if (isCancelRequested(event)) onCancel(event.reason);
    });
  } catch {
    return () => {};
  }
}
