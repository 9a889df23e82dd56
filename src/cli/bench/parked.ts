/**
 * Parked runs: N runs waiting for an approval in a worker process of their own (the production
 * `src/cli/cli.ts worker`), its resident memory idle, as they park and a few seconds later; then how long a
 * decision takes to resume a run: `approve` (a Workflow Update, answered once the run has taken the
 * decision: the worker must hold or rebuild the run) and approve → run completed (the tool runs, one
 * more model turn). The resumed runs are spread over the parked set, oldest first, so runs a small
 * workflow cache has evicted are among them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AgentClient } from '../../client/client.ts';
import { PROJECT_ROOT } from '../../paths.ts';
import { openStore } from '../../store/open-store.ts';
import type { AgentStore } from '../../store/store.ts';
import { log, sleep, type BenchEnv } from './env.ts';

export interface ParkedResult {
  runs: number;
  /** Worker options given to the worker process on top of the production ones (`--worker-options`). */
  workerOptions: Record<string, unknown>;
  nodeArgs: string[];
  parkSeconds: number;
  rss: { idleMiB: number; parkedMiB: number; settledMiB: number; peakMiB: number; settleSeconds: number };
  /** approve() → the Update's answer, ms. */
  approveMs: number[];
  /** approve() → run completed, ms. */
  resumeToEndMs: number[];
}

const GOAL = 'Free some disk space';
const PARK_CONCURRENCY = 50;

export interface ParkedOptions {
  runs: number;
  resumeSamples: number;
  settleSeconds: number;
  /** Temporal WorkerOptions over the production ones (`--worker-options`). */
  workerOptions: Record<string, unknown>;
  /** Node.js flags for the worker process (`--worker-node-args=--max-old-space-size=256`). */
  nodeArgs: string[];
}

export async function benchParked(env: BenchEnv, o: ParkedOptions): Promise<ParkedResult> {
  log(`parked: a worker process of its own, ${o.runs} runs parked on an approval...`);
  const taskQueue = `${env.taskQueue}-parked`;
  const worker = await spawnWorker(env, taskQueue, o.workerOptions, o.nodeArgs);
  try {
    const agents = new AgentClient(env.temporal, { taskQueue, workspaceRoots: [env.workspace] });
    const input = { goal: GOAL, model: 'scripted:delete-approval', workspace: env.workspace };
    // One run first: idle memory after the worker has loaded everything once, and the pending call (the same in every run).
    const first = await agents.startRun(input);
    const pending = await waitingApproval(agents, first.runId);
    await agents.approve(first.runId, { callKey: pending.callKey, argsHash: pending.argsHash });
    await agents.result(first.runId);
    await sleep(1000);
    const idle = rssMiB(worker.pid!);

    // Parked = its approval_required trace line is in the worker's store (polling the store, not the worker).
    const store = await openStore({ dataDir: worker.dataDir });
    const started = performance.now();
    const runIds: string[] = [];
    let next = 0;
    try {
      await Promise.all(
        Array.from({ length: Math.min(PARK_CONCURRENCY, o.runs) }, async () => {
          while (next < o.runs) {
            next++;
            const { runId } = await agents.startRun(input);
            await parkedInStore(store, runId);
            runIds.push(runId);
          }
        }),
      );
    } finally {
      await store.close();
    }
    const parkSeconds = (performance.now() - started) / 1000;
    const parked = rssMiB(worker.pid!);
    let peak = parked;
    for (let t = 0; t < o.settleSeconds * 2; t++) {
      await sleep(500);
      peak = Math.max(peak, rssMiB(worker.pid!));
    }
    const settled = rssMiB(worker.pid!);
    log(`  worker RSS idle ${idle.toFixed(0)} MiB, ${o.runs} parked ${parked.toFixed(0)} MiB, ${o.settleSeconds} s later ${settled.toFixed(0)} MiB`);

    log(`parked: resuming ${Math.min(o.resumeSamples, runIds.length)} of them one by one, then the rest...`);
    const samples = Math.min(o.resumeSamples, runIds.length);
    const step = runIds.length / samples;
    const sampled = new Set(Array.from({ length: samples }, (_, i) => Math.floor(i * step)));
    const approveMs: number[] = [];
    const resumeToEndMs: number[] = [];
    for (const index of sampled) {
      const runId = runIds[index]!;
      const t0 = performance.now();
      await agents.approve(runId, { callKey: pending.callKey, argsHash: pending.argsHash });
      approveMs.push(performance.now() - t0);
      const result = await agents.result(runId);
      resumeToEndMs.push(performance.now() - t0);
      if (result.status !== 'completed') throw new Error(`parked run ${runId} ended ${result.status}: ${result.error}`);
    }
    const rest = runIds.filter((_, i) => !sampled.has(i));
    await Promise.all(
      Array.from({ length: PARK_CONCURRENCY }, async () => {
        for (let runId = rest.pop(); runId; runId = rest.pop()) {
          await agents.approve(runId, { callKey: pending.callKey, argsHash: pending.argsHash });
          await agents.result(runId);
        }
      }),
    );
    return {
      runs: o.runs,
      workerOptions: o.workerOptions,
      nodeArgs: o.nodeArgs,
      parkSeconds,
      rss: { idleMiB: idle, parkedMiB: parked, settledMiB: settled, peakMiB: peak, settleSeconds: o.settleSeconds },
      approveMs,
      resumeToEndMs,
    };
  } finally {
    await worker.stop();
  }
}

async function parkedInStore(store: AgentStore, runId: string): Promise<void> {
  const deadline = performance.now() + 60_000;
  while (!(await store.readTrace(runId)).some((line) => line.type === 'approval_required')) {
    if (performance.now() > deadline) throw new Error(`parked run ${runId} did not park within a minute`);
    await sleep(50);
  }
}

async function waitingApproval(agents: AgentClient, runId: string) {
  for (let i = 0; ; i++) {
    const state = await agents.getState(runId);
    if (state.status === 'waiting_approval' && state.pending?.kind === 'approval') return state.pending;
    if (state.status !== 'running') throw new Error(`parked run ${runId} is ${state.status}, not waiting for approval`);
    if (i > 600) throw new Error(`parked run ${runId} did not park within a minute`);
    await sleep(100);
  }
}

interface WorkerChild {
  pid: number | undefined;
  dataDir: string;
  stop(): Promise<void>;
}

async function spawnWorker(env: BenchEnv, taskQueue: string, options: Record<string, unknown>, nodeArgs: string[]): Promise<WorkerChild> {
  const entry = Object.keys(options).length ? [path.join(PROJECT_ROOT, 'src', 'cli', 'bench', 'worker-with-options.ts')] : [path.join(PROJECT_ROOT, 'src', 'cli', 'cli.ts'), 'worker'];
  const dataDir = path.join(env.dataDir, 'parked-worker');
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, ...entry], {
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: env.address,
      AGENT_TASK_QUEUE: taskQueue,
      AGENT_DATA_DIR: dataDir,
      AGENT_WORKSPACE: env.workspace,
      AGENT_SCRIPTED_MODEL_URL: env.scripted.baseUrl,
      BENCH_WORKER_OPTIONS: JSON.stringify(options),
      TEMPORAL_LOG_LEVEL: 'ERROR',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-8000);
      if (stderr.includes('Worker polling task queue')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`bench worker exited (${code}) before polling: ${stderr}`)));
  });
  return {
    pid: child.pid,
    dataDir,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

function rssMiB(pid: number): number {
  const kib = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
  return kib / 1024;
}
