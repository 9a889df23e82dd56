/** Real worker processes (`node src/cli/cli.ts worker`, or a workflow-only one), to be killed with SIGKILL; and an activity-only worker in the test process. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities/index.ts';
import { PROJECT_ROOT } from '../../src/paths.ts';
import type { EffectLedger } from '../../src/store/store.ts';
import { contractsByName } from '../../src/tools/contracts.ts';
import type { Tool } from '../../src/tools/define-tool.ts';
import { builtinTools, createToolRegistry } from '../../src/tools/registry.ts';
import { WORKER_TIMING } from '../../src/worker/worker.ts';
import type { Harness } from './harness.ts';

export interface WorkerProcess {
  child: ChildProcess;
  /** The identity the worker gives Temporal (in history: who started each workflow task). */
  identity: string;
  kill(): Promise<void>;
}

export interface SpawnOptions {
  /** Workflow tasks and local activities only (test/helpers/workflow-worker.ts); other activities need `startActivityWorker`. */
  workflowOnly?: boolean;
  /** A worker script of the test's own (a file under test/helpers that logs `Worker polling task queue` once it polls). */
  script?: string;
}

export async function spawnWorker(h: Harness, address: string = h.address, options: SpawnOptions = {}): Promise<WorkerProcess> {
  const entry = options.script ? [path.join(PROJECT_ROOT, 'test', 'helpers', options.script)] : options.workflowOnly ? [path.join(PROJECT_ROOT, 'test', 'helpers', 'workflow-worker.ts')] : [path.join(PROJECT_ROOT, 'src', 'cli', 'cli.ts'), 'worker'];
  const child = spawn(process.execPath, entry, {
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: address,
      AGENT_TASK_QUEUE: h.taskQueue,
      AGENT_DATA_DIR: h.dataDir,
      AGENT_WORKSPACE: h.workspace,
      AGENT_SCRIPTED_MODEL_URL: h.scripted.baseUrl,
      TEMPORAL_LOG_LEVEL: 'ERROR',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('Worker polling task queue')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before polling: ${stderr}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    identity: /identity (\S+)/.exec(stderr)?.[1] ?? `${child.pid}@`,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

export interface ActivityWorker {
  identity: string;
  stop(): Promise<void>;
}

/** A worker in the test process that runs the activities that are not local, and no workflow task. */
export async function startActivityWorker(h: Harness, tools: (ledger: EffectLedger) => Tool[] = builtinTools): Promise<ActivityWorker> {
  const identity = `activity-worker-${process.pid}`;
  const worker = await Worker.create({
    connection: h.connection,
    taskQueue: h.taskQueue,
    identity,
    activities: createActivities({
      endpoints: { scriptedBaseUrl: h.scripted.baseUrl },
      contracts: contractsByName,
      tools: createToolRegistry(tools(h.store)),
      defaultWorkspace: h.workspace,
      workspaceRoots: [h.dataDir],
      toolRunLog: path.join(h.dataDir, 'tool-runs.jsonl'),
      client: new Client({ connection: h.connection }),
      store: h.store,
    }),
    ...WORKER_TIMING,
  });
  const running = worker.run();
  return {
    identity,
    async stop() {
      worker.shutdown();
      await running;
    },
  };
}
