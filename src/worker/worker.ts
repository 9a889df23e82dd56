/**
 * The agent worker: the workflow bundle, the model and tool activities, the trace sink, and (when the
 * process enables it: demo, tests, bench, eval) the scripted model server, in one process.
 */
import path from 'node:path';
import { Client } from '@temporalio/client';
import { Worker, type NativeConnection, type WorkerOptions } from '@temporalio/worker';
import { createActivities } from '../../activities/index.ts';
import type { ModelEndpoints } from '../../activities/model-endpoints.ts';
import { contractsByName } from '../tools/contracts.ts';
import type { Tool, ToolContract } from '../tools/define-tool.ts';
import { builtinTools, createToolRegistry } from '../tools/registry.ts';
import { definitionOf, readableDefinition, type ToolDefinition } from '../tools/tool-definition.ts';
import { agentDefinition, type Agent } from '../agents/define-agent.ts';
import { MAX_LINKED_AGENT_NAME } from '../agents/agent-tools.ts';
import type { ScriptedModelServer } from '../scripted-model/server.ts';
import { TASK_QUEUE } from '../paths.ts';
import { openStore } from '../store/open-store.ts';
import type { AgentStore } from '../store/store.ts';
import { TraceSink } from './trace-sink.ts';
import { workflowBundle } from './workflow-bundle.ts';
import { deploymentWorkerOptions, type WorkerDeployment } from './deployment.ts';
import type { McpServerConfig } from '../mcp/config.ts';
import type { McpPool } from '../mcp/pool.ts';
import { startMcpPool, withMcpTools } from '../mcp/worker-tools.ts';
import { activeTelemetry, type Telemetry } from '../telemetry/setup.ts';
import { tracingWorkerOptions } from '../telemetry/worker-options.ts';
import { agentDataConverter } from '../client/payload-codec.ts';
import type { DataConverter } from '@temporalio/common';
import { workspaceRoots } from '../tools/workspace-roots.ts';
import { AgentError } from '../wire/agent-error.ts';
import { buildOffer, newWorkerId } from '../offers/build-offer.ts';
import { offerConflict } from '../offers/offer.ts';
import { publishOffer } from '../offers/publish.ts';
import { providersFromEnv, type ProviderKind, type ProvidersConfig } from '../providers/providers-file.ts';
import { createModelQueueWorkers } from './model-queue-workers.ts';

/** What `createAgentWorker` needs: the Temporal connection, this host's data directory and workspace, and optionally its tools, store, model provider, scripted model and MCP servers. */
export interface AgentWorkerOptions {
  connection: NativeConnection;
  namespace?: string;
  taskQueue?: string;
  /** This host's data directory (the tool-run audit log; the embedded store's file when no store is given). */
  dataDir: string;
  /** The store every worker host shares; default: the one AGENT_STORE_URL names (else SQLite in dataDir). */
  store?: AgentStore;
  /** Directory the file tools are confined to when a run names none. */
  workspace: string;
  /** Workspaces runs may name: these or directories inside them (default: AGENT_WORKSPACE_ROOTS, else `workspace`). */
  workspaceRoots?: readonly string[];
  /** Provider settings for bare model names; default from OPENAI_BASE_URL / OPENAI_API_KEY. */
  provider?: { baseUrl?: string; apiKey?: string };
  /**
   * The model providers (`provider/model` names): `parseProvidersConfig(...)` or `loadProvidersFile(file)`.
   * Default: AGENT_PROVIDERS's file, checked at start (a bad file stops the worker with a clear error); null: none.
   */
  providers?: ProvidersConfig | null;
  /**
   * The scripted model (tests, demo, bench, eval): a server running elsewhere, or one started in this
   * process that loads scenario modules only from `scenarioDirs`; `kind`: the wire its models go over
   * (`chat`, the default, or `responses`: the server speaks both). Absent: `scripted:` models are refused.
   */
  scriptedModel?: ({ baseUrl: string } | { scenarioDirs: readonly string[]; recordingDirs?: readonly string[] }) & { kind?: ProviderKind };
  /**
   * The tools this worker runs (default: the built-in ones, `builtinTools(store)`). Give your own
   * (`defineTool`) with or without the built-in ones: runs learn the worker's own tools from it.
   */
  tools?: readonly Tool[];
  /**
   * The agents this worker offers (`defineAgent`): a run names one (`startRun({ agent, goal })`) and learns
   * it from the worker. Tools an agent was given as objects are added to the worker's tools.
   */
  agents?: readonly Agent[];
  /** Payload encryption; defaults to AGENT_PAYLOAD_KEY's. */
  dataConverter?: DataConverter;
  /** MCP servers whose tools this worker offers (default: AGENT_MCP_CONFIG's; none when unset). */
  mcp?: readonly McpServerConfig[];
  /** Tracing (default: as the process set it up, or OTEL_EXPORTER_OTLP_ENDPOINT asks; null: off). */
  telemetry?: Telemetry | null;
  /**
   * Runs kept in memory between their workflow tasks (default: AGENT_MAX_CACHED_RUNS, else
   * DEFAULT_MAX_CACHED_RUNS). A run evicted from the cache costs nothing while it waits and is rebuilt from
   * its history on its next task (tens of milliseconds); a cached one costs about half a MiB.
   */
  maxCachedRuns?: number;
  /**
   * Workflow tasks this worker holds at once (default: AGENT_MAX_WORKFLOW_TASKS, else the SDK's 40). A model
   * call made as a local activity (`modelCall: 'local'`) holds its run's task while the model answers, so
   * this bounds how many such calls the worker makes at once; at most `maxCachedRuns` (unless that is 0).
   */
  maxWorkflowTasks?: number;
  /**
   * Start even when the live workers on this task queue offer other tools or agents (default:
   * AGENT_ROLLING_DEPLOY=1). Without it such a worker refuses to start: a run would get different tools
   * depending on the worker that takes it. Set it while new workers replace old ones.
   */
  rollingDeploy?: boolean;
  /**
   * Worker Versioning (opt-in): this worker's deployment name and build id; its runs are pinned to its build
   * unless `behavior` is `auto-upgrade` (`deploymentFromEnv` reads AGENT_DEPLOYMENT_NAME, AGENT_BUILD_ID).
   * Default: unversioned.
   */
  deployment?: WorkerDeployment | null;
  /**
   * Workflow interceptor modules (absolute paths, each exporting `interceptors`) bundled into this worker's
   * workflow code, after the tracing ones. A change made this way is a change of workflow code: it must
   * replay the histories of runs it may take (`test/versioning.test.ts` builds a v2 this way).
   */
  workflowInterceptorModules?: readonly string[];
}

