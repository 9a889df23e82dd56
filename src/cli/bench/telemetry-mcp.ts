/**
 * Measures (prints, changes nothing): the per-turn cost of tracing on vs off, and an MCP tool call vs a
 * built-in one. `npx node src/cli/bench/telemetry-mcp.ts [runs]` on Node 22. Its own dev server, scripted
 * model, and workers on their own task queues; spans go over OTLP/HTTP to a local sink that answers 200.
 *
 *  - tracing: `scripted:plan` runs (3 model calls, 2 tools), alternating batches with a worker and client
 *    that trace and ones that do not; per turn = run wall time / 3.
 *  - tools: a 2-turn run with one call of `read_file` (built-in, local activity) and of the test MCP
 *    server's `weather` (stdio) as a local activity (timeout ≤ 10 s) and as a regular activity; the
 *    tool's own time is the `tool_result` ms the activity measured. The MCP server is the tests' own
 *    (test/mcp/server.ts): this section needs the repository, not only the Docker image.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { AgentClient } from '../../client/client.ts';
import { parseMcpConfig } from '../../mcp/config.ts';
import { PROJECT_ROOT } from '../../paths.ts';
import { quietTemporalLogs } from '../../worker/temporal-logs.ts';
import { startScriptedModelServer } from '../../scripted-model/server.ts';
import { openStore } from '../../store/open-store.ts';
import { tracingClientInterceptors } from '../../telemetry/client.ts';
import { setupTelemetry } from '../../telemetry/setup.ts';
import { freeDevServerPort, startDevServer } from '../../temporal/temporal-server.ts';
import { createAgentWorker } from '../../worker/worker.ts';
import type { RunInput } from '../../wire/run-input.ts';
import { table } from '../table.ts';
import { median, p95 } from './stats.ts';

const RUNS = Number(process.argv[2] ?? 40);
quietTemporalLogs();
const dataDir = mkdtempSync(path.join(tmpdir(), 'agent-measure-'));
const workspace = path.join(dataDir, 'workspace');
cpSync(path.join(PROJECT_ROOT, 'examples', 'workspace'), workspace, { recursive: true });

// An OTLP/HTTP collector stand-in: reads each export and answers 200.
let exportedBytes = 0;
let exports = 0;
const collector = createServer((req, res) => {
  req.on('data', (chunk: Buffer) => (exportedBytes += chunk.length));
  req.on('end', () => {
    exports++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
const port = (collector.address() as { port: number }).port;
process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${port}`;
const telemetry = setupTelemetry()!;

const server = await startDevServer({ dataDir, port: await freeDevServerPort() });
const connection = await NativeConnection.connect({ address: server.address });
const scripted = await startScriptedModelServer({ scenarioDirs: [] });
const store = await openStore({ dataDir });
/** The tests' MCP server (test/mcp/server.ts) over stdio, logging into the data directory as `name`. */
const stdioServer = (name: string, extra: Record<string, unknown>) => ({
  command: process.execPath,
  args: [path.join(PROJECT_ROOT, 'test', 'mcp', 'server.ts')],
  env: { MCP_TEST_DIR: dataDir, MCP_TEST_NAME: name },
  ...extra,
});
const mcp = parseMcpConfig({
  servers: {
    local: stdioServer('local', { tools: { weather: { risk: 'low', readOnly: true, timeoutMs: 10_000 } } }),
    remote: stdioServer('remote', { tools: { weather: { risk: 'low', readOnly: true, timeoutMs: 60_000 } } }),
  },
});

async function setup(name: string, traced: boolean) {
  const taskQueue = `measure-${name}-${Date.now().toString(36)}`;
  const worker = await createAgentWorker({ connection, taskQueue, dataDir, store, workspace, scriptedModel: { baseUrl: scripted.baseUrl }, workspaceRoots: [dataDir], mcp, telemetry: traced ? telemetry : null });
  const running = worker.run();
  const temporal = new Client({ connection, ...(traced ? { interceptors: tracingClientInterceptors(telemetry) } : {}) });
  const agents = new AgentClient(temporal, { taskQueue, workspaceRoots: [dataDir] });
  return {
    agents,
    async close() {
      worker.shutdown();
      await running;
    },
  };
}

type Setup = Awaited<ReturnType<typeof setup>>;

