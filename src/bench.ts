/**
 * `npm run bench`: the harness's own cost on the embedded Temporal server and the scripted model.
 * Prints per-run wall time, harness overhead per turn (run time minus time inside the model server and
 * the tools, over turns), throughput under concurrency, and cancellation latency (cancel request to the
 * running tool's signal aborting).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, Worker } from '@temporalio/worker';
import { AgentClient } from './client.ts';
import { PROJECT_ROOT } from './paths.ts';
import { quietTemporalLogs } from './runtime.ts';
import { startScriptedModelServer } from './scripted-model/server.ts';
import { historyWeight } from './history-size.ts';
import { observedTools, type ScanObservation } from './instrumented-scan.ts';
import { median, p95, table } from './stats.ts';
import { startDevServer } from './temporal-server.ts';
import { openStore } from './store/open-store.ts';
import { createAgentWorker } from './worker.ts';
import type { RunInput } from '../workflows/types.ts';

const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 100);
const CONCURRENT = Number(process.env.BENCH_CONCURRENT ?? 50);
const CANCELS = Number(process.env.BENCH_CANCELS ?? 25);
const HISTORY_TURNS = (process.env.BENCH_HISTORY_TURNS ?? '50,100,200,500').split(',').map(Number);
const TOOL_OUTPUT_BYTES = 4096;

quietTemporalLogs();
const dataDir = mkdtempSync(path.join(tmpdir(), 'agent-bench-'));
const workspace = path.join(dataDir, 'workspace');
cpSync(path.join(PROJECT_ROOT, 'examples', 'workspace'), workspace, { recursive: true });
mkdirSync(path.join(workspace, 'big'));
for (let i = 0; i < Math.max(...HISTORY_TURNS); i++) {
  writeFileSync(path.join(workspace, 'big', `file-${i}.txt`), `file ${i} `.padEnd(TOOL_OUTPUT_BYTES, 'x'));
}
const log = (line: string) => console.error(line);

const server = process.env.TEMPORAL_ADDRESS ? null : await startDevServer({ dataDir, port: 37233 + Math.floor(Math.random() * 1000), log });
const address = process.env.TEMPORAL_ADDRESS ?? server!.address;
const connection = await NativeConnection.connect({ address });
const scripted = await startScriptedModelServer();
const taskQueue = `bench-${Date.now().toString(36)}`;
const scans = new Map<string, ScanObservation>();
const store = await openStore({ dataDir });
const worker = await createAgentWorker({ connection, taskQueue, dataDir, store, workspace, scriptedModel: { baseUrl: scripted.baseUrl }, tools: observedTools(scans)(store) });
const running = worker.run();
const temporal = new Client({ connection });
const agents = new AgentClient(temporal, { taskQueue, workspaceRoots: [workspace] });
const plan: RunInput = { goal: 'Which log file mentions a timeout?', model: 'scripted:plan', workspace };

interface Measured {
  wallMs: number;
  modelMs: number;
  toolMs: number;
  turns: number;
}

async function measuredRun(): Promise<Measured> {
  const started = performance.now();
  const { runId } = await agents.startRun(plan);
  const result = await agents.result(runId);
  const wallMs = performance.now() - started;
  if (result.status !== 'completed') throw new Error(`bench run ${runId} ended ${result.status}: ${result.error}`);
  const trace = await store.readTrace(runId);
  const toolMs = trace.reduce((sum, line) => sum + (line.type === 'tool_result' ? line.ms : 0), 0);
  return { wallMs, modelMs: 0, toolMs, turns: result.turns };
}

const silentLogger = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
}

async function waitFor<T>(read: () => T | undefined): Promise<T> {
  for (let i = 0; i < 2000; i++) {
    const value = read();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('bench: timed out waiting');
}

try {
  log('warming up...');
  for (let i = 0; i < 5; i++) await measuredRun();

  log(`${SEQUENTIAL} sequential runs of the plan scenario...`);
  const sequential: Measured[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const before = scripted.requests.length;
    const run = await measuredRun();
    run.modelMs = scripted.requests.slice(before).reduce((sum, r) => sum + r.ms, 0);
    sequential.push(run);
    if ((i + 1) % 25 === 0) log(`  ${i + 1}/${SEQUENTIAL}`);
  }

  log(`${CONCURRENT} concurrent runs...`);
  const startedAll = performance.now();
  const concurrent = await Promise.all(Array.from({ length: CONCURRENT }, () => measuredRun()));
  const concurrentMs = performance.now() - startedAll;

  log(`${CANCELS} cancels of a running scan_files tool...`);
  const cancelLatency: number[] = [];
  for (let i = 0; i < CANCELS; i++) {
    const { runId } = await agents.startRun({ goal: 'Scan the workspace.', model: 'scripted:slow-scan', workspace });
    const scan = await waitFor(() => scans.get(`${runId}:t1.1`));
    // Cancel at a varying point of the scan, so heartbeat phase does not flatter the figure.
    await new Promise((r) => setTimeout(r, 200 + ((i * 37) % 300)));
    const requested = performance.now();
    await agents.cancelRun(runId, 'bench');
    const aborted = await waitFor(() => scan.abortedAt);
    cancelLatency.push(aborted - requested);
    await agents.result(runId);
  }

  const historyRows: (string | number)[][] = [];
  for (const turns of HISTORY_TURNS) {
    log(`history size: a ${turns}-turn run reading ${TOOL_OUTPUT_BYTES} bytes per turn...`);
    const before = scripted.requests.length;
    const started = performance.now();
    const { runId } = await agents.startRun({
      goal: `Please read ${turns} files.`,
      model: 'scripted:read-many',
      tools: ['read_file'],
      workspace,
      limits: { maxTurns: turns + 1, maxBudgetUsd: 1e6 },
    });
    const result = await agents.result(runId);
    if (result.status !== 'completed') throw new Error(`history run ended ${result.status}: ${result.error}`);
    const weight = await historyWeight(temporal, runId);
    // What the same run would have put in history had every model call carried the whole transcript.
    const wholeTranscript = scripted.requests.slice(before).reduce((sum, r) => sum + JSON.stringify(r.messages).length, 0);
    historyRows.push([
      result.turns,
      weight.executions,
      weight.events.toLocaleString('en-US'),
      mib(weight.bytes),
      `${Math.round(weight.bytes / result.turns / 1024)} KiB`,
      `${Math.round(weight.largestEventBytes / 1024)} KiB`,
      mib(wholeTranscript),
      `${((performance.now() - started) / 1000).toFixed(1)} s`,
    ]);
  }

  // Temporal's floor: a bare workflow with as many activity round trips as a plan run has steps (5).
  log('Temporal floor: a bare workflow with 5 no-op activities...');
  const floorQueue = `${taskQueue}-floor`;
  const floorWorker = await Worker.create({
    connection,
    taskQueue: floorQueue,
    workflowBundle: await bundleWorkflowCode({ workflowsPath: path.join(PROJECT_ROOT, 'workflows', 'bench-floor.ts'), logger: silentLogger }),
    activities: { noop: async () => {} },
  });
  const floor: number[] = [];
  await floorWorker.runUntil(async () => {
    for (let i = 0; i < 5 + SEQUENTIAL; i++) {
      const started = performance.now();
      await temporal.workflow.execute('floorWorkflow', { taskQueue: floorQueue, workflowId: `floor-${Date.now()}-${i}`, args: [5] });
      if (i >= 5) floor.push(performance.now() - started);
    }
  });

  const wall = sequential.map((r) => r.wallMs);
  const overheadPerTurn = sequential.map((r) => (r.wallMs - r.modelMs - r.toolMs) / r.turns);
  const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
  console.log(`\nplan scenario, embedded Temporal dev server (${address}), scripted model over HTTP\n`);
  console.log(
    table(
      ['measure', 'median', 'p95', 'runs'],
      [
        ['wall time per run', fmt(median(wall)), fmt(p95(wall)), sequential.length],
        ['harness overhead per turn', fmt(median(overheadPerTurn)), fmt(p95(overheadPerTurn)), sequential.length],
        ['model server time per run', fmt(median(sequential.map((r) => r.modelMs))), fmt(p95(sequential.map((r) => r.modelMs))), sequential.length],
        ['tool time per run', fmt(median(sequential.map((r) => r.toolMs))), fmt(p95(sequential.map((r) => r.toolMs))), sequential.length],
        [`wall time per run, ${CONCURRENT} at once`, fmt(median(concurrent.map((r) => r.wallMs))), fmt(p95(concurrent.map((r) => r.wallMs))), CONCURRENT],
        ['bare workflow, 5 no-op activities', fmt(median(floor)), fmt(p95(floor)), floor.length],
        ['cancel request → tool signal aborted', fmt(median(cancelLatency)), fmt(p95(cancelLatency)), CANCELS],
      ],
    ),
  );
  console.log(`\nhistory size, ${TOOL_OUTPUT_BYTES} B tool output per turn (all executions of the run; continue-as-new when Temporal suggests it)\n`);
  console.log(
    table(['turns', 'executions', 'events', 'history', 'per turn', 'largest event', 'whole-transcript design', 'run time'], historyRows),
  );
  console.log(`\nthroughput: ${CONCURRENT} concurrent runs in ${fmt(concurrentMs)} = ${(CONCURRENT / (concurrentMs / 1000)).toFixed(1)} runs/s`);
} finally {
  worker.shutdown();
  await running;
  await scripted.close();
  await connection.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
