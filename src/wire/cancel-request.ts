/**
 * The event `AgentClient.cancelRun` appends to a run's live stream once Temporal has the cancel: live
 * clients see it at once, and a model call made as a local activity (which holds the workflow task, so
 * Temporal cannot reach it) stops on it.
 */
export interface CancelRequestedEvent {
  type: 'cancel_requested';
  reason: string;
}

export function isCancelRequested(event: unknown): event is CancelRequestedEvent {
  return typeof event === 'object' && event !== null && (event as { type?: unknown }).type === 'cancel_requested';
}
