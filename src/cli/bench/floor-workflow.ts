/**
 * For `npm run bench` only (not registered by the agent worker): Temporal's own cost on this machine,
 * as workflows whose steps are no-op activities or no-op local activities — the same round trips as a
 * plan run, with nothing in them.
 */
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';

export type FloorStep = 'activity' | 'local';

const { noop } = proxyActivities<{ noop(): Promise<void> }>({ startToCloseTimeout: '10 seconds' });
const local = proxyLocalActivities<{ noop(): Promise<void> }>({ startToCloseTimeout: '10 seconds' });

export async function floorWorkflow(steps: FloorStep[]): Promise<void> {
  for (const step of steps) await (step === 'local' ? local.noop() : noop());
}
