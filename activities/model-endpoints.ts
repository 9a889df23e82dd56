import { ApplicationFailure } from '@temporalio/common';
import OpenAI from 'openai';
import { FailureType } from '../src/wire/failures.ts';
import { isRecordedModel } from '../src/wire/replay.ts';

/** Where model names point: `scripted:*` to the scripted model server, everything else to the provider. */
export interface ModelEndpoints {
  /** Base URL of the scripted model server (`.../v1`), when this worker serves `scripted:` models. */
  scriptedBaseUrl?: string;
  /** Provider base URL; the `openai` client's default when absent. */
  providerBaseUrl?: string;
  providerApiKey?: string;
}

const clients = new Map<string, OpenAI>();

/** One `openai` client per endpoint, with its own retries off: Temporal owns retries. */
export function clientFor(model: string, endpoints: ModelEndpoints): OpenAI {
  // A recording replays through the scripted model server too (`recorded:<file>`): the same facility, the same rule.
  const scripted = model.startsWith('scripted:') || isRecordedModel(model);
  if (scripted && !endpoints.scriptedBaseUrl) {
    // The scripted model is a test and demo facility: a production worker never serves it.
    throw ApplicationFailure.nonRetryable(
      `Model "${model}" is a ${isRecordedModel(model) ? 'recorded run to replay' : 'scripted test model'}, and this worker does not serve scripted models. ` +
        'Start a worker that plays them (npm run agent -- worker --scripted, or AGENT_SCRIPTED_MODELS=1), or use a provider ' +
        'model (--model gpt-4o-mini, with OPENAI_API_KEY set for the workers); run, demo, serve and eval play them in their own worker.',
      FailureType.scriptedModelRefused,
    );
  }
  if (!scripted && !endpoints.providerApiKey && !endpoints.providerBaseUrl) {
    // Known at once and no retry will change it: the run fails now with the fix, not after a minute of retries.
    throw ApplicationFailure.nonRetryable(
      `Model "${model}" needs a provider, and this worker has none: set OPENAI_API_KEY (and OPENAI_BASE_URL for a non-OpenAI endpoint) ` +
        'for the workers, or use a scripted model with no key (--model scripted:plan).',
      FailureType.modelProviderMissing,
    );
  }
  const baseURL = scripted ? endpoints.scriptedBaseUrl : endpoints.providerBaseUrl;
  // A local OpenAI-compatible endpoint may need no key; the client insists on one.
  const apiKey = scripted ? 'scripted' : (endpoints.providerApiKey ?? 'none');
  const key = `${baseURL ?? ''}\u0000${apiKey}`;
  let client = clients.get(key);
  if (!client) {
    client = new OpenAI({ baseURL, apiKey, maxRetries: 0, timeout: 10 * 60_000 });
    clients.set(key, client);
  }
  return client;
}
