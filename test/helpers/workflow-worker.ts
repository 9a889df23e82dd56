/**
 * A worker process that runs workflow tasks (and the local activities they run) and nothing else: with
 * the other activities on another worker, a test can kill the process that holds a run while the run
 * sits between two of its steps, with no activity of that process in flight (test/durability.test.ts).
 * Started by `spawnWorker(h, h.address, { workflowOnly: true })`; configured like `src/cli/cli.ts worker` by environment.
 */
import path from 'node:path';
import { Client } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../../activities/index.ts';
import { quietTemporalLogs } from '../../src/worker/temporal-logs.ts';
import { openStore } from '../../src/store/open-store.ts';
import { contractsByName } from '../../src/tools/contracts.ts';
import { builtinTools, createToolRegistry } from '../../src/tools/registry.ts';
import { TraceSink } from '../../src/worker/trace-sink.ts';
import { workflowBundle } from '../../src/worker/workflow-bundle.ts';
import { WORKER_TIMING } from '../../src/worker/worker.ts';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

quietTemporalLogs();
const taskQueue = env('AGENT_TASK_QUEUE');
const dataDir = env('AGENT_DATA_DIR');
const workspace = env('AGENT_WORKSPACE');
const connection = await NativeConnection.connect({ address: env('TEMPORAL_ADDRESS') });
const store = await openStore({ dataDir });
const traces = new TraceSink(store);
const worker = await Worker.create({
  connection,
  taskQueue,
  identity: `workflow-worker-${process.pid}`,
  workflowBundle: await workflowBundle(),
  activities: createActivities({
    endpoints: { scriptedBaseUrl: env('AGENT_SCRIPTED_MODEL_URL') },
    contracts: contractsByName,
    tools: createToolRegistry(builtinTools(store)),
    defaultWorkspace: workspace,
    workspaceRoots: [dataDir],
    toolRunLog: path.join(dataDir, 'tool-runs.jsonl'),
    client: new Client({ connection }),
    store,
  }),
  // Local activities only: every other activity runs on the test's activity worker.
  enableNonLocalActivities: false,
  sinks: traces.sinks(),
  ...WORKER_TIMING,
});
console.error(`Worker polling task queue "${taskQueue}" (workflow tasks and local activities only), identity ${worker.options.identity}`);
await worker.run();
