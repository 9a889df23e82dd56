/**
 * Everything a command needs to talk to Temporal: the server (external, reused or started here), one
 * connection shared by the client and, optionally, an in-process worker.
 */
import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime as TemporalRuntime } from '@temporalio/worker';
import { AgentClient } from './client.ts';
import { agentDataConverter } from './payload-codec.ts';
import { dataDir, PROJECT_ROOT, TASK_QUEUE } from './paths.ts';
import { ensureTemporal, type TemporalEndpoint } from './temporal-server.ts';
import { createAgentWorker, type AgentWorker } from './worker.ts';

export interface Runtime {
  endpoint: TemporalEndpoint;
  connection: NativeConnection;
  agents: AgentClient;
  dataDir: string;
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

export async function openRuntime(options: { worker: boolean; log?: (line: string) => void }): Promise<Runtime> {
  quietTemporalLogs();
  const dir = dataDir();
  const endpoint = await ensureTemporal({ dataDir: dir, log: options.log });
  if (endpoint.owned && endpoint.uiUrl) options.log?.(`Temporal dev server started on ${endpoint.address} (Web UI ${endpoint.uiUrl}).`);
  const connection = await NativeConnection.connect({ address: endpoint.address, ...tlsOptions() });
  const temporal = new Client({ connection, namespace: endpoint.namespace, dataConverter: agentDataConverter() });
  const agents = new AgentClient(temporal, TASK_QUEUE);
  let worker: AgentWorker | null = null;
  let running: Promise<void> | null = null;
  if (options.worker) {
    worker = await createAgentWorker({
      connection,
      namespace: endpoint.namespace,
      dataDir: dir,
      workspace: demoWorkspace(dir),
      // A scripted model server run elsewhere (tests); otherwise the worker starts its own.
      ...(process.env.AGENT_SCRIPTED_MODEL_URL ? { scriptedBaseUrl: process.env.AGENT_SCRIPTED_MODEL_URL } : {}),
    });
    running = worker.run();
  }
  return {
    endpoint,
    connection,
    agents,
    dataDir: dir,
    worker,
    async close() {
      if (worker) {
        worker.shutdown();
        await running;
      }
      await connection.close();
      await endpoint.stop();
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

/** The demo workspace: a copy of examples/workspace in the data directory, so the demo never edits the repo. */
export function demoWorkspace(dir: string): string {
  const workspace = process.env.AGENT_WORKSPACE ?? path.join(dir, 'workspace');
  if (!process.env.AGENT_WORKSPACE && !existsSync(workspace)) {
    cpSync(path.join(PROJECT_ROOT, 'examples', 'workspace'), workspace, { recursive: true });
  }
  return path.resolve(workspace);
}
