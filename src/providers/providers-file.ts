/**
 * The worker's model providers (`AGENT_PROVIDERS`: a JSON or YAML file): name → where the provider is, its
 * key (`${VAR}` from the worker's environment, like the MCP file), which wire it speaks (`chat`: Chat
 * Completions; `responses`: the Responses API), extra headers, its timeout, its prices, and how fast the
 * fleet may call it. A model is then named `provider/model`; a bare name keeps its old meaning (the
 * provider of OPENAI_BASE_URL / OPENAI_API_KEY, or the file's `default`).
 *
 * Keys stay in the worker: nothing here enters a run's history, trace or recording.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { AgentError } from '../wire/agent-error.ts';
import type { Price } from '../wire/pricing.ts';

/** The wires a provider may speak. */
export const PROVIDER_KINDS = ['chat', 'responses'] as const;
/** The wire a provider speaks: `chat` (Chat Completions) or `responses` (the Responses API). */
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

const priceSchema = z
  .object({
    inputPerMillion: z.number().nonnegative(),
    outputPerMillion: z.number().nonnegative(),
    cachedInputPerMillion: z.number().nonnegative().optional(),
  })
  .strict();

const providerSchema = z
  .object({
    /** The provider's base URL, ending in `/v1` for OpenAI-compatible servers (default: OpenAI's). */
    baseUrl: z.url({ protocol: /^https?$/ }).optional(),
    /** The key, usually `${SOME_VAR}`; a local server may need none. */
    apiKey: z.string().min(1).optional(),
    kind: z.enum(PROVIDER_KINDS, { error: () => `kind must be one of ${PROVIDER_KINDS.join(', ')}` }).default('chat'),
    /** Sent with every request (`${VAR}` expands). */
    headers: z.record(z.string(), z.string()).default({}),
    /** How long one model request may take before it is abandoned (and retried). */
    timeoutMs: z.number().int().positive().default(600_000),
    /** USD per million tokens, by model name as this provider knows it; `"*"` prices every other model of it. */
    prices: z.record(z.string(), priceSchema).default({}),
    /** Model calls per second across every worker (a task queue of the provider's own, rate limited by Temporal). */
    callsPerSecond: z.number().positive().optional(),
    /** Model calls to this provider one worker makes at once. */
    maxConcurrentCalls: z.number().int().positive().optional(),
  })
  .strict();

const NAME = /^[a-zA-Z0-9][a-zA-Z0-9_-]{0,39}$/;

export const providersFileSchema = z
  .object({
    providers: z.record(z.string().regex(NAME, 'a provider name is 1-40 letters, digits, "_" or "-" (models are named provider/model)'), providerSchema),
    /** The provider of bare model names (default: OPENAI_BASE_URL / OPENAI_API_KEY, as without a file). */
    default: z.string().optional(),
  })
  .strict()
  .refine((file) => file.default === undefined || Object.hasOwn(file.providers, file.default), { message: '`default` names a provider the file does not define', path: ['default'] });

/** One provider, its `${VAR}`s expanded. */
export type ProviderConfig = z.output<typeof providerSchema> & { name: string; prices: Record<string, Price> };

/** A providers file (`AGENT_PROVIDERS`), read and checked: its providers by name, and the default one for bare model names. */
export interface ProvidersConfig {
  providers: ReadonlyMap<string, ProviderConfig>;
  default?: string;
}

/** The providers file cannot be used as given: the message says what to fix. */
export class ProvidersConfigError extends AgentError {
  override readonly name = 'ProvidersConfigError';
  readonly code = 'ProvidersConfig';
}

/** The providers of a configuration object (what the file holds), with `${VAR}` taken from `env`. */
export function parseProvidersConfig(raw: unknown, env: NodeJS.ProcessEnv = process.env, source = 'the providers configuration'): ProvidersConfig {
  const parsed = providersFileSchema.safeParse(raw);
  if (!parsed.success) throw new ProvidersConfigError(`Invalid ${source}: ${z.prettifyError(parsed.error)}`);
  const providers = new Map<string, ProviderConfig>();
  for (const [name, provider] of Object.entries(parsed.data.providers)) {
    const expand = (value: string, field: string) => expandVars(value, env, `provider "${name}": ${field}`, source);
    providers.set(name, {
      ...provider,
      name,
      ...(provider.apiKey !== undefined ? { apiKey: expand(provider.apiKey, 'apiKey') } : {}),
      headers: Object.fromEntries(Object.entries(provider.headers).map(([k, v]) => [k, expand(v, `headers.${k}`)])),
    });
  }
  return { providers, ...(parsed.data.default ? { default: parsed.data.default } : {}) };
}

/** Reads and checks a providers file (YAML or JSON), expanding `${VAR}`s from `env`; throws `ProvidersConfigError` saying what is wrong. */
export function loadProvidersFile(file: string, env: NodeJS.ProcessEnv = process.env): ProvidersConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ProvidersConfigError(`Cannot read the providers file ${file} (AGENT_PROVIDERS): ${(error as Error).message}`);
  }
  const yaml = /\.ya?ml$/i.test(file);
  let raw: unknown;
  try {
    raw = yaml ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    throw new ProvidersConfigError(`${file} (AGENT_PROVIDERS) is not valid ${yaml ? 'YAML' : 'JSON'}: ${(error as Error).message}`);
  }
  return parseProvidersConfig(raw, env, `providers file ${file} (AGENT_PROVIDERS)`);
}

/** The providers AGENT_PROVIDERS names; null when it is unset. */
export function providersFromEnv(env: NodeJS.ProcessEnv = process.env): ProvidersConfig | null {
  const file = env.AGENT_PROVIDERS?.trim();
  return file ? loadProvidersFile(file, env) : null;
}

function expandVars(value: string, env: NodeJS.ProcessEnv, where: string, source: string): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const found = env[name];
    if (found === undefined || found === '') throw new ProvidersConfigError(`In ${source}, ${where} uses \${${name}}, which is not set in the worker's environment: set it, or remove the reference.`);
    return found;
  });
}
