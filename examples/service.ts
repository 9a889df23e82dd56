import { Client, Connection } from '@temporalio/client';
import { AgentClient, isTerminal } from '../src/client/client.ts';

const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233' });
const agents = new AgentClient(new Client({ connection }));
const { runId } = await agents.startRun({ goal: 'Free some disk space', model: process.env.MODEL ?? 'gpt-4o-mini', limits: { maxTurns: 10, maxBudgetUsd: 0.05 } });
const decided = new Set<string>();
for (let state = await agents.getState(runId); !isTerminal(state); state = await agents.getState(runId)) {
  // state: status, turns, toolRuns, costUsd, pending (an approval or a question), progress, …
  const pending = state.pending;
  if (pending && !decided.has(pending.callKey)) {
    decided.add(pending.callKey);
    if (pending.kind === 'approval') await agents.approve(runId, { callKey: pending.callKey, argsHash: pending.argsHash, by: 'ops-bot' });
    else await agents.answer(runId, 'notes.txt');
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
}
const result = await agents.result(runId); // also for cancelled runs; agents.cancelRun(runId, reason) cancels
console.log(`${result.status}: ${result.output ?? result.error}`); // failed: why, e.g. a worker with no provider key
await connection.close();