/**
 * The SDK's default cache grows with the heap limit (over 2,000 runs here, 1,000 parked runs took the
 * worker to 874 MiB); 300 bounds it at about 150 MiB of runs (README, Benchmarks: parked runs).
 */
export const DEFAULT_MAX_CACHED_RUNS = 300;

/** A worker setting from the environment that cannot be used as given. */
export class WorkerConfigError extends AgentError {
  override readonly name = 'WorkerConfigError';
  readonly code = 'WorkerConfig';
}

/** A worker created by `createAgentWorker`: the Temporal worker and what it started (store, scripted model, MCP servers). */
export interface AgentWorker {
  worker: Worker;
  store: AgentStore;
  /** The scripted model server this worker started, if any. */
  scriptedModel: ScriptedModelServer | null;
  /** This worker's MCP servers (null: none configured). */
  mcp: McpPool | null;
  /** This worker's id in the store's publication of what it offers (`GET /agents`): `hostname:pid:random`. */
  workerId: string;
  /** Runs the worker until `shutdown()` (or until `until` settles) and then releases what it started. */
  run(until?: Promise<unknown>): Promise<void>;
  shutdown(): void;
}

/** The timing settings every worker of ours uses (the test helpers' workers too). */
export const WORKER_TIMING = {
  // A heartbeat goes out within this of the activity's call, whatever its heartbeat timeout: activities beat
  // once a second, and every 50 ms once their run's cancel is announced (activities/heartbeats.ts).
  maxHeartbeatThrottleInterval: '50 ms',
  // A run's next workflow task goes to the worker that holds the run in cache; if that worker died, the
  // task waits this long before any worker may take it (Temporal's default, 10 s, stalled each of its runs).
  stickyQueueScheduleToStartTimeout: '3 seconds',
} satisfies Partial<WorkerOptions>;

/**
 * Creates a worker for agent runs on a task queue: the workflow bundle (built once and cached by the hash of
 * its code), the model and tool activities with `options.tools` (default: the built-in tools), the trace
 * sink. Call `run()` to poll until `shutdown()`.
 */
