/**
 * Worker "hosts" for the cluster tests: each one a separate `node` process with a data directory of its
 * own, as on a machine of its own. Hosts share nothing on disk that the harness keeps: they meet only
 * through Temporal and the store (AGENT_STORE_URL, PostgreSQL). Each host gets its own copy of the
 * example workspace unless a test hands several hosts one workspace — the tools' data, shared only where a
 * test must see one tool effect from both hosts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { spawnBoundToThisProcess } from '../../src/store/throwaway-postgres.ts';

export interface ClusterEndpoints {
  /** The Temporal frontend. */
  address: string;
  /** AGENT_STORE_URL: the shared store. */
  storeUrl: string;
  /** The scripted model server (the "provider" every host calls). */
  scriptedModelUrl: string;
}

export interface HostOptions extends ClusterEndpoints {
  name: string;
  taskQueue: string;
  /** A workspace this host shares with others; default: a copy of examples/workspace in its data directory. */
  workspace?: string;
  /** Files (relative path → text) added to the host's own workspace copy. */
  files?: Record<string, string>;
  /** The worker's entry: `node src/cli/cli.ts worker` (default) or test/helpers/cluster-worker.ts. */
  entry?: 'cli' | 'cluster-worker';
  env?: Record<string, string>;
}

/** One line of a host's `tool-runs.jsonl` (every tool execution attempt on that host). */
export interface ToolRunRecord {
  runId: string;
  /** The key the call ran under: the idempotency key is `<runId>:<runKey>`. */
  runKey: string;
  toolCallId: string;
  tool: string;
  attempt: number;
  pid: number;
}

export interface Host {
  name: string;
  dataDir: string;
  workspace: string;
  /** The environment the host runs with (for CLI commands "on" this host). */
  env: NodeJS.ProcessEnv;
  child: ChildProcess;
  /** Its stderr so far (for failure messages). */
  stderr(): string;
  toolRuns(): ToolRunRecord[];
  /** SIGKILL: the host dies with whatever it was doing. */
  kill(): Promise<void>;
  /** Kills it (if alive) and deletes its data directory. */
  dispose(): Promise<void>;
}

/**
 * This process's environment without the harness's own settings, so nothing set outside the test
 * (a store URL, a data dir, a provider key, NODE_TEST_CONTEXT) leaks into a host.
 */
function baseEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(AGENT_|TEMPORAL_|OPENAI_|MODEL$|NODE_TEST_CONTEXT$)/.test(key)),
  );
}

/** The environment of a host with `dataDir` (and a workspace), as `node src/cli/cli.ts` reads it. */
export function hostEnv(endpoints: ClusterEndpoints & { taskQueue: string; dataDir: string; workspace?: string }): NodeJS.ProcessEnv {
  return {
    ...baseEnv(),
    TEMPORAL_ADDRESS: endpoints.address,
    TEMPORAL_LOG_LEVEL: 'ERROR',
    AGENT_TASK_QUEUE: endpoints.taskQueue,
    AGENT_DATA_DIR: endpoints.dataDir,
    AGENT_STORE_URL: endpoints.storeUrl,
    AGENT_SCRIPTED_MODEL_URL: endpoints.scriptedModelUrl,
    ...(endpoints.workspace ? { AGENT_WORKSPACE: endpoints.workspace } : {}),
  };
}

export function newDataDir(name: string): string {
  return mkdtempSync(path.join(tmpdir(), `agent-host-${name}-`));
}

/** A copy of examples/workspace at `dir`, plus `files`. */
export function makeWorkspace(dir: string, files: Record<string, string> = {}): string {
  cpSync(path.join(PROJECT_ROOT, 'examples', 'workspace'), dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
  }
  return dir;
}

/** Starts a worker host; resolves once it polls its task queue. */
export async function startHost(options: HostOptions): Promise<Host> {
  const dataDir = newDataDir(options.name);
  const workspace = options.workspace ?? makeWorkspace(path.join(dataDir, 'workspace'), options.files);
  const env = { ...hostEnv({ ...options, dataDir, workspace }), ...options.env };
  const entry = options.entry === 'cluster-worker' ? [path.join(PROJECT_ROOT, 'test', 'helpers', 'cluster-worker.ts')] : [path.join(PROJECT_ROOT, 'src', 'cli', 'cli.ts'), 'worker'];
  // Bound to this process: a test process that dies takes its hosts with it.
  const child = spawnBoundToThisProcess(process.execPath, entry, { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const onData = () => {
        if (!stderr.includes('Worker polling task queue')) return;
        child.stderr!.off('data', onData);
        resolve();
      };
      child.stderr!.on('data', onData);
      child.once('exit', (code, signal) => reject(new Error(`host ${options.name} exited (${code ?? signal}) before polling: ${stderr}`)));
    });
  } catch (error) {
    await kill();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    name: options.name,
    dataDir,
    workspace,
    env,
    child,
    stderr: () => stderr,
    toolRuns() {
      const file = path.join(dataDir, 'tool-runs.jsonl');
      if (!existsSync(file)) return [];
      return readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as ToolRunRecord);
    },
    kill,
    async dispose() {
      await kill();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs `node src/cli/cli.ts <args>` with `env` (a host's, or a fresh one's) and returns its exit code and output. */
export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'src', 'cli', 'cli.ts'), ...args], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
