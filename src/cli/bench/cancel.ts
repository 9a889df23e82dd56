/**
 * Cancel latency, from `cancelRun()` being called to (a) the running tool's AbortSignal firing and (b) the
 * model's HTTP request being closed, as seen by the scripted model server. An activity hears the cancel
 * where `cancelRun` announces it, the run's event stream (`activities/heartbeats.ts`); from a client
 * without the store, where the workflow announces it, one workflow task later; so both are measured, and
 * the heartbeat cadence too (Temporal's own path, when the store cannot be reached): heartbeat RPCs per
 * running activity per second (Core's own request counter), and the Temporal server's CPU meanwhile. A
 * model call made as a local activity holds its workflow's task: without the store it asks Temporal.
 */
import { AgentClient } from '../../client/client.ts';
import type { ModelCall } from '../../wire/run-input.ts';
import { median } from './stats.ts';
import type { CoreMetrics } from './metrics.ts';
import { log, serverCpuMs, sleep, SLOW_MODEL, waitFor, type BenchEnv } from './env.ts';

export interface CancelResult {
  /** cancel request → tool signal aborted, ms. */
  toolMs: number[];
  /** The same, cancelled by a client without the store (the workflow announces it). */
  toolWithoutStoreMs: number[];
  /** How long cancelRun() itself took (its RPCs: the reason signal, then the cancel request), tool runs. */
  clientMs: number[];
  /** cancel request → model HTTP request closed, ms. */
  modelMs: number[];
  /** The same, cancelled by a client without the store (the workflow announces it). */
  modelWithoutStoreMs: number[];
  /** The same for a model call made as a local activity (the cancel reaches it through the store). */
  localModelMs: number[];
  /** The same, cancelled by a client without the store (the call asks Temporal every second). */
  localWithoutStoreMs: number[];
  heartbeats: {
    /** RecordActivityTaskHeartbeat calls per second of a running scan_files tool. */
    perToolSecond: number;
    /** The same while a model call waits for its reply. */
    perModelSecond: number;
    /** DescribeWorkflowExecution calls per second of a local model call waiting for its reply (it asks whether its run was cancelled). */
    describesPerLocalModelSecond: number;
    /** Temporal server CPU while `concurrentTools` tools ran, minus the same time idle, per tool-second (null: external server). */
    serverCpuMsPerToolSecond: number | null;
    concurrentTools: number;
  };
}

/** The varying moment of the cancel (ms after the activity started), over a whole second: heartbeat phase cannot flatter the figure. */
const cancelAfter = (i: number) => 100 + ((i * 137) % 1000);

