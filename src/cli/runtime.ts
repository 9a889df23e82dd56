/**
 * Everything a command needs to talk to Temporal: the server (external, reused or started here), one
 * connection shared by the client and, optionally, an in-process worker.
 */
import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime as TemporalRuntime } from '@temporalio/worker';
import { AgentClient } from '../client/client.ts';
import { agentDataConverter } from '../client/payload-codec.ts';
import { tracingClientInterceptors } from '../telemetry/client.ts';
import { activeTelemetry } from '../telemetry/setup.ts';
import { dataDir, PROJECT_ROOT, TASK_QUEUE } from '../paths.ts';
import { openStore } from '../store/open-store.ts';
import type { AgentStore } from '../store/store.ts';
import { ensureTemporal, type TemporalEndpoint } from '../temporal/temporal-server.ts';
import { scenarioDirsFromEnv } from '../scripted-model/server.ts';
import { recordingDirsFromEnv } from '../scripted-model/recorded.ts';
import { createAgentWorker, type AgentWorker, type AgentWorkerOptions } from '../worker/worker.ts';
import { defaultWorkspacePath, workspaceRoots } from '../tools/workspace-roots.ts';

export interface Runtime {
  endpoint: TemporalEndpoint;
  connection: NativeConnection;
  agents: AgentClient;
  dataDir: string;
  /** The store (AGENT_STORE_URL, else SQLite in the data directory): traces, ledgers, transcripts. */
  store: AgentStore;
  /** The in-process worker, when asked for. */
  worker: AgentWorker | null;
  close(): Promise<void>;
}

let loggerInstalled = false;

/** Temporal's own INFO lines (worker state changes) drown the run's output; keep warnings and errors. */
export function quietTemporalLogs(): void {
  if (loggerInstalled) return;
  loggerInstalled = true;
  TemporalRuntime.install({ logger: new DefaultLogger((process.env.TEMPORAL_LOG_LEVEL as 'WARN' | undefined) ?? 'WARN') });
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
  /** Workspaces runs may name, for the client and the in-process worker (default: AGENT_WORKSPACE_ROOTS, else the demo workspace). */
  workspaceRoots?: readonly string[];
  log?: (line: string) => void;
}

export async function openRuntime(options: RuntimeOptions): Promise<Runtime> {
  quietTemporalLogs();
  const dir = dataDir();
  const endpoint = await ensureTemporal({ dataDir: dir, log: options.log });
  if (endpoint.owned && endpoint.uiUrl) options.log?.(`Temporal dev server started on ${endpoint.address} (Web UI ${endpoint.uiUrl}).`);
  const connection = await NativeConnection.connect({ address: endpoint.address, ...tlsOptions() });
  // With tracing on (OTEL_EXPORTER_OTLP_ENDPOINT), a run's trace starts here, at the client.
  const telemetry = activeTelemetry();
  const temporal = new Client({ connection, namespace: endpoint.namespace, dataConverter: agentDataConverter(), interceptors: tracingClientInterceptors(telemetry) });
  const roots = options.workspaceRoots ?? workspaceRoots();
  const store = await openStore({ dataDir: dir });
  const agents = new AgentClient(temporal, { taskQueue: TASK_QUEUE, workspaceRoots: roots, store });
  let worker: AgentWorker | null = null;
  let running: Promise<void> | null = null;
  if (options.worker) {
    worker = await createAgentWorker({
      connection,
      namespace: endpoint.namespace,
      dataDir: dir,
      store,
      workspace: demoWorkspace(),
      workspaceRoots: roots,
      ...scriptedModelOption(options.scriptedModel ?? false, options.recordingDirs ?? []),
    });
    running = worker.run();
  }
  return {
    endpoint,
    connection,
    agents,
    dataDir: dir,
    store,
    worker,
    async close() {
      if (worker) {
        // SIGINT/SIGTERM already make Temporal's runtime drain the worker; shutting it down again would throw.
        if (worker.worker.getState() === 'RUNNING') worker.shutdown();
        await running;
      }
      await store.close();
      await connection.close();
      await endpoint.stop();
      // Spans still batched go out before the process ends.
      await telemetry?.forceFlush();
    },
  };
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
function scriptedModelOption(inProcess: boolean, recordingDirs: readonly string[]): Pick<AgentWorkerOptions, 'scriptedModel'> {
  const url = process.env.AGENT_SCRIPTED_MODEL_URL;
  if (url) return { scriptedModel: { baseUrl: url } };
  return inProcess ? { scriptedModel: { scenarioDirs: scenarioDirsFromEnv(), recordingDirs: [...recordingDirsFromEnv(), ...recordingDirs] } } : {};
}

/** The demo workspace: a copy of examples/workspace in the data directory, so the demo never edits the repo. */
export function demoWorkspace(): string {
  const workspace = defaultWorkspacePath();
  if (!process.env.AGENT_WORKSPACE && !existsSync(workspace)) {
    cpSync(path.join(PROJECT_ROOT, 'examples', 'workspace'), workspace, { recursive: true });
  }
  return workspace;
}
