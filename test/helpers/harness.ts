/**
 * One real Temporal server for the test run (TEMPORAL_ADDRESS, set by test/run.ts, or one started
 * here when a file runs alone), one scripted model server and one in-process worker per test file,
 * on a task queue of its own.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { AgentClient } from '../../src/client.ts';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { quietTemporalLogs } from '../../src/runtime.ts';
import { startScriptedModelServer, type ScriptedModelServer } from '../../src/scripted-model/server.ts';
import { startDevServer, type TemporalEndpoint } from '../../src/temporal-server.ts';
import { openStore } from '../../src/store/open-store.ts';
import type { AgentStore, EffectLedger } from '../../src/store/store.ts';
import { createAgentWorker, type AgentWorker } from '../../src/worker.ts';
import { workflowBundle } from '../../src/workflow-bundle.ts';
import type { RunInput, RunResult, RunState } from '../../workflows/types.ts';
import type { Tool } from '../../src/tools/define-tool.ts';
import type { DataConverter } from '@temporalio/common';
import { eventually } from './eventually.ts';
import type { TraceLine } from '../../workflows/trace-events.ts';

export interface Harness {
  agents: AgentClient;
  temporal: Client;
  connection: NativeConnection;
  scripted: ScriptedModelServer;
  worker: AgentWorker;
  taskQueue: string;
  dataDir: string;
  /** The store the harness's workers share (SQLite in dataDir, or AGENT_STORE_URL's). */
  store: AgentStore;
  /** A fresh copy of examples/workspace. */
  workspace: string;
  /** Starts a run in this harness's workspace and waits for its result. */
  run(input: Omit<RunInput, 'workspace'> & { workspace?: string }): Promise<RunResult>;
  /** The run's trace, from the store. */
  trace(runId: string): Promise<TraceLine[]>;
  /** Stops this file's worker (runs go on waiting in Temporal). */
  stopWorker(): Promise<void>;
  /** Starts a new worker on the same task queue. */
  startWorker(): Promise<void>;
  /** Waits until the run's state satisfies `check`. */
  waitForState(runId: string, check: (state: RunState) => boolean, what: string): Promise<RunState>;
  /** Replays every history this harness's runs produced against the current workflow code. */
  replayAll(): Promise<void>;
  close(): Promise<void>;
}

export const scenario = (file: string) => `scripted:${path.join(PROJECT_ROOT, 'test', 'scenarios', file)}`;

export interface HarnessOptions {
  /** The worker's tools (default: the built-in ones), given the store's ledger. */
  tools?: (ledger: EffectLedger) => Tool[];
  dataConverter?: DataConverter;
  /** A Temporal server of the test's own (default: the test run's). */
  address?: string;
}

export async function startHarness(name: string, options: HarnessOptions = {}): Promise<Harness> {
  quietTemporalLogs();
  let ownServer: TemporalEndpoint | null = null;
  const dataDir = mkdtempSync(path.join(tmpdir(), `agent-test-${name}-`));
  let address = options.address ?? process.env.TEMPORAL_ADDRESS;
  if (!address) {
    ownServer = await startDevServer({ dataDir, port: 17233 + Math.floor(Math.random() * 1000) });
    address = ownServer.address;
  }
  const connection = await NativeConnection.connect({ address });
  const temporal = new Client({ connection, ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}) });
  const taskQueue = `test-${name}-${Date.now().toString(36)}`;
  const scripted = await startScriptedModelServer({ scenarioDirs: [path.join(PROJECT_ROOT, 'test', 'scenarios')] });
  const workspace = path.join(dataDir, 'workspace');
  cpSync(path.join(PROJECT_ROOT, 'examples', 'workspace'), workspace, { recursive: true });
  const store = await openStore({ dataDir });
  const newWorker = () =>
    createAgentWorker({
      connection,
      taskQueue,
      dataDir,
      store,
      workspace,
      scriptedModel: { baseUrl: scripted.baseUrl },
      workspaceRoots: [dataDir],
      ...(options.tools ? { tools: options.tools(store) } : {}),
      ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
    });
  let worker: AgentWorker | null = await newWorker();
  let running = worker.run();
  const stopWorker = async () => {
    worker?.shutdown();
    await running;
    worker = null;
  };
  const agents = new AgentClient(temporal, { taskQueue, workspaceRoots: [dataDir] });
  const runIds: string[] = [];

  return {
    agents,
    temporal,
    connection,
    scripted,
    get worker() {
      if (!worker) throw new Error('the worker is stopped');
      return worker;
    },
    taskQueue,
    dataDir,
    store,
    workspace,
    async run(input) {
      const { runId } = await agents.startRun({ workspace, ...input });
      runIds.push(runId);
      return agents.result(runId);
    },
    trace: (runId) => store.readTrace(runId),
    stopWorker,
    async startWorker() {
      if (worker) throw new Error('a worker is already running');
      worker = await newWorker();
      running = worker.run();
    },
    waitForState: (runId, check, what) =>
      eventually(async () => {
        const state = await agents.getState(runId);
        return check(state) ? state : undefined;
      }, what),
    async replayAll() {
      const histories = runIds.map((runId) => temporal.workflow.getHandle(runId).fetchHistory().then((history) => ({ workflowId: runId, history })));
      const results = Worker.runReplayHistories(
        {
          workflowBundle: await workflowBundle(),
          sinks: { trace: { emit: { fn: () => {}, callDuringReplay: false } } },
          ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
        },
        await Promise.all(histories),
      );
      for await (const result of results) {
        if (result.error) throw new Error(`Replay of ${result.workflowId} failed: ${result.error.message}`);
      }
    },
    async close() {
      await stopWorker();
      await store.close();
      await scripted.close();
      await connection.close();
      await ownServer?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
