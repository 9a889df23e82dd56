/**
 * One Temporal worker per rate-limited provider (`src/providers/model-queues.ts`), in the agent worker's
 * process: it polls the provider's model-call queue with the provider's rate (Temporal's task-queue rate
 * limit, held by the server across every worker of the queue) and its per-worker cap on calls at once.
 */
import { Worker, type NativeConnection } from '@temporalio/worker';
import type { DataConverter } from '@temporalio/common';
import type { ModelEndpoints } from '../providers/model-route.ts';
import { limitedProviders, modelQueueName } from '../providers/model-queues.ts';
import type { AgentActivities } from '../../activities/index.ts';

export interface ModelQueueWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  endpoints: ModelEndpoints;
  activities: AgentActivities;
  dataConverter: DataConverter | undefined;
}

export async function createModelQueueWorkers(options: ModelQueueWorkerOptions): Promise<Worker[]> {
  const workers: Worker[] = [];
  for (const limit of limitedProviders(options.endpoints)) {
    workers.push(
      await Worker.create({
        connection: options.connection,
        namespace: options.namespace,
        taskQueue: modelQueueName(options.taskQueue, limit.provider),
        // The model call only: the workflow and the tools stay on the run's queue.
        activities: { callModel: options.activities.callModel },
        ...(limit.callsPerSecond !== undefined ? { maxTaskQueueActivitiesPerSecond: limit.callsPerSecond } : {}),
        ...(limit.maxConcurrentCalls !== undefined ? { maxConcurrentActivityTaskExecutions: limit.maxConcurrentCalls } : {}),
        maxHeartbeatThrottleInterval: '50 ms',
        ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
      }),
    );
  }
  return workers;
}
