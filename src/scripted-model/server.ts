/**
 * An OpenAI-compatible chat completions server that plays scenarios: the model for tests, the demo and
 * the benchmarks. Real HTTP, JSON and SSE streaming, deterministic usage.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { realpathSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { Scenario, ScriptedMessage, ScriptedReply } from './scenario.ts';
import { builtinScenarios } from './scenarios/index.ts';
import { RecordingPlayer, type Divergence } from './recorded.ts';
import { isRecordedModel } from '../wire/replay.ts';
import { responseObject, responsesAsChat, writeResponsesStream } from './responses-route.ts';

/** One request the server saw, for tests and overhead accounting. */
export interface RecordedRequest {
  id: number;
  scenario: string;
  turn: number;
  stream: boolean;
  messages: ScriptedMessage[];
  status: number;
  startedAt: number;
  /** Time spent producing the reply, delay included (ms). */
  ms: number;
  /** The client went away before the reply was complete. */
  aborted: boolean;
  /** Asked over the Responses API (`POST /v1/responses`), and how many reasoning items it sent back. */
  wire?: 'responses';
  reasoningItemsSent?: number;
}

const requestSchema = z.object({
  model: z.string(),
  messages: z.array(z.looseObject({ role: z.enum(['system', 'user', 'assistant', 'tool', 'developer']) })),
  tools: z.array(z.unknown()).optional(),
  stream: z.boolean().optional(),
});

/** A running scripted model server: its base URL, the requests it saw, and `close()`. */
export interface ScriptedModelServer {
  /** Base URL for the `openai` client, ending in `/v1`. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Differences between replays and their recordings seen in lenient mode (`recorded:<file>#lenient`). */
  divergences: Divergence[];
  /**
   * Takes the server down (every chat request answered with this error, as a provider in an outage) or,
   * with null, back up; `fromRequest`: only from the server's n-th request on (1-based), so a run's first
   * calls succeed. Tests of fallback and retries.
   */
  setOutage(outage: Outage | null): void;
  close(): Promise<void>;
}

/** Where the scripted model server listens and which directories it may load scenarios and recordings from. */
export interface ScriptedModelOptions {
  port?: number;
  host?: string;
  /**
   * Directories whose scenario modules (`scripted:/abs/path.ts`) this server may load: loading one runs
   * its code, so nothing outside them is ever imported. Default: none (built-in scenarios only).
   */
  scenarioDirs?: readonly string[];
  /**
   * Directories whose run recordings (`recorded:/abs/run.json`, JSON data, never code) this server may
   * replay, besides `scenarioDirs`. Default: none.
   */
  recordingDirs?: readonly string[];
}

/** `AGENT_SCENARIO_DIRS` (separated by `:`): where a process that serves the scripted model may load scenarios from. */
export function scenarioDirsFromEnv(): string[] {
  return (process.env.AGENT_SCENARIO_DIRS ?? '').split(path.delimiter).filter(Boolean);
}

