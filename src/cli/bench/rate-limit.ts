/**
 * `node src/cli/bench/rate-limit.ts [runs] [callsPerSecond]`: many runs at once against a scripted
 * provider whose model calls are rate limited across the fleet (`src/providers/model-queues.ts`), on an
 * embedded Temporal dev server (or TEMPORAL_ADDRESS). Prints the calls the provider saw per second over
 * 1 s windows (the highest, and the mean over the busy windows), how many runs failed, and the wall time.
 * Standalone (not a section of `npm run bench`): it takes as long as the rate makes it.
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

const [runs = 200, rate = 20] = process.argv.slice(2).map(Number);
quietTemporalLogs();
const log = (line: string) => console.error(line);

const dataDir = mkdtempSync(path.join(tmpdir(), 'agent-bench-rate-'));
const workspace = path.join(dataDir, 'workspace');
cpSync(path.join(PROJECT_ROOT, 'examples', 'workspace'), workspace, { recursive: true });
const server = process.env.TEMPORAL_ADDRESS ? null : await startDevServer({ dataDir, port: await freeDevServerPort(), log });
const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS ?? server!.address });
const provider = await startScriptedModelServer();
const store = await openStore({ dataDir });
const taskQueue = `bench-rate-${Date.now().toString(36)}`;
const providers = parseProvidersConfig({ providers: { limited: { baseUrl: provider.baseUrl, callsPerSecond: rate } } });
// One worker (the SDK allows one per queue and process); the server enforces the rate for all of a queue's workers alike.
const worker = await createAgentWorker({ connection, taskQueue, dataDir, store, workspace, providers });
const running = worker.run();
const agents = new AgentClient(new Client({ connection }), { taskQueue, workspaceRoots: [workspace], store });

const started = Date.now();
const ids = await Promise.all(Array.from({ length: runs }, (_, i) => agents.startRun({ goal: `Which log file mentions a timeout? (${i})`, model: 'limited/scripted:plan', workspace }).then((r) => r.runId)));
const results = await Promise.all(ids.map((id) => agents.result(id)));
const wallMs = Date.now() - started;

const failed = results.filter((r) => r.status !== 'completed').length;
const times = provider.requests.map((r) => r.startedAt).sort((a, b) => a - b);
const windows = new Map<number, number>();
for (const t of times) windows.set(Math.floor((t - times[0]!) / 1000), (windows.get(Math.floor((t - times[0]!) / 1000)) ?? 0) + 1);
const counts = [...windows.values()];
const busy = counts.slice(0, -1);
console.log(
  `rate limit: ${runs} runs, ${times.length} model calls, limit ${rate}/s: ` +
    `highest 1 s window ${Math.max(...counts)} calls, mean ${(busy.reduce((a, b) => a + b, 0) / Math.max(1, busy.length)).toFixed(1)}/s over ${busy.length} full windows; ` +
    `${failed} runs failed; ${(wallMs / 1000).toFixed(1)} s`,
);
console.log(`calls per 1 s window: ${counts.join(' ')}`);

worker.shutdown();
await running;
await provider.close();
await store.close();
await connection.close();
await server?.stop();
rmSync(dataDir, { recursive: true, force: true });
