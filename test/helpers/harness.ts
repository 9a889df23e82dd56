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
import { AgentClient } from '../../src/client/client.ts';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { quietTemporalLogs } from '../../src/worker/temporal-logs.ts';
import { startScriptedModelServer, type ScriptedModelServer } from '../../src/scripted-model/server.ts';
import { freeDevServerPort, startDevServer, type TemporalEndpoint } from '../../src/temporal/temporal-server.ts';
import { openStore } from '../../src/store/open-store.ts';
import type { AgentStore, EffectLedger } from '../../src/store/store.ts';
import { createAgentWorker, type AgentWorker, type AgentWorkerOptions } from '../../src/worker/worker.ts';
import { workflowBundle } from '../../src/worker/workflow-bundle.ts';
import type { RunResult, RunState } from '../../src/wire/types.ts';
import type { RunInput } from '../../src/wire/run-input.ts';
import type { Tool } from '../../src/tools/define-tool.ts';
import type { Agent } from '../../src/agents/define-agent.ts';
import type { DataConverter } from '@temporalio/common';
import { eventually } from './eventually.ts';
import { collectHistories, type ExecutionHistory } from './histories.ts';
import { startModelProxy, type ModelProxy } from './model-proxy.ts';
import type { TraceLine } from '../../src/wire/trace-events.ts';

export interface Harness {
  agents: AgentClient;
  temporal: Client;
  connection: NativeConnection;
  scripted: ScriptedModelServer;
  /** The recording proxy between the worker and the scripted model server (with `modelProxy: true`). */
  model: ModelProxy;
  worker: AgentWorker;
  /** The Temporal server's address. */
  address: string;
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
  /** What an extra worker of a test shares with this harness's: its connection, data dir, store and workspace. */
  workerBase(): Pick<AgentWorkerOptions, 'connection' | 'dataDir' | 'store' | 'workspace' | 'workspaceRoots'>;
  /** Waits until the run's state satisfies `check`. */
  waitForState(runId: string, check: (state: RunState) => boolean, what: string): Promise<RunState>;
  /**
   * Every execution on this harness's task queue: each run however it was started, each execution of a
   * continued-as-new run, each child (see `collectHistories`).
   */
  histories(): Promise<ExecutionHistory[]>;
  /**
   * Replays every one of `histories()` against the current workflow code; fails on any nondeterminism,
   * and when there is nothing to replay. Returns how many histories it replayed.
   */
  replayAll(): Promise<number>;
  close(): Promise<void>;
  /** A file's end: `replayAll`, then `close` even if the replay failed (a worker left running would keep the file from ending). */
  replayAndClose(): Promise<void>;
}

export const scenario = (file: string) => `scripted:${path.join(PROJECT_ROOT, 'test', 'scenarios', file)}`;

export interface HarnessOptions {
  /** The worker's tools (default: the built-in ones), given the store's ledger. */
  tools?: (ledger: EffectLedger) => Tool[];
  dataConverter?: DataConverter;
  /** A Temporal server of the test's own (default: the test run's). */
  address?: string;
  /** Put a recording proxy between the worker and the scripted model server (`h.model`). */
  modelProxy?: boolean;
  /** The store as the worker sees it (default: the harness's store), e.g. one whose stream cannot be reached. */
  workerStore?: (store: AgentStore) => AgentStore;
  /** The worker's agents (`defineAgent`). */
  agents?: Agent[];
  /** The store's URL (default: SQLite in the harness's data directory), e.g. a PostgreSQL of the test's own. */
  storeUrl?: string;
  /** Worker settings other than the defaults. */
  worker?: Pick<AgentWorkerOptions, 'maxWorkflowTasks' | 'providers'>;
}

export async function startHarness(name: string, options: HarnessOptions = {}): Promise<Harness> {
  quietTemporalLogs();
  let ownServer: TemporalEndpoint | null = null;
  const dataDir = mkdtempSync(path.join(tmpdir(), `agent-test-${name}-`));
  let address = options.address ?? process.env.TEMPORAL_ADDRESS;
  if (!address) {
    ownServer = await startDevServer({ dataDir, port: await freeDevServerPort() });
    address = ownServer.address;
  }
  const connection = await NativeConnection.connect({ address });
  const temporal = new Client({ connection, ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}) });
  const taskQueue = `test-${name}-${Date.now().toString(36)}`;
  const scripted = await startScriptedModelServer({ scenarioDirs: [path.join(PROJECT_ROOT, 'test', 'scenarios')] });
  const model = options.modelProxy ? await startModelProxy(scripted.baseUrl) : null;
  const workspace = path.join(dataDir, 'workspace');
  cpSync(path.join(PROJECT_ROOT, 'examples', 'workspace'), workspace, { recursive: true });
  const store = await openStore({ dataDir, ...(options.storeUrl ? { url: options.storeUrl } : {}) });
  const newWorker = () =>
    createAgentWorker({
      connection,
      taskQueue,
      dataDir,
      store: options.workerStore?.(store) ?? store,
      workspace,
      scriptedModel: { baseUrl: model?.baseUrl ?? scripted.baseUrl },
      workspaceRoots: [dataDir],
      ...(options.tools ? { tools: options.tools(store) } : {}),
      ...(options.agents ? { agents: options.agents } : {}),
      ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
      ...options.worker,
    });
  let worker: AgentWorker | null = await newWorker();
  let running = worker.run();
  const stopWorker = async () => {
    worker?.shutdown();
    await running;
    worker = null;
  };
  const agents = new AgentClient(temporal, { taskQueue, workspaceRoots: [dataDir], store });
  // Every run started through this client is replayed, however the test started it.
  const started = new Set<string>();
  const startRun = agents.startRun.bind(agents);
  agents.startRun = async (...args) => {
    const result = await startRun(...args);
    started.add(result.runId);
    return result;
  };
  const histories = () => collectHistories(temporal, taskQueue, started);

  const replayAll = async () => {
    const all = await histories();
    if (all.length === 0) throw new Error(`nothing to replay: no run was started on ${taskQueue}`);
    const results = Worker.runReplayHistories(
      {
        workflowBundle: await workflowBundle(),
        sinks: { trace: { emit: { fn: () => {}, callDuringReplay: false } } },
        ...(options.dataConverter ? { dataConverter: options.dataConverter } : {}),
      },
      all.map(({ workflowId, history }) => ({ workflowId, history })),
    );
    const failures: string[] = [];
    let replayed = 0;
    for await (const result of results) {
      replayed++;
      if (result.error) failures.push(`${result.workflowId} (${result.runId}): ${result.error.message}`);
    }
    if (failures.length) throw new Error(`Replay failed for ${failures.length} of ${replayed} histories:\n${failures.join('\n')}`);
    if (replayed !== all.length) throw new Error(`replayed ${replayed} of ${all.length} histories`);
    return replayed;
  };

  const close = async () => {
    await stopWorker();
    await store.close();
    await model?.close();
    await scripted.close();
    await connection.close();
    await ownServer?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };

  return {
    agents,
    temporal,
    connection,
    scripted,
    workerBase: () => ({ connection, dataDir, store, workspace, workspaceRoots: [dataDir] }),
    get model() {
      if (!model) throw new Error('start the harness with modelProxy: true');
      return model;
    },
    get worker() {
      if (!worker) throw new Error('the worker is stopped');
      return worker;
    },
    address,
    taskQueue,
    dataDir,
    store,
    workspace,
    async run(input) {
      const { runId } = await agents.startRun({ workspace, ...input });
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
    histories,
    replayAll,
    close,
    async replayAndClose() {
      try {
        await replayAll();
      } finally {
        await close();
      }
    },
  };
}
