/**
 * The event `AgentClient.cancelRun` appends to a run's live stream once Temporal has the cancel: live
 * clients see it at once, and the run's running activities stop on it (`activities/heartbeats.ts`), a model
 * call made as a local activity too (it holds the workflow task, so Temporal cannot reach it at all).
 */
export interface CancelRequestedEvent {
  type: 'cancel_requested';
  reason: string;
}

export function isCancelRequested(event: unknown): event is CancelRequestedEvent {
  return typeof event === 'object' && event !== null && (event as { type?: unknown }).type === 'cancel_requested';
}
