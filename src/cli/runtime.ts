/**
 * Everything a command needs to talk to Temporal: the server (external, reused or started here), one
 * connection shared by the client and, optionally, an in-process worker.
 *
 * Without a worker (status, list, approve…) the client connects with its own gRPC library, and the
 * worker's code (Temporal's native runtime, the activities, the model client) is never loaded: about a
 * third of such a command's start-up.
 */
import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { AgentClient } from '../client/client.ts';
import { agentDataConverter } from '../client/payload-codec.ts';
import { tracingClientInterceptors } from '../telemetry/client.ts';
import { reportExportError } from '../telemetry/export-errors.ts';
import { activeTelemetry } from '../telemetry/setup.ts';
import { dataDir, PROJECT_ROOT, TASK_QUEUE } from '../paths.ts';
import { openStore, openStoreWhenReachable } from '../store/open-store.ts';
import type { AgentStore } from '../store/store.ts';
import { ensureTemporal, type TemporalEndpoint } from '../temporal/temporal-server.ts';
import type { AgentWorker, AgentWorkerOptions } from '../worker/worker.ts';
import type { ProviderKind } from '../providers/providers-file.ts';
import type { WorkerDeployment } from '../worker/deployment.ts';
import { defaultWorkspacePath, workspaceRoots } from '../tools/workspace-roots.ts';

export interface Runtime {
  endpoint: TemporalEndpoint;
  agents: AgentClient;
  dataDir: string;
  /** The store (AGENT_STORE_URL, else SQLite in the data directory): traces, ledgers, transcripts. */
  store: AgentStore;
  /** The in-process worker, when asked for. */
  worker: AgentWorker | null;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** Run a worker in this process. */
  worker: boolean;
  /**
   * Serve the scripted model in this process (demo, run, eval, bench). Scenario modules load only from
   * AGENT_SCENARIO_DIRS. A worker without it serves scripted models only when AGENT_SCRIPTED_MODEL_URL
   * names a scripted model server; otherwise it refuses them.
   */
  scriptedModel?: boolean;
  /** Directories the in-process scripted model may replay recordings from, besides AGENT_RECORDING_DIRS (replay, eval). */
  recordingDirs?: readonly string[];
  /** The wire the worker's scripted models go over (eval's `--api`): `chat` (default) or `responses`. */
  scriptedKind?: ProviderKind;
  /** The in-process worker's deployment (Worker Versioning; `worker` only): none, unversioned. */
  deployment?: WorkerDeployment | null;
  /** Workspaces runs may name, for the client and the in-process worker (default: AGENT_WORKSPACE_ROOTS, else the demo workspace). */
  workspaceRoots?: readonly string[];
  /** Wait for a store that cannot be reached yet instead of failing (processes that stay up: `worker`, `serve`). */
  waitForStore?: boolean;
  log?: (line: string) => void;
}

export async function openRuntime(options: RuntimeOptions): Promise<Runtime> {
  const dir = dataDir();
  const endpoint = await ensureTemporal({ dataDir: dir, log: options.log });
  if (endpoint.owned && endpoint.uiUrl) options.log?.(`Temporal dev server started on ${endpoint.address} (Web UI ${endpoint.uiUrl}).`);
  const workerCode = options.worker ? await loadWorkerCode() : null;
  const connectionOptions = { address: endpoint.address, ...tlsOptions() };
  const native = workerCode ? await workerCode.NativeConnection.connect(connectionOptions) : null;
  const connection = native ?? (await Connection.connect(connectionOptions));
  // With tracing on (OTEL_EXPORTER_OTLP_ENDPOINT), a run's trace starts here, at the client.
  const telemetry = activeTelemetry();
  const temporal = new Client({ connection, namespace: endpoint.namespace, dataConverter: agentDataConverter(undefined, { readEncryptedAsMarkers: true }), interceptors: tracingClientInterceptors(telemetry) });
  const roots = options.workspaceRoots ?? workspaceRoots();
  const store = options.waitForStore ? await openStoreWhenReachable({ dataDir: dir, log: options.log ?? console.warn }) : await openStore({ dataDir: dir });
  const agents = new AgentClient(temporal, { taskQueue: TASK_QUEUE, workspaceRoots: roots, store });
  let worker: AgentWorker | null = null;
  let running: Promise<void> | null = null;
  if (workerCode && native) {
    worker = await workerCode.createAgentWorker({
      connection: native,
      namespace: endpoint.namespace,
      dataDir: dir,
      store,
      workspace: demoWorkspace(),
      workspaceRoots: roots,
      ...(await scriptedModelOption(options.scriptedModel ?? false, options.recordingDirs ?? [], options.scriptedKind)),
      ...(options.deployment ? { deployment: options.deployment } : {}),
    });
    running = worker.run();
  }
  return {
    endpoint,
    agents,
    dataDir: dir,
    store,
    worker,
    async close() {
      if (worker) {
        // Temporal's runtime leaves signals to the commands (loadWorkerCode): the worker stops here, last.
        if (worker.worker.getState() === 'RUNNING') worker.shutdown();
        await running;
      }
      await store.close();
      await connection.close();
      await endpoint.stop();
      // Spans still batched go out before the process ends; a collector not there is said, and ends nothing.
      await telemetry?.forceFlush().catch((error: unknown) => reportExportError(error));
    },
  };
}

/** What only a process with a worker loads: Temporal's native runtime (its logs quietened) and our worker. */
async function loadWorkerCode() {
  const [{ NativeConnection }, { quietTemporalLogs }, { createAgentWorker }] = await Promise.all([
    import('@temporalio/worker'),
    import('../worker/temporal-logs.ts'),
    import('../worker/worker.ts'),
  ]);
  // The commands handle their signals: `run` cancels its run before this worker stops (run-and-wait.ts).
  quietTemporalLogs({ ownSignals: true });
  return { NativeConnection, createAgentWorker };
}

/** `TEMPORAL_API_KEY` (Temporal Cloud) implies TLS; `TEMPORAL_TLS=1` asks for TLS alone. */
function tlsOptions() {
  const apiKey = process.env.TEMPORAL_API_KEY;
  return {
    ...(apiKey ? { apiKey } : {}),
    ...(apiKey || process.env.TEMPORAL_TLS === '1' ? { tls: true } : {}),
  };
}

/** A scripted model server named by AGENT_SCRIPTED_MODEL_URL (tests), one in this process when asked, or none. */
async function scriptedModelOption(inProcess: boolean, recordingDirs: readonly string[], kind: ProviderKind | undefined): Promise<Pick<AgentWorkerOptions, 'scriptedModel'>> {
  const wire = kind ? { kind } : {};
  const url = process.env.AGENT_SCRIPTED_MODEL_URL;
  if (url) return { scriptedModel: { baseUrl: url, ...wire } };
  if (!inProcess) return {};
  const [{ scenarioDirsFromEnv }, { recordingDirsFromEnv }] = await Promise.all([import('../scripted-model/server.ts'), import('../scripted-model/recorded.ts')]);
  return { scriptedModel: { scenarioDirs: scenarioDirsFromEnv(), recordingDirs: [...recordingDirsFromEnv(), ...recordingDirs], ...wire } };
}

/** The demo workspace: a copy of examples/workspace in the data directory, so the demo never edits the repo. */
export function demoWorkspace(): string {
  const workspace = defaultWorkspacePath();
  if (!process.env.AGENT_WORKSPACE && !existsSync(workspace)) {
    cpSync(path.join(PROJECT_ROOT, 'examples', 'workspace'), workspace, { recursive: true });
  }
  return workspace;
}