/** Starts an OpenAI-compatible chat completions server that plays scenarios (`scripted:<name|path>`) and recordings. */
export async function startScriptedModelServer(options: ScriptedModelOptions = {}): Promise<ScriptedModelServer> {
  const requests: RecordedRequest[] = [];
  const scenarios = new Map<string, Promise<Scenario>>();
  const dirs = (options.scenarioDirs ?? []).map((d) => realOrResolved(d));
  const recordings = new RecordingPlayer([...(options.recordingDirs ?? []), ...dirs]);
  const health: Health = { outage: null };
  const server: Server = createServer((req, res) => {
    handle(req, res, requests, { cache: scenarios, dirs, recordings }, health).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, `scripted model server error: ${(error as Error).message}`);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    divergences: recordings.divergences,
    setOutage: (outage) => {
      health.outage = outage;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface ScenarioSource {
  cache: Map<string, Promise<Scenario>>;
  dirs: readonly string[];
  recordings: RecordingPlayer;
}

/** How the scripted model server answers while it is down (`setOutage`). */
export interface Outage {
  status: number;
  headers?: Record<string, string>;
  fromRequest?: number;
}

interface Health {
  outage: Outage | null;
}

async function handle(req: IncomingMessage, res: ServerResponse, requests: RecordedRequest[], scenarios: ScenarioSource, health: Health) {
  if (req.method === 'GET' && req.url === '/v1/_requests') return sendJson(res, 200, requests);
  // A replay's tool activity asks here for the recorded result of a side-effect call (dry run).
  if (req.method === 'POST' && req.url === '/v1/_recorded/tool-result') {
    try {
      return sendJson(res, 200, scenarios.recordings.toolResult(JSON.parse(await readBody(req)) as Parameters<RecordingPlayer['toolResult']>[0]));
    } catch (error) {
      return sendError(res, 404, (error as Error).message);
    }
  }
  const wire = req.method === 'POST' && req.url === '/v1/responses' ? 'responses' : 'chat';
  if (req.method !== 'POST' || (req.url !== '/v1/chat/completions' && wire !== 'responses')) {
    return sendError(res, 404, `No route ${req.method} ${req.url}: this server answers POST /v1/chat/completions and POST /v1/responses.`);
  }
  const raw = JSON.parse(await readBody(req)) as Record<string, unknown>;
  // The Responses API's input items, played as the same conversation (`responses-route.ts`).
  const asChat = wire === 'responses' ? responsesAsChat(raw) : null;
  const body = requestSchema.safeParse(asChat ?? raw);
  if (!body.success) return sendError(res, 400, `Invalid chat completion request: ${z.prettifyError(body.error)}`);
  const { model, tools, stream = false } = body.data;
  const messages = body.data.messages as ScriptedMessage[];
  const recorded = isRecordedModel(model);
  if (!model.startsWith('scripted:') && !recorded) return sendError(res, 404, `Model "${model}" is not scripted: use "scripted:<name|path>" or "recorded:<file>".`);
  const name = recorded ? model : model.slice('scripted:'.length);

  const record: RecordedRequest = {
    id: requests.length + 1,
    scenario: name,
    turn: messages.filter((m) => m.role === 'assistant').length,
    stream,
    messages,
    status: 200,
    startedAt: Date.now(),
    ms: 0,
    aborted: false,
    ...(asChat ? { wire: 'responses' as const, reasoningItemsSent: asChat.reasoningItemsSent } : {}),
  };
  requests.push(record);
  const started = performance.now();
  let finished = false;
  if (health.outage && record.id >= (health.outage.fromRequest ?? 0)) {
    record.status = health.outage.status;
    finished = true;
    return sendError(res, health.outage.status, `The scripted model server is down (HTTP ${health.outage.status}).`, { headers: health.outage.headers });
  }
  res.on('close', () => {
    record.aborted = !finished;
    record.ms = Math.round(performance.now() - started);
  });

  let scenario: Scenario;
  try {
    scenario = await loadScenario(name, scenarios);
  } catch (error) {
    record.status = 404;
    finished = true;
    return sendError(res, 404, (error as Error).message);
  }
  // The window the scenario declares, counted the way its usage is: the real API's refusal when over it.
  const requestTokens = Math.ceil((JSON.stringify(messages).length + JSON.stringify(tools ?? []).length) / 4);
  if (scenario.contextTokens !== undefined && requestTokens > scenario.contextTokens) {
    record.status = 400;
    finished = true;
    return sendError(res, 400, contextTooLongMessage(scenario.contextTokens, requestTokens), { code: 'context_length_exceeded' });
  }
  const reply = await scenario(record.turn, messages);
  if (reply?.delayMs) await sleepUnlessClosed(reply.delayMs, res);
  if (res.destroyed) return;
  finished = true;
  if (!reply) {
    record.status = 422;
    return sendError(res, 422, `Scenario "${name}" has no reply for turn ${record.turn}: the script ran out.`);
  }
  if (reply.status && reply.status >= 400) {
    record.status = reply.status;
    return sendError(res, reply.status, reply.error ?? `Scenario "${name}" answered HTTP ${reply.status} on turn ${record.turn}.`, { code: reply.errorCode, headers: reply.headers });
  }
  const message = toAssistantMessage(reply);
  const usage = {
    prompt_tokens: reply.usage?.promptTokens ?? requestTokens,
    completion_tokens: reply.usage?.completionTokens ?? Math.ceil(JSON.stringify(message).length / 4),
    total_tokens: 0,
    ...(reply.usage?.cachedPromptTokens !== undefined ? { prompt_tokens_details: { cached_tokens: reply.usage.cachedPromptTokens } } : {}),
    ...(reply.usage?.reasoningTokens !== undefined ? { completion_tokens_details: { reasoning_tokens: reply.usage.reasoningTokens } } : {}),
  };
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  const finishReason = reply.finishReason ?? (message.tool_calls ? 'tool_calls' : 'stop');
  const id = `chatcmpl-scripted-${record.id}`;
  const created = Math.floor(record.startedAt / 1000);
  if (asChat) {
    const r = { id: `scripted-${record.id}`, created, model, message, usage, turn: record.turn };
    return stream ? writeResponsesStream(res, r) : sendJson(res, 200, responseObject(r));
  }
  if (stream) writeStream(res, { id, created, model, message, finishReason, usage });
  else sendJson(res, 200, { id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }], usage });
}

type AssistantMessage = {
  role: 'assistant';
  content: string | null;
  refusal?: string;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
};

function toAssistantMessage(reply: ScriptedReply): AssistantMessage {
  const calls = reply.tool_calls?.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } }));
  return { role: 'assistant', content: reply.content ?? null, ...(reply.refusal ? { refusal: reply.refusal } : {}), ...(calls?.length ? { tool_calls: calls } : {}) };
}

