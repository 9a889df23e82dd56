/**
 * The package as a user gets it: `npm pack` (its `prepack` builds dist/), a real `npm install` of the
 * tarball into a copy of examples/custom-agent in a temporary directory outside the repository, and that
 * project run on Node 22 against the test run's Temporal server: its types checked against the published
 * declarations, `/client` loading no worker code, a run on the built-in tools, and the example itself.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { Client, Connection } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import ts from 'typescript';
import { PROJECT_ROOT } from '../src/paths.ts';
import { openStore } from '../src/store/open-store.ts';
import { freeDevServerPort, startDevServer, type TemporalEndpoint } from '../src/temporal/temporal-server.ts';
import { quietTemporalLogs } from '../src/worker/temporal-logs.ts';
import { workflowBundle } from '../src/worker/workflow-bundle.ts';
import { activities, collectHistories } from './helpers/histories.ts';

const EXAMPLE = path.join(PROJECT_ROOT, 'examples', 'custom-agent');
/** Node 22 and npm run on it: this repository's pinned `node` first on PATH (npm's own shebang finds it there). */
const env = { ...process.env, PATH: `${path.join(PROJECT_ROOT, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}` };

let tmp: string;
let app: string;
let installed: string;
let tarball: { filename: string; size: number; unpackedSize: number; files: { path: string }[] };
let ownServer: TemporalEndpoint | null = null;
let address: string;
let temporal: Client;
const taskQueue = `test-package-${Date.now().toString(36)}`;
const runIds: string[] = [];
/** How long packing and installing took, reported by the first test. */
const timings: string[] = [];

before(
  async () => {
    quietTemporalLogs();
    tmp = mkdtempSync(path.join(tmpdir(), 'agent-package-'));
    assert.ok(path.relative(PROJECT_ROOT, tmp).startsWith('..'), `${tmp} is outside the repository`);
    address = process.env.TEMPORAL_ADDRESS ?? (ownServer = await startDevServer({ dataDir: path.join(tmp, 'temporal'), port: await freeDevServerPort() })).address;
    temporal = new Client({ connection: await Connection.connect({ address }) });

    let started = Date.now();
    const packed = await run('npm', ['pack', '--pack-destination', tmp, '--json'], PROJECT_ROOT);
    assert.equal(packed.code, 0, packed.stderr);
    tarball = (JSON.parse(packed.stdout) as (typeof tarball)[])[0]!;
    timings.push(`npm pack (with its build) ${seconds(started)}: ${tarball.filename} ${kB(tarball.size)} packed, ${kB(tarball.unpackedSize)} unpacked, ${tarball.files.length} files`);

    app = path.join(tmp, 'custom-agent');
    cpSync(EXAMPLE, app, { recursive: true, filter: (from) => !/(^|\/)(node_modules|\.data|\.cache|refunds\.json)$/.test(path.relative(EXAMPLE, from)) });
    started = Date.now();
    const install = await run('npm', ['install', path.join(tmp, tarball.filename), '--prefer-offline', '--no-audit', '--no-fund'], app);
    assert.equal(install.code, 0, install.stderr);
    timings.push(`npm install of the tarball and the example's dependencies ${seconds(started)}`);
    installed = path.join(app, 'node_modules', 'durable-agent-harness');
  },
  { timeout: 600_000 },
);

