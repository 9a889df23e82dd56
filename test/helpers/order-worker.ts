/**
 * A worker process with the team's order tools (`order-tools.ts`), to be killed with SIGKILL while one
 * runs: `node test/helpers/order-worker.ts` with TEMPORAL_ADDRESS, AGENT_TASK_QUEUE, AGENT_DATA_DIR,
 * AGENT_WORKSPACE and AGENT_SCRIPTED_MODEL_URL set (spawnWorker's environment).
 */
import { NativeConnection } from '@temporalio/worker';
import { builtinTools } from '../../src/tools/registry.ts';
import { openStore } from '../../src/store/open-store.ts';
import { createAgentWorker } from '../../src/worker/worker.ts';
import { lookupOrder, refundOrder, slowRefund } from './order-tools.ts';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const connection = await NativeConnection.connect({ address: env('TEMPORAL_ADDRESS') });
const dataDir = env('AGENT_DATA_DIR');
const store = await openStore({ dataDir });
const worker = await createAgentWorker({
  connection,
  taskQueue: env('AGENT_TASK_QUEUE'),
  dataDir,
  store,
  workspace: env('AGENT_WORKSPACE'),
  scriptedModel: { baseUrl: env('AGENT_SCRIPTED_MODEL_URL') },
  tools: [...builtinTools(store), lookupOrder, refundOrder, slowRefund],
});
console.error('Worker polling task queue');
await worker.run();