export async function createAgentWorker(options: AgentWorkerOptions): Promise<AgentWorker> {
  // Before anything is started: a providers file that cannot be used stops the worker, saying what to fix.
  const providers = options.providers !== undefined ? options.providers : providersFromEnv();
  // First: a required MCP server that is down stops the worker before anything else is opened.
  const mcp = await startMcpPool(options.mcp);
  const store = options.store ?? (await openStore({ dataDir: options.dataDir }));
  const registry = createToolRegistry(withAgentTools(options.tools ?? builtinTools(store), options.agents ?? []));
  // The worker's own tools (not built in): runs learn them from it (`src/tools/tool-definition.ts`).
  const own = [...registry.values()].filter((tool) => !contractsByName.has(tool.name));
  const ownTools = own.map(definitionChecked);
  const tools = withMcpTools(registry, mcp);
  const tracing = tracingWorkerOptions(options.telemetry !== undefined ? options.telemetry : activeTelemetry());
  const scripted = options.scriptedModel;
  // Loaded only when this process serves the scripted model: a production worker never loads it.
  const scriptedModel =
    scripted && 'scenarioDirs' in scripted
      ? await (await import('../scripted-model/server.ts')).startScriptedModelServer({ scenarioDirs: scripted.scenarioDirs, recordingDirs: scripted.recordingDirs ?? [] })
      : null;
  const endpoints: ModelEndpoints = {
    scriptedBaseUrl: scripted && 'baseUrl' in scripted ? scripted.baseUrl : scriptedModel?.baseUrl,
    ...(scripted?.kind ? { scriptedKind: scripted.kind } : {}),
    providerBaseUrl: options.provider?.baseUrl ?? process.env.OPENAI_BASE_URL,
    providerApiKey: options.provider?.apiKey ?? process.env.OPENAI_API_KEY,
    providers,
  };
  const missing = [...contractsByName.values()].filter((c) => c.execution === 'activity' && !tools.has(c.name)).map((c) => c.name);
  if (missing.length) console.warn(`This worker has no implementation of: ${missing.join(', ')}. Runs that call them get an error.`);
  const dataConverter = options.dataConverter ?? agentDataConverter();
  const taskQueue = options.taskQueue ?? TASK_QUEUE;
  const offer = buildOffer(newWorkerId(), taskQueue, registry.values(), mcp, options.agents ?? []);
  const published = await store.listWorkerOffers();
  const conflict = offerConflict(offer, published, Date.now());
  if (conflict && !(options.rollingDeploy ?? process.env.AGENT_ROLLING_DEPLOY === '1')) {
    await mcp?.close();
    await scriptedModel?.close();
    if (!options.store) await store.close();
    throw new WorkerConfigError(conflict);
  }
  if (conflict) console.warn(`Rolling deploy: starting although ${conflict.split('\n')[0]}`);
  const activities = createActivities({
    endpoints,
    contracts: new Map<string, ToolContract>([...contractsByName, ...own.map((t) => [t.name, t] as const)]),
    ownTools,
    agents: (options.agents ?? []).map(agentDefinition),
    offerDigest: offer.digest,
    tools,
    defaultWorkspace: options.workspace,
    workspaceRoots: options.workspaceRoots ?? (process.env.AGENT_WORKSPACE_ROOTS ? workspaceRoots() : [options.workspace]),
    client: new Client({ connection: options.connection, namespace: options.namespace ?? 'default', dataConverter }),
    store,
    toolRunLog: path.join(options.dataDir, 'tool-runs.jsonl'),
    mcp,
    taskQueue,
  });
  const traces = new TraceSink(store);
  const worker = await Worker.create({
    connection: options.connection,
    namespace: options.namespace ?? 'default',
    taskQueue,
    workflowBundle: await workflowBundle({ interceptorModules: [...tracing.interceptorModules, ...(options.workflowInterceptorModules ?? [])] }),
    ...(tracing.interceptors ? { interceptors: tracing.interceptors } : {}),
    activities,
    sinks: { ...traces.sinks(), ...tracing.sinks },
    ...workflowTaskLimits(options),
    ...WORKER_TIMING,
    ...deploymentWorkerOptions(options.deployment),
    dataConverter,
  }).catch(async (error: unknown) => {
    await mcp?.close();
    throw error;
  });
  // Rate-limited providers' model calls: a worker per provider queue, in this process (`model-queue-workers.ts`).
  const modelWorkers = await createModelQueueWorkers({ connection: options.connection, namespace: options.namespace ?? 'default', taskQueue, endpoints, activities, dataConverter }).catch(async (error: unknown) => {
    await mcp?.close();
    throw error;
  });
  traces.watchShutdown(() => !['INITIALIZED', 'RUNNING'].includes(worker.getState()));
  const modelRuns = modelWorkers.map((w) => w.run());
  const publication = await publishOffer(store, offer, published);
  return {
    worker,
    store,
    scriptedModel,
    mcp,
    workerId: offer.workerId,
    async run(until) {
      try {
        await (until ? worker.runUntil(until) : worker.run());
      } finally {
        for (const w of modelWorkers) if (w.getState() === 'RUNNING') w.shutdown();
        await Promise.allSettled(modelRuns);
        await publication.withdraw().catch((error: unknown) => console.warn(`Could not withdraw this worker's published tools from the store: ${(error as Error).message}`));
        traces.close();
        await scriptedModel?.close();
        await mcp?.close();
        // A store given by the caller is the caller's to close.
        if (!options.store) await store.close();
      }
    },
    shutdown: () => worker.shutdown(),
  };
}