after(async () => {
  await temporal?.connection.close();
  await ownServer?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

test('the tarball holds the compiled package, its licence and docs, and no test, fixture, source or cache file', (t) => {
  for (const line of timings) t.diagnostic(line);
  const files = tarball.files.map((f) => f.path);
  const allowed = /^(LICENSE|README\.md|CHANGELOG\.md|package\.json|examples\/workspace\/[\w.-]+|dist\/(workflows|activities|src)\/[\w./-]+\.(js|d\.ts|html|css|sql))$/;
  assert.deepEqual(files.filter((f) => !allowed.test(f)), [], 'files outside what the package ships');
  assert.deepEqual(files.filter((f) => /(^|\/)(test|tests|fixtures|scenarios\/.*\.test|\.cache|\.data|bench|eval)(\/|$)|\.test\.|tsbuildinfo|\.ts$(?<!\.d\.ts)/.test(f)), []);
  for (const file of ['LICENSE', 'CHANGELOG.md', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/exports/client.js', 'dist/workflows/index.js', 'dist/workflows/zod-preload.js', 'dist/src/cli/cli.js', 'dist/src/http/ui/inbox.html', 'dist/src/store/migrations/postgres/001_init.sql']) {
    assert.ok(files.includes(file), `${file} is in the tarball`);
  }
  const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as { private?: boolean; license?: string; engines?: { node?: string } };
  assert.equal(manifest.private, undefined);
  assert.equal(manifest.license, 'MIT');
  assert.match(manifest.engines?.node ?? '', /^>=22\./);
});

test("docs/custom-agent.md (\"Build your own agent\") shows the example's tools and agent as written", () => {
  const readme = readFileSync(path.join(PROJECT_ROOT, 'docs', 'custom-agent.md'), 'utf8');
  for (const file of ['tools.ts', 'agent.ts']) {
    const source = readFileSync(path.join(EXAMPLE, 'src', file), 'utf8');
    assert.ok(readme.includes(source.slice(source.indexOf('import ')).trimEnd()), `docs/custom-agent.md shows examples/custom-agent/src/${file} from its imports on`);
  }
});

test('every export of every entry point has TSDoc in the published declarations', () => {
  const entries = ['index', 'exports/client', 'exports/http', 'exports/testing'].map((e) => path.join(installed, 'dist', 'src', `${e}.d.ts`));
  const program = ts.createProgram(entries, { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2023, types: [], noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  for (const entry of entries) {
    const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(entry)!)!);
    assert.ok(exports.length > 0, `${entry} exports something`);
    const undocumented = exports.filter((e) => !ts.displayPartsToString((e.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(e) : e).getDocumentationComment(checker)).trim());
    assert.deepEqual(undocumented.map((e) => e.name), [], `exports of ${path.relative(installed, entry)} without TSDoc`);
  }
});

test("the example typechecks against the installed package's declarations, which themselves have no error", async () => {
  // skipLibCheck off: the package's .d.ts are checked too (other packages' own errors are theirs).
  const tsc = await run(process.execPath, [path.join(app, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', app, '--skipLibCheck', 'false', '--pretty', 'false'], app);
  assert.ok(tsc.code === 0 || /error TS/.test(tsc.stdout), `tsc: ${tsc.stderr}`);
  const errors = tsc.stdout.split('\n').filter((line) => /error TS\d+/.test(line) && !/^node_modules\/(?!durable-agent-harness\/)/.test(line));
  assert.deepEqual(errors, []);
});

test('durable-agent-harness/client loads no worker code; the root loads the worker', async () => {
  const preload = path.join(PROJECT_ROOT, 'test', 'fixtures', 'report-loaded-packages.ts');
  const loaded = async (specifier: string) => {
    const { code, stderr } = await run(process.execPath, ['--import', preload, '--input-type=module', '-e', `await import(${JSON.stringify(specifier)});`], app);
    assert.equal(code, 0, stderr);
    return /loaded packages: (.*)/.exec(stderr)?.[1]?.split(' ') ?? [];
  };
  const client = await loaded('durable-agent-harness/client');
  assert.ok(client.includes('@temporalio/client'), client.join(' '));
  assert.deepEqual(client.filter((p) => /^(@temporalio\/(worker|core-bridge|activity)|openai|@swc\/.*|@modelcontextprotocol\/.*|fastify)$/.test(p)), []);
  assert.ok((await loaded('durable-agent-harness')).includes('@temporalio/worker'));
});

test("the package's bin is the CLI", async () => {
  const { code, stdout } = await run(path.join(app, 'node_modules', '.bin', 'durable-agent-harness'), ['--help'], app);
  assert.equal(code, 0);
  assert.match(stdout, /^usage: npx durable-agent-harness <command>/);
});

test('a run on the built-in tools through the installed package: the workflow bundle is built from dist/, and data and caches stay out of node_modules', { timeout: 180_000 }, async () => {
  cpSync(path.join(PROJECT_ROOT, 'examples', 'workspace'), path.join(app, 'workspace'), { recursive: true });
  writeFileSync(path.join(app, 'builtin-tools.ts'), BUILTIN_TOOLS_SCRIPT);
  const { code, stdout, stderr } = await run(process.execPath, ['builtin-tools.ts'], app, { TEMPORAL_ADDRESS: address, AGENT_TASK_QUEUE: taskQueue });
  assert.equal(code, 0, stderr);
  const [runId, answer] = stdout.trim().split('\n');
  runIds.push(runId!);
  assert.equal(answer, 'completed: errors.log mentions a timeout: worker 7 timed out after 30000 ms.');
  assert.ok(readdirSync(path.join(app, '.cache')).some((f) => /^workflow-bundle-\w+\.js$/.test(f)), 'the bundle is cached in the working directory');
  assert.ok(existsSync(path.join(app, '.data', 'agent-store.sqlite')), 'the store is in the working directory');
  assert.deepEqual(readdirSync(installed).sort(), ['CHANGELOG.md', 'LICENSE', 'README.md', 'dist', 'examples', 'package.json'], 'nothing was written into the package');
});

test("the custom agent: a run of the example's agent, lookup_order runs, refund_order waits for approval and runs exactly once after it, and the answer is printed", { timeout: 180_000 }, async () => {
  const dataDir = path.join(app, '.data');
  const { code, stdout, stderr } = await run(process.execPath, ['src/main.ts'], app, { TEMPORAL_ADDRESS: address, AGENT_TASK_QUEUE: taskQueue, AGENT_DATA_DIR: dataDir });
  assert.equal(code, 0, `${stdout}\n${stderr}`);
  const runId = /^run (\S+) started$/m.exec(stdout)?.[1];
  assert.ok(runId, stdout);
  runIds.push(runId);
  assert.match(stdout, /^approval needed: refund_order \{"orderId":"A-1001","amountUsd":129\.5,"reason":"arrived broken"\} \(risk high\)$/m);
  assert.match(stdout, /^completed: Refunded \$129\.5 on order A-1001\. The customer gets the money back in a few days\.$/m);

  const refunds = JSON.parse(readFileSync(path.join(app, 'shop', 'refunds.json'), 'utf8')) as Record<string, { orderId: string; amountUsd: number }>;
  assert.deepEqual(Object.entries(refunds).map(([key, r]) => [key, r.orderId, r.amountUsd]), [[`${runId}:t2.1`, 'A-1001', 129.5]], 'one refund, under its call idempotency key');
  const store = await openStore({ dataDir });
  try {
    const trace = await store.readTrace(runId);
    const refund = trace.filter((l) => 'toolName' in l && l.toolName === 'refund_order').map((l) => l.type);
    assert.deepEqual(refund, ['approval_required', 'approval_decided', 'tool_start', 'tool_result'], 'asked, approved, then run once');
    assert.ok(trace.some((l) => l.type === 'tool_result' && l.toolName === 'lookup_order' && l.ok));
  } finally {
    await store.close();
  }
  const history = await temporal.workflow.getHandle(runId).fetchHistory();
  const refundRuns = activities(history, 'runTool').filter((a) => (a.input as { toolName?: string }).toolName === 'refund_order');
  assert.deepEqual(refundRuns.map((a) => [a.attempt, a.closedAs]), [[1, 'Completed']], 'one refund activity, one attempt');
});

test("the installed package's runs replay on the workflow code from the sources", { timeout: 120_000 }, async () => {
  assert.ok(runIds.length > 0, 'a run went through the installed package');
  const all = await collectHistories(temporal, taskQueue, runIds);
  const results = Worker.runReplayHistories(
    { workflowBundle: await workflowBundle(), sinks: { trace: { emit: { fn: () => {}, callDuringReplay: false } } } },
    all.map(({ workflowId, history }) => ({ workflowId, history })),
  );
  for await (const result of results) assert.equal(result.error, undefined, `${result.workflowId}: ${result.error?.message}`);
});

/** A consumer's script on the built-in tools and the built-in `plan` scenario: prints the run id, then the outcome. */
const BUILTIN_TOOLS_SCRIPT = `
import path from 'node:path';
import { Client } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { AgentClient, createAgentWorker } from 'durable-agent-harness';

Runtime.install({ logger: new DefaultLogger('WARN') });
const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS });
const taskQueue = process.env.AGENT_TASK_QUEUE;
const worker = await createAgentWorker({ connection, taskQueue, dataDir: path.resolve('.data'), workspace: path.resolve('workspace'), scriptedModel: { scenarioDirs: [] } });
const running = worker.run();
try {
  const agents = new AgentClient(new Client({ connection }), { taskQueue });
  const { runId } = await agents.startRun({ goal: 'Which log file mentions a timeout?', model: 'scripted:plan' });
  console.log(runId);
  const result = await agents.result(runId);
  console.log(\`\${result.status}: \${result.output}\`);
} finally {
  worker.shutdown();
  await running;
  await connection.close();
}
`;

function run(command: string, args: string[], cwd: string, extraEnv: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
