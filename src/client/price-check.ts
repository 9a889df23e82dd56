/**
 * The client's early refusal of a model with no known price, when it knows the workers' providers file:
 * the same rule the model call applies (`src/providers/model-route.ts`), before any run starts.
 */
import { isRefusal, isScriptedModel, routeModel } from '../providers/model-route.ts';
import { loadProvidersFile, type ProvidersConfig } from '../providers/providers-file.ts';
import { FailureType } from '../wire/failures.ts';
import type { RunInput } from '../wire/run-input.ts';
import { InvalidRunInputError } from './run-input.ts';

/** AGENT_PROVIDERS's file, its `${VAR}`s not needed (a client holds no provider keys); null when unset. */
export function providersForChecks(env: NodeJS.ProcessEnv = process.env): ProvidersConfig | null {
  const file = env.AGENT_PROVIDERS?.trim();
  if (!file) return null;
  const anyValue = new Proxy({}, { get: () => 'set-on-the-worker' }) as NodeJS.ProcessEnv;
  return loadProvidersFile(file, anyValue);
}

/** Refuses the run when its model or a fallback model has no known price. */
export function checkPrices(input: RunInput, providers: ProvidersConfig): void {
  for (const model of [input.model, ...(input.fallbackModels ?? [])]) {
    if (model === undefined || isScriptedModel(model)) continue;
    // Only the price is the client's to check: where bare names go is the workers' environment.
    const route = routeModel(model, { providers, providerApiKey: 'checked-on-the-worker' });
    if (isRefusal(route) && route.type === FailureType.modelPriceUnknown) throw new InvalidRunInputError(`Invalid run input: ${route.message}`, 'model');
  }
}
