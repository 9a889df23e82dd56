/**
 * One model call, made as the run asked (`modelCall`). A local call holds the workflow task while the
 * model answers, so neither a cancel nor the wall-time timer reaches the workflow until it ends:
 * - the call is given the run's wall-time deadline, and a call stopped by it is the `max_time` stop itself
 *   (the timer would say the same, but only once the server has it: later, by the call's length);
 * - a cancel reaches the call through the store (`AgentClient.cancelRun` announces it there once Temporal
 *   has it) or by the call asking Temporal: the call stops, and the loop waits here for the cancel itself.
 * A call made as an activity ends cancelled as usual; only if it stopped for a stop announced in the store
 * that Temporal never followed (`activities/heartbeats.ts`) does it fail as a local call would, and wait here.
 */
import * as wf from '@temporalio/workflow';
import type { AgentActivities } from '../activities/index.ts';
import type { ModelReply } from '../src/wire/types.ts';
import type { RunInput } from '../src/wire/run-input.ts';
import type { OverBudget } from '../src/wire/context-window.ts';
import { FailureType } from '../src/wire/failures.ts';
import { callModelOn, localCallModel } from './activity-options.ts';
import { failureType, interrupted, type Stop } from './stop.ts';

type CallModelInput = Parameters<AgentActivities['callModel']>[0];

/**
 * How long the loop waits for a cancel its model call stopped for. Past it (a cancel announced in the
 * store that Temporal never got), the model is asked again.
 */
const CANCEL_ARRIVES_WITHIN = '10 seconds';

/**
 * `wallDeadlineMs`: when the run's wall time is up (workflow time, epoch ms), if it has a limit. `summary`:
 * the call's line in Temporal's UI (`summaries.ts`). `taskQueue`: a rate-limited provider's queue (a local
 * call is made on the run's worker: it bypasses it).
 */
export async function modelCall(input: RunInput, args: CallModelInput, wallDeadlineMs: number | undefined, summary?: string, taskQueue?: string): Promise<ModelReply | OverBudget | Stop> {
  const options = summary === undefined ? {} : { summary };
  for (;;) {
    try {
      if (input.modelCall !== 'local') return await callModelOn(taskQueue).executeWithOptions(options, [args]);
      return await localCallModel.executeWithOptions(options, [{ ...args, ...(wallDeadlineMs === undefined ? {} : { wallDeadlineMs }) }]);
    } catch (error) {
      const type = failureType(error);
      if (type === FailureType.wallTimeUp) return interrupted({ type: 'max_time' });
      if (type !== FailureType.runCancelRequested) throw error;
      // Throws the cancellation when it arrives.
      await wf.condition(() => false, CANCEL_ARRIVES_WITHIN, { summary: 'waiting for the cancel the model call stopped for' });
    }
  }
}
