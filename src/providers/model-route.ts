/**
 * Where a model name points, and what it costs: `scripted:*` and `recorded:*` to the scripted model server
 * (at the seed's price, over the wire the worker chose for it), `provider/model` to that provider of the providers file, a bare name to the
 * file's `default` provider or else OPENAI_BASE_URL / OPENAI_API_KEY (as before providers files). A model
 * with no known price gets no route: its run fails at its first step, saying where to set one.
 */
import { FailureType } from '../wire/failures.ts';
import { DEFAULT_PRICE, type Price } from '../wire/pricing.ts';
import { isRecordedModel } from '../wire/replay.ts';
import type { ProviderConfig, ProviderKind, ProvidersConfig } from './providers-file.ts';
import { listPrice, PRICES_AS_OF } from './prices.ts';

/** Where models go: the providers file, the scripted model server, the environment's provider. */
export interface ModelEndpoints {
  /** Base URL of the scripted model server (`.../v1`), when this worker serves `scripted:` models. */
  scriptedBaseUrl?: string;
  /**
   * The wire `scripted:` and `recorded:` models go over (the server speaks both): `chat` (default) or
   * `responses` (`npm run eval -- tasks.json --api responses`).
   */
  scriptedKind?: ProviderKind;
  /** Provider base URL for bare model names without a providers file default; the `openai` client's default when absent. */
  providerBaseUrl?: string;
  providerApiKey?: string;
  /** The providers file (AGENT_PROVIDERS), if any. */
  providers?: ProvidersConfig | null;
}

/** One model call's destination. Holds the key: it stays in the worker (never in a reply, a trace or a failure). */
export interface ModelRoute {
  /** The provider's name as the run sees it (`scripted` for the scripted model server, `default` for OPENAI_BASE_URL's). */
  provider: string;
  /** The model as the provider knows it (the part after `provider/`). */
  model: string;
  baseUrl: string | undefined;
  apiKey: string;
  kind: ProviderKind;
  headers: Record<string, string>;
  timeoutMs: number;
  price: Price;
}

/** Why a model has no route: the failure type and a message that says what to do. */
export interface RouteRefusal {
  type: string;
  message: string;
}

const TEN_MINUTES = 600_000;

/** The provider part of `provider/model` when the providers file defines it (else the name is bare). */
export function splitModelName(name: string, providers: ProvidersConfig | null | undefined): { provider: string | null; model: string } {
  const slash = name.indexOf('/');
  if (slash > 0 && !isScriptedModel(name)) {
    const provider = name.slice(0, slash);
    if (providers?.providers.has(provider)) return { provider, model: name.slice(slash + 1) };
  }
  return { provider: null, model: name };
}

export function isScriptedModel(model: string): boolean {
  return model.startsWith('scripted:') || isRecordedModel(model);
}

/** The route of `name`, or why there is none. */
export function routeModel(name: string, endpoints: ModelEndpoints): ModelRoute | RouteRefusal {
  const providers = endpoints.providers;
  if (isScriptedModel(name)) {
    if (!endpoints.scriptedBaseUrl) {
      // The scripted model is a test and demo facility: a production worker never serves it.
      return {
        type: FailureType.scriptedModelRefused,
        message:
          `Model "${name}" is a ${isRecordedModel(name) ? 'recorded run to replay' : 'scripted test model'}, and this worker does not serve scripted models. ` +
          'Start a worker that plays them (npm run agent -- worker --scripted, or AGENT_SCRIPTED_MODELS=1), or use a provider ' +
          'model (--model gpt-4o-mini, with OPENAI_API_KEY set for the workers); run, demo, serve and eval play them in their own worker.',
      };
    }
    return { provider: 'scripted', model: name, baseUrl: endpoints.scriptedBaseUrl, apiKey: 'scripted', kind: endpoints.scriptedKind ?? 'chat', headers: {}, timeoutMs: TEN_MINUTES, price: DEFAULT_PRICE };
  }
  const split = splitModelName(name, providers);
  const providerName = split.provider ?? providers?.default ?? null;
  if (providerName) {
    const provider = providers!.providers.get(providerName)!;
    const price = priceFor(provider, split.model);
    if (!price) return noPrice(name, split.model, providerName);
    return { provider: providerName, model: split.model, baseUrl: provider.baseUrl, apiKey: provider.apiKey ?? 'none', kind: provider.kind, headers: provider.headers, timeoutMs: provider.timeoutMs, price };
  }
  if (!endpoints.providerApiKey && !endpoints.providerBaseUrl) {
    const named = name.includes('/') && providers ? ` ("${name.slice(0, name.indexOf('/'))}" is not a provider in AGENT_PROVIDERS, which defines ${[...providers.providers.keys()].join(', ')})` : '';
    return {
      type: FailureType.providerUnknown,
      message:
        `Model "${name}" needs a provider, and this worker has none${named}: set OPENAI_API_KEY (and OPENAI_BASE_URL for a non-OpenAI endpoint) for the workers, ` +
        'name one as provider/model from the providers file (AGENT_PROVIDERS), or use a scripted model with no key (--model scripted:plan).',
    };
  }
  const price = listPrice(name);
  if (!price) return noPrice(name, name, null);
  // A local OpenAI-compatible endpoint may need no key; the client insists on one.
  return { provider: 'default', model: name, baseUrl: endpoints.providerBaseUrl, apiKey: endpoints.providerApiKey ?? 'none', kind: 'chat', headers: {}, timeoutMs: TEN_MINUTES, price };
}

export function isRefusal(route: ModelRoute | RouteRefusal): route is RouteRefusal {
  return 'type' in route;
}

/** The provider's own price for the model, else the list's (a scripted model behind a provider: the seed's). */
function priceFor(provider: ProviderConfig, model: string): Price | undefined {
  if (Object.hasOwn(provider.prices, model)) return provider.prices[model];
  if (Object.hasOwn(provider.prices, '*')) return provider.prices['*'];
  if (isScriptedModel(model)) return DEFAULT_PRICE;
  return listPrice(model);
}

function noPrice(name: string, model: string, provider: string | null): RouteRefusal {
  const where = provider
    ? `set one in the providers file (AGENT_PROVIDERS) under providers.${provider}.prices["${model}"] (or "*" for all of its models)`
    : `name it through a providers file (AGENT_PROVIDERS) whose provider sets prices["${model}"], or use a model of the price table (src/providers/prices.ts, list prices of ${PRICES_AS_OF})`;
  return {
    type: FailureType.modelPriceUnknown,
    message: `Model "${name}" has no known price, so the run's budget could not be kept: ${where}, e.g. { inputPerMillion: 0.5, outputPerMillion: 1.5 }.`,
  };
}
