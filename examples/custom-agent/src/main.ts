/**
 * The custom agent end to end: Temporal (TEMPORAL_ADDRESS, else a dev server on this machine), a worker
 * offering the shop's tools and its support agent, a run of that agent that looks an order up and asks to
 * refund it, the refund approved, and the answer printed. With MODEL naming a provider's model (and
 * OPENAI_API_KEY set), a real model drives it.
 */
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { AgentClient, createAgentWorker, isTerminal } from 'durable-agent-harness';
import { ensureTemporal } from 'durable-agent-harness/testing';
import { support } from './agent.ts';
import { lookupOrder, refundOrder } from './tools.ts';

const root = path.resolve(import.meta.dirname, '..');
const dataDir = process.env.AGENT_DATA_DIR ?? path.join(root, '.data');
const taskQueue = process.env.AGENT_TASK_QUEUE ?? 'custom-agent';

// Temporal's worker logs each change of its state; warnings and errors are enough here.
Runtime.install({ logger: new DefaultLogger('WARN') });
const temporal = await ensureTemporal({ dataDir });
const connection = await NativeConnection.connect({ address: temporal.address });
const worker = await createAgentWorker({
  connection,
  namespace: temporal.namespace,
  taskQueue,
  dataDir,
  workspace: path.join(root, 'shop'),
  tools: [lookupOrder, refundOrder],
  agents: [support],
  // Serves `scripted:<file>` models from scenario files in this directory (tests, and this example without a provider).
  scriptedModel: { scenarioDirs: [path.join(root, 'scenarios')] },
});
const running = worker.run();
try {
  const client = new AgentClient(new Client({ connection, namespace: temporal.namespace }), { taskQueue, store: worker.store });
  const { runId } = await client.startRun({ agent: 'support', goal: 'Order A-1001 arrived broken. Refund the customer what they paid.' });
  console.log(`run ${runId} started`);
  // A person decides in the inbox (`npx durable-agent-harness serve`) or with the CLI; this script approves.
  const decided = new Set<string>();
  for (let state = await client.getState(runId); !isTerminal(state); state = await client.getState(runId)) {
    const pending = state.pending;
    if (pending?.kind === 'approval' && !decided.has(pending.callKey)) {
      decided.add(pending.callKey);
      console.log(`approval needed: ${pending.toolName} ${JSON.stringify(pending.args)} (risk ${pending.risk})`);
      await client.approve(runId, { callKey: pending.callKey, argsHash: pending.argsHash, by: 'example' });
    }
    await sleep(200);
  }
  const result = await client.result(runId);
  console.log(`${result.status}: ${result.output ?? result.error}`);
  process.exitCode = result.status === 'completed' ? 0 : 1;
} finally {
  worker.shutdown();
  await running;
  await connection.close();
  await temporal.stop();
}
