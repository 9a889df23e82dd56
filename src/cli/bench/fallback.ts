/**
 * `node src/cli/bench/fallback.ts`: how long a run takes to move to its fallback model when its primary
 * goes down mid-run (`workflows/model-chain.ts`), with the default retry policy and with a provider that
 * asks for a short wait (`retry-after-ms: 10`): from the primary's first failed answer to the fallback's
 * first request. Embedded Temporal dev server (or TEMPORAL_ADDRESS), two scripted model servers as providers.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { AgentClient } from '../../client/client.ts';
import { PROJECT_ROOT } from '../../paths.ts';
import { parseProvidersConfig } from '../../providers/providers-file.ts';
import { startScriptedModelServer } from '../../scripted-model/server.ts';
import { openStore } from '../../store/open-store.ts';
import { freeDevServerPort, startDevServer } from '../../temporal/temporal-server.ts';
import { createAgentWorker } from '../../worker/worker.ts';
import { quietTemporalLogs } from '../../worker/temporal-logs.ts';

quietTemporalLogs();
const log = (line: string) => console.error(line);
const dataDir = mkdtempSync(path.join(tmpdir(), 'agent-bench-fallback-'));
const workspace = path.join(dataDir, 'workspace');
cpSync(path.join(PROJECT_ROOT, 'examples', 'workspace'), workspace, { recursive: true });
const server = process.env.TEMPORAL_ADDRESS ? null : await startDevServer({ dataDir, port: await freeDevServerPort(), log });
const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS ?? server!.address });
const primary = await startScriptedModelServer();
const backup = await startScriptedModelServer();
const store = await openStore({ dataDir });
const taskQueue = `bench-fallback-${Date.now().toString(36)}`;
const providers = parseProvidersConfig({ providers: { primary: { baseUrl: primary.baseUrl }, backup: { baseUrl: backup.baseUrl } } });
const worker = await createAgentWorker({ connection, taskQueue, dataDir, store, workspace, providers });
const running = worker.run();
const agents = new AgentClient(new Client({ connection }), { taskQueue, workspaceRoots: [workspace], store });

for (const [label, headers] of [
  ['default retry policy (6 attempts, 1 s doubling)', undefined],
  ['provider asks retry-after-ms: 10', { 'retry-after-ms': '10' }],
] as const) {
  primary.setOutage({ status: 503, ...(headers ? { headers } : {}), fromRequest: primary.requests.length + 2 });
  const before = backup.requests.length;
  const { runId } = await agents.startRun({ goal: `Which log file mentions a timeout? (${label})`, model: 'primary/scripted:plan', fallbackModels: ['backup/scripted:plan'], workspace });
  const result = await agents.result(runId);
  const firstFailure = primary.requests.find((r) => r.status === 503 && r.messages.some((m) => m.content?.includes(label)))!;
  const handedOver = backup.requests[before]!;
  console.log(`fallback, ${label}: ${result.status}; ${handedOver.startedAt - firstFailure.startedAt} ms from the primary's first 503 to the fallback's first request`);
  primary.setOutage(null);
}

worker.shutdown();
await running;
await primary.close();
await backup.close();
await store.close();
await connection.close();
await server?.stop();
rmSync(dataDir, { recursive: true, force: true });
