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
        'Use a provider model, or run the demo, tests or eval (which enable the scripted model).',
      FailureType.scriptedModelRefused,
    );
  }
  if (!scripted && !endpoints.providerApiKey && !endpoints.providerBaseUrl) {
    throw new Error(`Model "${model}" needs a provider: set OPENAI_API_KEY (and OPENAI_BASE_URL for a non-OpenAI endpoint) for the worker.`);
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
