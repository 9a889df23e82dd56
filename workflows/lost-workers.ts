/**
 * A worker that dies while running a tool shows up as the activity's heartbeat timeout, and Temporal counts
 * it as one of the tool's attempts (3 for a tool that may safely run again). Under a few worker deaths in a
 * row (a rolling restart, a crashing host) a healthy tool used up its attempts and the model was told
 * "activity Heartbeat timeout" (found by `npm run test:chaos`). A worker's death is not the tool failing:
 * when every attempt ended that way, a tool that may run again (read-only or idempotent, the same call key
 * so the same idempotency key) is scheduled again, a bounded number of times. Any other failure, or a tool
 * whose effect must not be repeated, is reported as before.
 */
import * as wf from '@temporalio/workflow';
import type { ToolContract } from '../src/tools/define-tool.ts';
import type { LoopState } from './loop-state.ts';

/** How many times the tool's activity is scheduled again after all its attempts lost their worker. */
const MAX_ROUNDS = 3;

function lostWorker(error: unknown): boolean {
  return error instanceof wf.ActivityFailure && error.cause instanceof wf.TimeoutFailure && error.cause.timeoutType === 'HEARTBEAT';
}

export async function throughLostWorkers<T>(run: LoopState, contract: Pick<ToolContract, 'readOnly' | 'idempotent'>, call: () => Promise<T>): Promise<T> {
  for (let round = 0; ; round++) {
    try {
      return await call();
    } catch (error) {
      // Asked only on this path, so runs whose tools never lost their workers record no marker.
      if (round >= MAX_ROUNDS || !(contract.readOnly || contract.idempotent) || !lostWorker(error) || !run.changes.has('worker-loss-retries')) throw error;
    }
  }
}
