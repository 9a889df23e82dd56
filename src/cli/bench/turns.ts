/**
 * Turns: the plan scenario (3 model calls, 2 tool runs) run after run, next to Temporal's own floor on
 * the same server in the same process — a bare workflow with five activity round trips, and one with
 * none — so the harness's overhead per turn reads against one Temporal activity hop; and a bare workflow
 * with a plan run's own steps (activities and local activities as each model-call mode makes them), so
 * what the harness adds reads apart from what Temporal costs for the same round trips. Then
 * throughput: 50 plan runs at once, a few rounds, and as many of those bare workflows at once (what
 * Temporal and its SDK allow this machine with the plan run's steps and nothing in them). Plan runs are
 * measured for each way of calling the model (`modelCall`: an activity, the default, or a local activity).
 */
import path from 'node:path';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { median, p95 } from './stats.ts';
import type { ModelCall, RunInput } from '../../wire/run-input.ts';
import { BENCH_DIR, log, serverCpuMs, SLOW_MODEL, type BenchEnv } from './env.ts';
import type { FloorStep } from './floor-workflow.ts';

/** Plan runs with one way of calling the model. */
export interface PlanRuns {
  modelCall: ModelCall;
  turnsPerRun: number;
  wallMs: number[];
  /** (wall − time inside the model server − tool time) / turns, per run. */
  overheadPerTurnMs: number[];
  modelMs: number[];
  toolMs: number[];
  throughput: Throughput;
  /** Many runs calling a slow model at once: how many of their requests one worker keeps open together. */
  slowModel: { runs: number; modelMs: number; maxOpenRequests: number; wallMs: number };
  /** Temporal alone with this mode's steps (`PLAN_STEPS`), no-ops all: a bare workflow per sample. */
  sameStepsMs: number[];
  /** The same bare workflows, as many at once as the plan runs' throughput rounds: the ceiling for this mode's steps. */
  sameStepsThroughput: Throughput;
}

/** Rounds of runs started all at once. */
export interface Throughput {
  concurrent: number;
  rounds: { ms: number; runsPerSecond: number; p95RunMs: number }[];
  /** CPU time per run during the rounds: this process (client, worker, scripted model, store) and the Temporal server (null: external). */
  cpuPerRunMs: { bench: number; server: number | null };
}

/**
 * A plan run's round trips in each mode: three model calls, then after the first two a quick read-only
 * tool, which the harness runs as a local activity.
 */
export const PLAN_STEPS: Record<ModelCall, FloorStep[]> = {
  activity: ['activity', 'local', 'activity', 'local', 'activity'],
  local: ['local', 'local', 'local', 'local', 'local'],
};

export interface TurnsResult {
  runs: number;
  plans: PlanRuns[];
  /** A bare workflow with 5 no-op activities (a plan run's five steps), and with none. */
  floor5Ms: number[];
  floor0Ms: number[];
  /** One activity round trip: (median floor5 − median floor0) / 5. */
  hopMs: number;
}

const silentLogger = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

export async function benchTurns(env: BenchEnv, o: { runs: number; concurrent: number; rounds: number; modelCalls: readonly ModelCall[] }): Promise<TurnsResult> {
  const plans: Omit<PlanRuns, 'sameStepsMs' | 'sameStepsThroughput'>[] = [];
  for (const modelCall of o.modelCalls) plans.push(await benchPlanRuns(env, { ...o, modelCall }));
  const { floor5Ms, floor0Ms, sameSteps } = await benchFloor(env, o);
  return {
    runs: o.runs,
    plans: plans.map((p) => ({ ...p, ...sameSteps.get(p.modelCall)! })),
    floor5Ms,
    floor0Ms,
    hopMs: (median(floor5Ms) - median(floor0Ms)) / 5,
  };
}

async function benchPlanRuns(env: BenchEnv, o: { runs: number; concurrent: number; rounds: number; modelCall: ModelCall }): Promise<Omit<PlanRuns, 'sameStepsMs' | 'sameStepsThroughput'>> {
  const plan: RunInput = { goal: 'Which log file mentions a timeout?', model: 'scripted:plan', workspace: env.workspace, modelCall: o.modelCall };
  const planRun = async () => {
    const before = env.scripted.requests.length;
    const started = performance.now();
    const { runId } = await env.agents.startRun(plan);
    const result = await env.agents.result(runId);
    const wallMs = performance.now() - started;
    if (result.status !== 'completed') throw new Error(`bench run ${runId} ended ${result.status}: ${result.error}`);
    const trace = await env.store.readTrace(runId);
    const toolMs = trace.reduce((sum, line) => sum + (line.type === 'tool_result' ? line.ms : 0), 0);
    const modelMs = env.scripted.requests.slice(before).reduce((sum, r) => sum + r.ms, 0);
    return { wallMs, toolMs, modelMs, turns: result.turns };
  };

  log(`turns (model call: ${o.modelCall}): warming up...`);
  for (let i = 0; i < 5; i++) await planRun();
  log(`turns (model call: ${o.modelCall}): ${o.runs} plan runs, one after the other...`);
  const sequential = [];
  for (let i = 0; i < o.runs; i++) {
    // Sequential: the model time of this run is what the server recorded since it started.
    sequential.push(await planRun());
    if ((i + 1) % 50 === 0) log(`  ${i + 1}/${o.runs}`);
  }

  log(`throughput (model call: ${o.modelCall}): ${o.rounds} rounds of ${o.concurrent} plan runs at once...`);
  const throughput = await measureThroughput(o, async () => (await planRun()).wallMs);
  const slowModel = await benchSlowModelRuns(env, { runs: 80, modelMs: 3000, modelCall: o.modelCall });

  return {
    modelCall: o.modelCall,
    turnsPerRun: median(sequential.map((r) => r.turns)),
    wallMs: sequential.map((r) => r.wallMs),
    overheadPerTurnMs: sequential.map((r) => (r.wallMs - r.modelMs - r.toolMs) / r.turns),
    modelMs: sequential.map((r) => r.modelMs),
    toolMs: sequential.map((r) => r.toolMs),
    throughput,
    slowModel,
  };
}

