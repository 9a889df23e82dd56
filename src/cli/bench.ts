/**
 * `npm run bench`: the harness's costs on one tuned embedded Temporal dev server (or TEMPORAL_ADDRESS)
 * with the scripted model, in one run, one section after another (src/cli/bench/*.ts):
 *   turns    plan runs next to Temporal's own activity hop, and throughput with 50 runs at once, for
 *            each way of calling the model (`--model-call activity,local`)
 *   cancel   cancel → tool signal aborted and → model HTTP request closed; heartbeat RPCs it costs
 *   parked   worker RSS with N runs waiting for approval, and resume latency after a decision
 *   history  history bytes per turn
 *   store    store cost per turn, SQLite and PostgreSQL
 *   replay   how fast a recording replays (no model to wait for), with and without a tool activity a turn
 *   context  tokens sent per turn and cost of a long run, with compaction (an 8k window) and without
 *   sse      live events: store → SSE client latency and concurrent clients (its own process)
 *   otel-mcp tracing on vs off per turn, MCP tool call vs built-in (its own process)
 *
 * Usage: `npm run bench -- --help` (USAGE below). `--worker-options` and `--worker-node-args`: the parked
 * runs' worker process with other Temporal worker options / Node.js flags than the production ones
 * (src/worker/node-args.ts).
 */
import { writeFileSync } from 'node:fs';
import { benchCancel } from './bench/cancel.ts';
import { openBenchEnv } from './bench/env.ts';
import { benchHistory } from './bench/history.ts';
import { installBenchRuntime } from './bench/metrics.ts';
import { benchParked } from './bench/parked.ts';
import { benchReplaySpeed } from './bench/replay-speed.ts';
import { benchContext } from './bench/context.ts';
import { jsonReport, renderReport, type BenchResults } from './bench/report.ts';
import { benchStoreCost } from './bench/store-cost.ts';
import { benchTurns } from './bench/turns.ts';
import { MODEL_CALLS, type ModelCall } from '../wire/run-input.ts';
import { CHILD_BENCHES, runChildBench, type ChildBench } from './bench/child-bench.ts';
import { WORKER_NODE_ARGS } from '../worker/node-args.ts';
import { countOption, exitOnSignals, parseCommandLine, usageExit } from './command-line.ts';

const SECTIONS = ['turns', 'cancel', 'parked', 'history', 'store', 'replay', 'context', ...(Object.keys(CHILD_BENCHES) as ChildBench[])] as const;
const USAGE = `npm run bench -- [--only ${SECTIONS.join(',')}] [--parked N] [--json file] [--model-call ${MODEL_CALLS.join(',')}]
                  [--worker-options '{"maxCachedWorkflows":100}'] [--worker-node-args=--max-old-space-size=256]
Sizes from the environment: BENCH_SEQUENTIAL (100), BENCH_CONCURRENT (50), BENCH_ROUNDS (3), BENCH_CANCELS (40),
BENCH_CANCELS_WITHOUT_STORE (10), BENCH_HISTORY_TURNS (50,100,200,500), BENCH_STORE_TURNS (200), BENCH_REPLAY_TURNS (20),
BENCH_CONTEXT_TURNS (300).`;

/** A bad command line: one line saying what is wrong, the usage, exit code 2 (nothing has started yet). */
const usageError = (message: string): never => usageExit('bench', USAGE, message);

const flags = parseCommandLine('bench', USAGE, {
  options: {
    parked: { type: 'string', default: '200' },
    json: { type: 'string' },
    only: { type: 'string', default: SECTIONS.join(',') },
    'model-call': { type: 'string', default: MODEL_CALLS.join(',') },
    'worker-options': { type: 'string', default: '{}' },
    // The production worker's flags unless told otherwise (`--worker-node-args=` for none).
    'worker-node-args': { type: 'string', default: WORKER_NODE_ARGS.join(' ') },
  },
}).values;
exitOnSignals();
const only = new Set(flags.only.split(','));
const unknown = [...only].filter((s) => !(SECTIONS as readonly string[]).includes(s));
if (unknown.length) usageError(`--only: unknown section(s) ${unknown.join(', ')}`);
const modelCalls = flags['model-call'].split(',') as ModelCall[];
const unknownCall = modelCalls.find((m) => !MODEL_CALLS.includes(m));
if (unknownCall) usageError(`--model-call: unknown mode ${unknownCall}`);
const parkedRuns = countOption('bench', USAGE, 'parked', flags.parked, 200);
const workerOptions = parseWorkerOptions(flags['worker-options']);
const size = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  return Number.isInteger(value) && value > 0 ? value : usageError(`${name}=${process.env[name]} is not a whole number above 0`);
};
// Read before anything starts: a bad size is a usage error, not a failure halfway through.
const sizes = {
  sequential: size('BENCH_SEQUENTIAL', 100),
  concurrent: size('BENCH_CONCURRENT', 50),
  rounds: size('BENCH_ROUNDS', 3),
  cancels: size('BENCH_CANCELS', 40),
  cancelsWithoutStore: size('BENCH_CANCELS_WITHOUT_STORE', 10),
  storeTurns: size('BENCH_STORE_TURNS', 200),
  replayTurns: size('BENCH_REPLAY_TURNS', 20),
  contextTurns: size('BENCH_CONTEXT_TURNS', 300),
};
const historyTurns = (process.env.BENCH_HISTORY_TURNS ?? '50,100,200,500').split(',').map(Number);
if (historyTurns.some((n) => !Number.isInteger(n) || n < 1)) usageError(`BENCH_HISTORY_TURNS=${process.env.BENCH_HISTORY_TURNS} is not a list of whole numbers`);

function parseWorkerOptions(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // said below
  }
  return usageError(`--worker-options: ${text} is not a JSON object of Temporal worker options`);
}

const metrics = await installBenchRuntime();
const env = await openBenchEnv({ bigFiles: Math.max(only.has('history') ? Math.max(...historyTurns) : 0, only.has('context') ? sizes.contextTurns : 0) });
const results: BenchResults = { address: env.address };
try {
  if (only.has('turns')) {
    results.turns = await benchTurns(env, { runs: sizes.sequential, concurrent: sizes.concurrent, rounds: sizes.rounds, modelCalls });
  }
  if (only.has('cancel')) results.cancel = await benchCancel(env, metrics, { cancels: sizes.cancels, withoutStore: sizes.cancelsWithoutStore });
  if (only.has('parked')) {
    results.parked = await benchParked(env, {
      runs: parkedRuns,
      resumeSamples: Math.min(parkedRuns, 100),
      settleSeconds: 5,
      workerOptions,
      nodeArgs: flags['worker-node-args'].split(' ').filter(Boolean),
    });
  }
  if (only.has('history')) results.history = await benchHistory(env, { turns: historyTurns });
  if (only.has('store')) results.store = await benchStoreCost(env, { turns: sizes.storeTurns });
  if (only.has('replay')) results.replay = await benchReplaySpeed(env, { turns: sizes.replayTurns });
  if (only.has('context')) results.context = await benchContext(env, { turns: sizes.contextTurns });
} finally {
  await env.close();
}
console.log(renderReport(results));
for (const name of Object.keys(CHILD_BENCHES) as ChildBench[]) if (only.has(name)) console.log(await runChildBench(name));
if (flags.json) {
  writeFileSync(flags.json, JSON.stringify(jsonReport(results), null, 2) + '\n');
  console.error(`\nJSON written to ${flags.json}`);
}