export async function benchCancel(env: BenchEnv, metrics: CoreMetrics, o: { cancels: number; withoutStore: number }): Promise<CancelResult> {
  // A client without the store: an activity hears the cancel from the workflow, a local call by asking Temporal (every second).
  const plainClient = new AgentClient(env.temporal, { taskQueue: env.taskQueue, workspaceRoots: [env.workspace] });
  const { toolMs, clientMs } = await cancelTools(env, env.agents, o.cancels);
  const toolWithoutStoreMs = (await cancelTools(env, plainClient, o.withoutStore)).toolMs;
  const modelMs = await cancelModelCalls(env, env.agents, o.cancels, 'activity');
  const modelWithoutStoreMs = await cancelModelCalls(env, plainClient, o.withoutStore, 'activity');
  const localModelMs = await cancelModelCalls(env, env.agents, o.cancels, 'local');
  const localWithoutStoreMs = await cancelModelCalls(env, plainClient, o.withoutStore, 'local');

  log('cancel: heartbeat RPCs of running activities...');
  const rpcsDuring = async (operation: string, work: () => Promise<number>) => {
    const before = await metrics.requests(operation);
    const activitySeconds = await work();
    return ((await metrics.requests(operation)) - before) / activitySeconds;
  };
  const heartbeatsDuring = (work: () => Promise<number>) => rpcsDuring('RecordActivityTaskHeartbeat', work);
  const scanRun = async () => {
    const { runId } = await env.agents.startRun({ goal: 'Scan the workspace.', model: 'scripted:slow-scan', workspace: env.workspace });
    await env.agents.result(runId);
    const scan = env.scans.get(`${runId}:t1.1`)!;
    return (scan.endedAt! - scan.startedAt) / 1000;
  };
  const perToolSecond = await heartbeatsDuring(async () => (await scanRun()) + (await scanRun()));
  const slowModelRun = (modelCall: ModelCall) => async () => {
    const goal = `Answer after 3000 ms (${modelCall}).`;
    const before = env.scripted.requests.length;
    await env.agents.result((await env.agents.startRun({ goal, model: SLOW_MODEL, workspace: env.workspace, modelCall })).runId);
    return env.scripted.requests.slice(before).reduce((sum, r) => sum + r.ms, 0) / 1000;
  };
  const perModelSecond = await heartbeatsDuring(slowModelRun('activity'));
  // A local call sends no heartbeats; it asks Temporal whether its run was cancelled (a describe) instead.
  const describesPerLocalModelSecond = await rpcsDuring('DescribeWorkflowExecution', slowModelRun('local'));

  // Server CPU: N tools heartbeating at once, against the same wall time idle.
  const concurrentTools = 10;
  let serverCpuMsPerToolSecond: number | null = null;
  const idleFrom = serverCpuMs();
  if (idleFrom !== null) {
    const idleStarted = performance.now();
    await sleep(3000);
    const idleMsPerSecond = (serverCpuMs()! - idleFrom) / ((performance.now() - idleStarted) / 1000);
    const busyFrom = serverCpuMs()!;
    const busyStarted = performance.now();
    const toolSeconds = (await Promise.all(Array.from({ length: concurrentTools }, scanRun))).reduce((a, b) => a + b, 0);
    const busySeconds = (performance.now() - busyStarted) / 1000;
    const busyCpu = serverCpuMs()! - busyFrom;
    serverCpuMsPerToolSecond = (busyCpu - idleMsPerSecond * busySeconds) / toolSeconds;
  }
  log(`  median tool cancel ${median(toolMs).toFixed(1)} ms, model cancel ${median(modelMs).toFixed(1)} ms (local: ${median(localModelMs).toFixed(1)} ms)`);
  return {
    toolMs,
    toolWithoutStoreMs,
    clientMs,
    modelMs,
    modelWithoutStoreMs,
    localModelMs,
    localWithoutStoreMs,
    heartbeats: { perToolSecond, perModelSecond, describesPerLocalModelSecond, serverCpuMsPerToolSecond, concurrentTools },
  };
}

/** Cancels of a running scan_files tool, through `agents`: cancel request → the tool's signal aborted; and how long cancelRun took. */
async function cancelTools(env: BenchEnv, agents: AgentClient, cancels: number): Promise<{ toolMs: number[]; clientMs: number[] }> {
  log(`cancel: ${cancels} cancels of a running scan_files tool${agents === env.agents ? '' : ', client without the store'}...`);
  const toolMs: number[] = [];
  const clientMs: number[] = [];
  for (let i = 0; i < cancels; i++) {
    const { runId } = await agents.startRun({ goal: 'Scan the workspace.', model: 'scripted:slow-scan', workspace: env.workspace });
    const scan = await waitFor(() => env.scans.get(`${runId}:t1.1`), 'the scan to start');
    await sleep(cancelAfter(i));
    const requested = performance.now();
    await agents.cancelRun(runId, 'bench');
    clientMs.push(performance.now() - requested);
    const aborted = await waitFor(() => scan.abortedAt, 'the scan to see its signal abort');
    toolMs.push(aborted - requested);
    await agents.result(runId);
  }
  return { toolMs, clientMs };
}

/** Cancels of a model call waiting for its reply, through `agents`: cancel request → the HTTP request closed. */
async function cancelModelCalls(env: BenchEnv, agents: AgentClient, cancels: number, modelCall: ModelCall): Promise<number[]> {
  log(`cancel: ${cancels} cancels of a model call (${modelCall}${agents === env.agents ? '' : ', client without the store'}) waiting for its reply...`);
  const closedMs: number[] = [];
  for (let i = 0; i < cancels; i++) {
    const goal = `Answer after 30000 ms (cancel ${i}, ${modelCall}, ${agents === env.agents ? 'store' : 'plain'}).`;
    const { runId } = await agents.startRun({ goal, model: SLOW_MODEL, workspace: env.workspace, modelCall });
    const request = await waitFor(() => env.scripted.requests.find((r) => r.scenario === SLOW_MODEL.slice('scripted:'.length) && r.messages.some((m) => m.content === goal)), 'the model request');
    await sleep(cancelAfter(i));
    const requested = Date.now();
    await agents.cancelRun(runId, 'bench');
    // The server records how long the request had been open when its connection closed.
    await waitFor(() => (request.aborted ? true : undefined), 'the model request to be aborted');
    closedMs.push(request.startedAt + request.ms - requested);
    await agents.result(runId);
  }
  return closedMs;
}