/**
 * `runs` runs calling a model that answers after `modelMs`, all at once. A local model call holds its
 * workflow task, so one worker keeps at most about as many open as it has workflow-task slots.
 */
async function benchSlowModelRuns(env: BenchEnv, o: { runs: number; modelMs: number; modelCall: ModelCall }): Promise<PlanRuns['slowModel']> {
  log(`slow model (model call: ${o.modelCall}): ${o.runs} runs calling a ${o.modelMs} ms model at once...`);
  const before = env.scripted.requests.length;
  const started = performance.now();
  let maxOpenRequests = 0;
  const sampler = setInterval(() => {
    const open = env.scripted.requests.slice(before).filter((r) => r.ms === 0 && !r.aborted).length;
    maxOpenRequests = Math.max(maxOpenRequests, open);
  }, 20);
  try {
    const runIds = await Promise.all(
      Array.from({ length: o.runs }, (_, i) =>
        env.agents.startRun({ goal: `Answer after ${o.modelMs} ms (${o.modelCall} ${i}).`, model: SLOW_MODEL, workspace: env.workspace, modelCall: o.modelCall }).then((r) => r.runId),
      ),
    );
    await Promise.all(runIds.map((id) => env.agents.result(id)));
  } finally {
    clearInterval(sampler);
  }
  return { runs: o.runs, modelMs: o.modelMs, maxOpenRequests, wallMs: performance.now() - started };
}

/** `concurrent` runs at once, `rounds` times; `run` resolves to the run's own wall time. */
async function measureThroughput(o: { concurrent: number; rounds: number }, run: () => Promise<number>): Promise<Throughput> {
  const rounds = [];
  const cpuFrom = process.cpuUsage();
  const serverCpuFrom = serverCpuMs();
  for (let r = 0; r < o.rounds; r++) {
    const started = performance.now();
    const runMs = await Promise.all(Array.from({ length: o.concurrent }, run));
    const ms = performance.now() - started;
    rounds.push({ ms, runsPerSecond: o.concurrent / (ms / 1000), p95RunMs: p95(runMs) });
  }
  const cpu = process.cpuUsage(cpuFrom);
  const serverCpuTo = serverCpuMs();
  const runs = o.rounds * o.concurrent;
  return {
    concurrent: o.concurrent,
    rounds,
    cpuPerRunMs: {
      bench: (cpu.user + cpu.system) / 1000 / runs,
      server: serverCpuFrom === null || serverCpuTo === null ? null : (serverCpuTo - serverCpuFrom) / runs,
    },
  };
}

/**
 * Temporal's floor on the same server: bare workflows with 5 no-op activities, with none, and with each
 * model-call mode's plan steps, interleaved; then the plan steps' bare workflows as many at once as the
 * plan runs' throughput rounds.
 */
async function benchFloor(
  env: BenchEnv,
  o: { runs: number; concurrent: number; rounds: number; modelCalls: readonly ModelCall[] },
): Promise<{ floor5Ms: number[]; floor0Ms: number[]; sameSteps: Map<ModelCall, Pick<PlanRuns, 'sameStepsMs' | 'sameStepsThroughput'>> }> {
  const { runs, modelCalls } = o;
  log(`turns: Temporal's floor, bare workflows with 5 and with 0 no-op activities and with a plan run's steps, ${runs} each...`);
  const floorQueue = `${env.taskQueue}-floor`;
  const floorWorker = await Worker.create({
    connection: env.connection,
    taskQueue: floorQueue,
    workflowBundle: await bundleWorkflowCode({ workflowsPath: path.join(BENCH_DIR, 'floor-workflow.ts'), logger: silentLogger }),
    activities: { noop: async () => {} },
  });
  const floor5Ms: number[] = [];
  const floor0Ms: number[] = [];
  const sameStepsMs = new Map(modelCalls.map((m) => [m, [] as number[]]));
  const sameStepsThroughput = new Map<ModelCall, Throughput>();
  let n = 0;
  await floorWorker.runUntil(async () => {
    const floorRun = async (steps: FloorStep[]) => {
      const started = performance.now();
      await env.temporal.workflow.execute('floorWorkflow', { taskQueue: floorQueue, workflowId: `floor-${Date.now()}-${n++}`, args: [steps] });
      return performance.now() - started;
    };
    const five: FloorStep[] = ['activity', 'activity', 'activity', 'activity', 'activity'];
    for (let i = 0; i < 5; i++) await floorRun(five);
    // Interleaved, so all see the same moments of a noisy machine.
    for (let i = 0; i < runs; i++) {
      floor5Ms.push(await floorRun(five));
      floor0Ms.push(await floorRun([]));
      for (const [modelCall, samples] of sameStepsMs) samples.push(await floorRun(PLAN_STEPS[modelCall]));
    }
    for (const modelCall of modelCalls) {
      log(`throughput: Temporal alone with a plan run's steps (model call: ${modelCall}), ${o.rounds} rounds of ${o.concurrent} at once...`);
      sameStepsThroughput.set(modelCall, await measureThroughput(o, () => floorRun(PLAN_STEPS[modelCall])));
    }
  });
  return {
    floor5Ms,
    floor0Ms,
    sameSteps: new Map(modelCalls.map((m) => [m, { sameStepsMs: sameStepsMs.get(m)!, sameStepsThroughput: sameStepsThroughput.get(m)! }])),
  };
}