async function timeRun(agents: AgentClient, input: Omit<RunInput, 'workspace'>): Promise<{ ms: number; turns: number; toolMs: number | null }> {
  const started = performance.now();
  const { runId } = await agents.startRun({ ...input, workspace });
  const result = await agents.result(runId);
  const ms = performance.now() - started;
  if (result.status !== 'completed') throw new Error(`${input.model} ${input.goal}: ${result.status} ${result.error ?? ''}`);
  const toolResult = (await store.readTrace(runId)).find((l) => l.type === 'tool_result');
  return { ms, turns: result.turns, toolMs: toolResult?.type === 'tool_result' ? toolResult.ms : null };
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

// Tracing on vs off, in alternating batches of 5 (so drift hits both alike), after a warm-up each.
const off = await setup('off', false);
const on = await setup('on', true);
const plan = { goal: 'Which log file mentions a timeout?', model: 'scripted:plan' };
for (const s of [off, on]) for (let i = 0; i < 5; i++) await timeRun(s.agents, plan);
const perTurn: Record<'off' | 'on' | 'named', number[]> = { off: [], on: [], named: [] };
/** This process's CPU time (worker and client; the Temporal server is another process) per turn, by batch. */
const cpuPerTurn: Record<'off' | 'on' | 'named', number[]> = { off: [], on: [], named: [] };
for (let batch = 0; batch < RUNS / 5; batch++) {
  for (const [mode, s] of [['off', off], ['on', on], ['named', off]] as [keyof typeof perTurn, Setup][]) {
    const cpu = process.cpuUsage();
    let batchTurns = 0;
    for (let i = 0; i < 5; i++) {
      // `named`: the run names its tools, none of them MCP: no mcpTools activity, and 12 fewer tools offered to the model.
      const { ms, turns } = await timeRun(s.agents, mode === 'named' ? { ...plan, tools: ['list_files', 'read_file'] } : plan);
      perTurn[mode].push(ms / turns);
      batchTurns += turns;
    }
    if (mode === 'on') await telemetry.forceFlush(); // the batch's export counts against its batch
    const used = process.cpuUsage(cpu);
    cpuPerTurn[mode].push((used.user + used.system) / 1000 / batchTurns);
  }
}
await telemetry.forceFlush();

// Built-in vs MCP tool, tracing off.
const tools: [string, string][] = [
  ['read_file (built-in, local activity)', 'read_file {"path":"notes.txt"}'],
  ['local__weather (MCP stdio, local activity)', 'local__weather {"city":"Lisbon"}'],
  ['remote__weather (MCP stdio, activity)', 'remote__weather {"city":"Lisbon"}'],
];
const toolRows: (string | number)[][] = [];
for (const [label, step] of tools) {
  const input = { goal: `MCP: ${step}`, model: 'scripted:mcp-call' };
  for (let i = 0; i < 5; i++) await timeRun(off.agents, input);
  const walls: number[] = [];
  const toolMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await timeRun(off.agents, input);
    walls.push(r.ms);
    toolMs.push(r.toolMs ?? NaN);
  }
  toolRows.push([label, fmt(median(walls)), fmt(p95(walls)), fmt(median(toolMs)), fmt(p95(toolMs)), RUNS]);
}

console.log(`\nper-turn wall time, scripted:plan (3 turns, 2 tools), ${RUNS} runs each\n`);
console.log(
  table(
    ['tracing', 'median', 'p95', 'CPU per turn (median of batches)', 'runs'],
    (['off', 'on', 'named'] as const).map((mode) => [mode === 'named' ? 'off, run offers no MCP tool' : mode, fmt(median(perTurn[mode])), fmt(p95(perTurn[mode])), fmt(median(cpuPerTurn[mode])), perTurn[mode].length]),
  ),
);
console.log(
  `\ntracing cost per turn (median on − median off): ${fmt(median(perTurn.on) - median(perTurn.off))} wall, ${fmt(median(cpuPerTurn.on) - median(cpuPerTurn.off))} CPU; ` +
    `${exports} OTLP exports, ${(exportedBytes / 1024).toFixed(0)} KiB`,
);
console.log(`\none tool call in a 2-turn run (tracing off), ${RUNS} runs each\n`);
console.log(table(['tool', 'run median', 'run p95', 'tool median', 'tool p95', 'runs'], toolRows));

await off.close();
await on.close();
await telemetry.shutdown();
await store.close();
await scripted.close();
await connection.close();
await server.stop();
collector.close();
rmSync(dataDir, { recursive: true, force: true });