function writeStream(
  res: ServerResponse,
  r: { id: string; created: number; model: string; message: AssistantMessage; finishReason: string; usage: object },
) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const chunk = (delta: object, finish: string | null = null, usage: object | null = null) =>
    res.write(
      `data: ${JSON.stringify({ id: r.id, object: 'chat.completion.chunk', created: r.created, model: r.model, choices: usage ? [] : [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`,
    );
  chunk({ role: 'assistant', content: '' });
  // Content arrives in pieces, as from a real provider.
  for (const piece of r.message.content?.match(/.{1,16}/gs) ?? []) chunk({ content: piece });
  for (const piece of r.message.refusal?.match(/.{1,16}/gs) ?? []) chunk({ refusal: piece });
  r.message.tool_calls?.forEach((c, index) => {
    chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: '' } }] });
    chunk({ tool_calls: [{ index, function: { arguments: c.function.arguments } }] });
  });
  chunk({}, r.finishReason);
  chunk({}, null, r.usage);
  res.end('data: [DONE]\n\n');
}

async function loadScenario(name: string, { cache, dirs, recordings }: ScenarioSource): Promise<Scenario> {
  if (isRecordedModel(name)) return recordings.scenario(name);
  const builtin = Object.hasOwn(builtinScenarios, name) ? builtinScenarios[name] : undefined;
  if (builtin) return builtin;
  if (!path.isAbsolute(name)) {
    throw new Error(`Unknown scenario "${name}". Built-in: ${Object.keys(builtinScenarios).join(', ')}; or give an absolute path to a .ts/.js/.mjs module.`);
  }
  const real = realOrResolved(name);
  if (!/\.(ts|js|mjs)$/.test(real) || !dirs.some((dir) => real.startsWith(dir + path.sep))) {
    throw new Error(
      `Scenario module ${name} is not under a scenario directory this server may load from (${dirs.join(', ') || 'none configured'}); ` +
        'set AGENT_SCENARIO_DIRS for the process that serves the scripted model.',
    );
  }
  let loaded = cache.get(name);
  if (!loaded) {
    loaded = import(pathToFileURL(name).href).then((module: { default?: unknown }) => {
      if (typeof module.default !== 'function') throw new Error(`Scenario module ${name} has no default-exported function.`);
      return module.default as Scenario;
    });
    cache.set(name, loaded);
    loaded.catch(() => cache.delete(name));
  }
  return loaded;
}

function realOrResolved(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

function sleepUnlessClosed(ms: number, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    res.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { ...headers, 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, status: number, message: string, extra: { code?: string | undefined; headers?: Record<string, string> | undefined } = {}) {
  // OpenAI names the offending parameter of a context-length error.
  const param = extra.code === 'context_length_exceeded' ? { param: 'messages' } : {};
  sendJson(res, status, { error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', ...param, code: extra.code ?? null } }, extra.headers);
}

/** The words OpenAI's API uses for a request over the model's context window. */
function contextTooLongMessage(window: number, requested: number): string {
  return `This model's maximum context length is ${window} tokens. However, your messages resulted in ${requested} tokens. Please reduce the length of the messages.`;
}
