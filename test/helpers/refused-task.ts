/**
 * Makes Temporal refuse a run's last workflow task: the worker's store holds that task's run_stopped line
 * (the sink is awaited before the task completes) until a signal has come in, so the task that completes
 * the run is refused (UnhandledCommand) and another task, which also handles the signal, replaces it.
 */
import type { Client } from '@temporalio/client';
import type { AgentStore, TraceWrite } from '../../src/store/store.ts';
import { approveSignal } from '../../src/wire/messages.ts';

export class RefusedLastTasks {
  private readonly runs = new Set<string>();
  private readonly temporal: () => Client;

  /** `temporal`: the harness's client, read when the signal is sent (the harness starts after the wrapper is made). */
  constructor(temporal: () => Client) {
    this.temporal = temporal;
  }

  /** The run's last task is to be refused: a run id of its own (`startRun(…, { runId })`). */
  runId(prefix: string): string {
    const runId = `${prefix}-${Date.now().toString(36)}`;
    this.runs.add(runId);
    return runId;
  }

  /** The worker's store (the harness's `workerStore` option). */
  readonly workerStore = (store: AgentStore): AgentStore =>
    Object.assign(Object.create(store) as AgentStore, {
      publishTrace: async (runId: string, lines: readonly TraceWrite[]) => {
        if (lines.some(({ line }) => line.type === 'run_stopped') && this.runs.delete(runId)) {
          // A decision for a call that is not pending: the run traces it as refused.
          await this.temporal().workflow.getHandle(runId).signal(approveSignal, { callKey: 't9.9', argsHash: 'none' });
        }
        return store.publishTrace(runId, lines);
      },
    });
}
