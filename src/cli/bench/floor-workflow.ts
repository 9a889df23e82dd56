/**
 * For `npm run bench` only (not registered by the agent worker): the same number of activity round
 * trips as a plan run, with nothing in them, to show what Temporal itself costs on this machine.
 */
import { proxyActivities } from '@temporalio/workflow';

const { noop } = proxyActivities<{ noop(): Promise<void> }>({ startToCloseTimeout: '10 seconds' });

export async function floorWorkflow(activities: number): Promise<void> {
  for (let i = 0; i < activities; i++) await noop();
}