/** The worker's tools with those its agents were given as objects (each once; two different tools of one name are refused). */
function withAgentTools(tools: readonly Tool[], agents: readonly Agent[]): Tool[] {
  const all = [...tools];
  const names = new Set(agents.map((a) => a.name));
  if (names.size !== agents.length) throw new WorkerConfigError('Two agents given to the worker have the same name: give each its own.');
  checkAgentLinks(agents);
  for (const tool of agents.flatMap((a) => a.ownTools)) {
    const same = all.find((t) => t.name === tool.name);
    if (same === tool) continue;
    if (same) throw new WorkerConfigError(`Two different tools are named "${tool.name}" (one of them given to an agent): give each its own name.`);
    all.push(tool);
  }
  return all;
}

/** Every agent an agent calls or hands over to is given to this worker too, with a name short enough for its tool. */
function checkAgentLinks(agents: readonly Agent[]): void {
  for (const agent of agents) {
    for (const [what, linked] of [['subAgents', agent.subAgents], ['handoffs', agent.handoffs]] as const) {
      for (const name of linked ?? []) {
        if (!agents.some((a) => a.name === name)) throw new WorkerConfigError(`Agent "${agent.name}" names "${name}" in ${what}, but the worker is not given that agent: add it to \`agents\`.`);
        if (name.length > MAX_LINKED_AGENT_NAME) throw new WorkerConfigError(`Agent "${agent.name}" names "${name}" in ${what}: an agent it calls or hands over to needs a name of at most ${MAX_LINKED_AGENT_NAME} characters (it becomes a tool name).`);
      }
    }
  }
}

/**
 * One of the worker's own tools as runs learn it. A tool whose arguments' schema does not survive the trip
 * through JSON Schema (a transform, a custom check) is refused here, at the worker's start.
 */
function definitionChecked(tool: Tool): ToolDefinition {
  let definition: ToolDefinition;
  try {
    definition = definitionOf(tool);
  } catch (error) {
    throw new WorkerConfigError(`Tool "${tool.name}": its input schema cannot be written as JSON Schema (${(error as Error).message}). Use plain zod types (objects, strings, numbers, enums, arrays).`);
  }
  if (!readableDefinition(definition)) throw new WorkerConfigError(`Tool "${tool.name}": its input schema's JSON Schema cannot be read back; use plain zod types (objects, strings, numbers, enums, arrays).`);
  return definition;
}

/** The cache and the workflow-task slots, from the options or the environment, checked against each other. */
function workflowTaskLimits(options: Pick<AgentWorkerOptions, 'maxCachedRuns' | 'maxWorkflowTasks'>): Pick<WorkerOptions, 'maxCachedWorkflows' | 'maxConcurrentWorkflowTaskExecutions'> {
  const maxCachedWorkflows = options.maxCachedRuns ?? wholeNumberFromEnv('AGENT_MAX_CACHED_RUNS', 'runs') ?? DEFAULT_MAX_CACHED_RUNS;
  const tasks = options.maxWorkflowTasks ?? wholeNumberFromEnv('AGENT_MAX_WORKFLOW_TASKS', 'workflow tasks');
  if (tasks === undefined) return { maxCachedWorkflows };
  // The SDK would quietly lower or raise the figure; a setting that cannot be honoured is an error instead.
  if (tasks < 2) throw new WorkerConfigError(`AGENT_MAX_WORKFLOW_TASKS is ${tasks}: a worker needs at least 2 workflow tasks at once: set it to 2 or more, or unset it.`);
  if (maxCachedWorkflows > 0 && tasks > maxCachedWorkflows) {
    throw new WorkerConfigError(`AGENT_MAX_WORKFLOW_TASKS is ${tasks}, more than the ${maxCachedWorkflows} runs the worker caches: raise AGENT_MAX_CACHED_RUNS too.`);
  }
  return { maxCachedWorkflows, maxConcurrentWorkflowTaskExecutions: tasks };
}

/** A whole number from the environment (0 included), undefined when unset; anything else is a WorkerConfigError. */
function wholeNumberFromEnv(name: string, of: string): number | undefined {
  const text = process.env[name]?.trim();
  if (!text) return undefined;
  if (!/^\d+$/.test(text)) throw new WorkerConfigError(`${name} is "${text}": give a whole number of ${of}, or unset it.`);
  return Number(text);
}
