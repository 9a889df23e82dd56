/**
 * Rate limits across the fleet, on what Temporal offers: the model calls to a provider with `callsPerSecond`
 * or `maxConcurrentCalls` go to a task queue of their own (`<run queue>@model:<provider>`). Every worker
 * polling it sets Temporal's task-queue rate limit (`maxTaskQueueActivitiesPerSecond`: the server
 * dispatches at most that many calls a second to all of them together) and its own cap on calls at once
 * (`maxConcurrentActivityTaskExecutions`, per worker: Temporal has no fleet-wide concurrency cap).
 */
import type { ModelEndpoints } from './model-route.ts';
import { isRefusal, routeModel } from './model-route.ts';

/** The task queue of a provider's model calls. */
export function modelQueueName(taskQueue: string, provider: string): string {
  return `${taskQueue}@model:${provider}`;
}

/** The providers whose calls go through a queue of their own, with its limits. */
export function limitedProviders(endpoints: ModelEndpoints): { provider: string; callsPerSecond?: number; maxConcurrentCalls?: number }[] {
  return [...(endpoints.providers?.providers.values() ?? [])]
    .filter((p) => p.callsPerSecond !== undefined || p.maxConcurrentCalls !== undefined)
    .map((p) => ({ provider: p.name, ...(p.callsPerSecond !== undefined ? { callsPerSecond: p.callsPerSecond } : {}), ...(p.maxConcurrentCalls !== undefined ? { maxConcurrentCalls: p.maxConcurrentCalls } : {}) }));
}

/** The queue of each model whose provider is limited (the others are called on the run's own queue). */
export function modelQueues(models: readonly string[], endpoints: ModelEndpoints, taskQueue: string): Record<string, string> {
  const limited = new Set(limitedProviders(endpoints).map((p) => p.provider));
  const queues: Record<string, string> = {};
  for (const model of models) {
    const route = routeModel(model, endpoints);
    // A model with no route fails at its call, with the reason: its queue is the run's.
    if (!isRefusal(route) && limited.has(route.provider)) queues[model] = modelQueueName(taskQueue, route.provider);
  }
  return queues;
}
