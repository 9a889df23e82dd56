/**
 * What every bench section shares: a tuned embedded Temporal dev server (or TEMPORAL_ADDRESS), the
 * scripted model over HTTP, the store, and an agent worker in this process whose scan_files tool records
 * when its signal aborts.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { AgentClient } from '../../client/client.ts';
import { observedTools, type ScanObservation } from './instrumented-scan.ts';
import { PROJECT_ROOT } from '../../paths.ts';
import { startScriptedModelServer, type ScriptedModelServer } from '../../scripted-model/server.ts';
import { openStore } from '../../store/open-store.ts';
import type { AgentStore } from '../../store/store.ts';
import { freeDevServerPort, startDevServer, type TemporalEndpoint } from '../../temporal/temporal-server.ts';
import { createAgentWorker, type AgentWorker } from '../../worker/worker.ts';

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
/** `model` for a reply that takes as long as the goal says ("answer after 2000 ms"). */
export const SLOW_MODEL = `scripted:${path.join(BENCH_DIR, 'scenarios', 'slow-model.ts')}`;
export const TOOL_OUTPUT_BYTES = 4096;

export interface BenchEnv {
  dataDir: string;
  workspace: string;
  /** Where the scripted model server reads `recorded:` models from (the replay section records into it). */
  recordingsDir: string;
  address: string;
  /** The dev server started here (null with TEMPORAL_ADDRESS). */
  server: TemporalEndpoint | null;
  connection: NativeConnection;
  temporal: Client;
  agents: AgentClient;
  taskQueue: string;
  scripted: ScriptedModelServer;
  store: AgentStore;
  worker: AgentWorker;
  /** scan_files calls seen by the worker, by `<runId>:<callKey>`. */
  scans: Map<string, ScanObservation>;
  close(): Promise<void>;
}

export const log = (line: string) => console.error(line);

export async function openBenchEnv(options: { bigFiles: number }): Promise<BenchEnv> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'agent-bench-'));
  const workspace = path.join(dataDir, 'workspace');
  cpSync(path.join(PROJECT_ROOT, 'examples', 'workspace'), workspace, { recursive: true });
  mkdirSync(path.join(workspace, 'big'));
  for (let i = 0; i < options.bigFiles; i++) {
    writeFileSync(path.join(workspace, 'big', `file-${i}.txt`), `file ${i} `.padEnd(TOOL_OUTPUT_BYTES, 'x'));
  }
  const server = process.env.TEMPORAL_ADDRESS ? null : await startDevServer({ dataDir, port: await freeDevServerPort(), log });
  const address = process.env.TEMPORAL_ADDRESS ?? server!.address;
  const connection = await NativeConnection.connect({ address });
  const recordingsDir = path.join(dataDir, 'recordings');
  const scripted = await startScriptedModelServer({ scenarioDirs: [path.join(BENCH_DIR, 'scenarios')], recordingDirs: [recordingsDir] });
  const taskQueue = `bench-${Date.now().toString(36)}`;
  const scans = new Map<string, ScanObservation>();
  const store = await openStore({ dataDir });
  const worker = await createAgentWorker({ connection, taskQueue, dataDir, store, workspace, scriptedModel: { baseUrl: scripted.baseUrl }, tools: observedTools(scans)(store) });
  const running = worker.run();
  const temporal = new Client({ connection });
  const agents = new AgentClient(temporal, { taskQueue, workspaceRoots: [workspace], store });
  return {
    dataDir,
    workspace,
    recordingsDir,
    address,
    server,
    connection,
    temporal,
    agents,
    taskQueue,
    scripted,
    store,
    worker,
    scans,
    async close() {
      worker.shutdown();
      await running;
      await store.close();
      await scripted.close();
      await connection.close();
      await server?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls `read` every few milliseconds until it gives a value. */
export async function waitFor<T>(read: () => T | undefined, what = 'a condition', timeoutMs = 30_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`);
    await sleep(2);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** CPU time (user + system, ms) of the Temporal dev server this process started, or null. */
export function serverCpuMs(): number | null {
  const ticksPerSecond = 100; // USER_HZ on Linux
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (Number(fields[1]) !== process.pid || !comm.startsWith('temporal')) continue;
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
    } catch {
      // the process went away meanwhile
    }
  }
  return null;
}
