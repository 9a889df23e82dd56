import { ApplicationFailure } from '@temporalio/common';
import OpenAI from 'openai';
import { isRefusal, routeModel, type ModelEndpoints, type ModelRoute } from '../src/providers/model-route.ts';

export type { ModelEndpoints, ModelRoute };

const clients = new Map<string, OpenAI>();

/** Where `model` goes (`src/providers/model-route.ts`); a model with no route fails the call, not retried. */
export function routeFor(model: string, endpoints: ModelEndpoints): ModelRoute {
  const route = routeModel(model, endpoints);
  if (isRefusal(route)) throw ApplicationFailure.nonRetryable(route.message, route.type);
  return route;
}

/** One `openai` client per endpoint, with its own retries off: Temporal owns retries. */
export function clientFor(route: ModelRoute): OpenAI {
  const key = JSON.stringify([route.provider, route.baseUrl ?? '', route.apiKey, route.headers, route.timeoutMs]);
  let client = clients.get(key);
  if (!client) {
    client = new OpenAI({ baseURL: route.baseUrl, apiKey: route.apiKey, maxRetries: 0, timeout: route.timeoutMs, defaultHeaders: route.headers });
    clients.set(key, client);
  }
  return client;
}
