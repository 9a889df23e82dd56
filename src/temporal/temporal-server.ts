/**
 * Where Temporal comes from: `TEMPORAL_ADDRESS` when set; otherwise a dev server already listening on
 * the local port (reused); otherwise a real `temporal server start-dev` on a SQLite file in the data
 * directory, started here and stopped by `stop()`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import type * as Testing from '@temporalio/testing';
import { findTemporalCli, TemporalCliUnavailableError } from './temporal-cli.ts';
import { devServerSearchAttributeArgs } from '../wire/search-attributes.ts';
import { AgentError } from '../wire/agent-error.ts';

/** A Temporal server to connect to: its address and namespace, and `stop()` for one this process started. */
export interface TemporalEndpoint {
  address: string;
  namespace: string;
  /** Web UI of a server started here. */
  uiUrl: string | null;
  /** True when this process started the server (and `stop()` stops it). */
  owned: boolean;
  stop(): Promise<void>;
}

/** Where a dev server keeps its SQLite file, and the address it listens on. */
export interface DevServerOptions {
  dataDir: string;
  /** gRPC port; the Web UI listens on port + 1000. */
  port?: number;
  host?: string;
  log?: (line: string) => void;
}

export const DEFAULT_PORT = 7233;

/**
 * The dev server tuned for latency (README, "Tuning a cluster", for the same keys on a real cluster).
 * The history service reads each of its queues through a token bucket of 20 reads/s per shard, and the
 * dev server has one shard: past a short burst every dispatch to a worker (transfer queue) and every
 * timer (timer queue: timeouts, durable sleeps, retries) waited for the next token, so every run moved
 * in 50 ms steps. `fresh`: the SQLite file is new, so no task can sit in a task-queue partition other
 * than the first (reading fewer partitions than an older file was written with would strand its backlog).
 */
export function devServerTuningArgs(fresh: boolean): string[] {
  const dynamic = {
    'history.transferProcessorMaxPollRPS': 1000,
    'history.timerProcessorMaxPollRPS': 1000,
    // Search attributes and closed runs reach List queries without a 50 ms queue.
    'history.visibilityProcessorMaxPollRPS': 1000,
    // One worker fleet per task queue on one host: one partition, no forwarding between partitions.
    'matching.numTaskqueueWritePartitions': 1,
    ...(fresh ? { 'matching.numTaskqueueReadPartitions': 1 } : {}),
  };
  return [
    ...Object.entries(dynamic).flatMap(([key, value]) => ['--dynamic-config-value', `${key}=${JSON.stringify(value)}`]),
    // Write-ahead log, fsync at checkpoints only: a dev server may lose its last commits to a power cut, never to a crash.
    '--sqlite-pragma', 'journal_mode=wal',
    '--sqlite-pragma', 'synchronous=normal',
  ];
}

/**
 * A gRPC port for a dev server of a test or bench run, with its Web UI's (port + 1000) free too. Chosen
 * below Linux's ephemeral range (32768 up), where the OS hands out ports to outgoing connections and to
 * dev servers' internal services: a random pick there once collided with one of those.
 */
export async function freeDevServerPort(host = '127.0.0.1'): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 11_000);
    if ((await canListen(host, port)) && (await canListen(host, port + 1000))) return port;
  }
  throw new Error(`no free pair of ports (gRPC, and gRPC + 1000 for the Web UI) on ${host} between 20000 and 32000`);
}

function canListen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** `TEMPORAL_ADDRESS` when set; else a dev server already on the port; else a dev server started here (the Temporal CLI, built or downloaded once). */
export async function ensureTemporal(options: DevServerOptions): Promise<TemporalEndpoint> {
  const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';
  const external = process.env.TEMPORAL_ADDRESS;
  if (external) {
    await checkReachable(external);
    return { address: external, namespace, uiUrl: null, owned: false, stop: async () => {} };
  }
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? DEFAULT_PORT;
  const address = `${host}:${port}`;
  if (await isTemporalServing(address)) {
    return { address, namespace, uiUrl: `http://${host}:${port + 1000}`, owned: false, stop: async () => {} };
  }
  return startDevServer({ ...options, host, port });
}

/** Starts `temporal server start-dev` and resolves once it answers gRPC. */
export async function startDevServer(options: DevServerOptions): Promise<TemporalEndpoint> {
  const log = options.log ?? ((line: string) => console.error(line));
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? DEFAULT_PORT;
  const address = `${host}:${port}`;
  mkdirSync(options.dataDir, { recursive: true });
  const dbFile = path.join(options.dataDir, 'temporal.db');
  const tuning = devServerTuningArgs(!existsSync(dbFile));
  const cli = await findTemporalCli(log);
  if (!cli) return startDownloadedDevServer({ host, port, dbFile, tuning });

  const child = spawn(
    cli,
    [
      'server', 'start-dev',
      '--ip', host,
      '--port', String(port),
      '--ui-port', String(port + 1000),
      '--db-filename', dbFile,
      '--log-level', 'error',
      // Lets a worker that shares the client's connection take activities straight from the workflow task.
      '--dynamic-config-value', 'system.enableActivityEagerExecution=true',
      ...tuning,
      // The custom search attributes runs are listed by (AgentStatus, AgentPendingTool, …; search-attributes.ts).
      ...devServerSearchAttributeArgs(),
    ],
    // Its own process group: Ctrl-C in a terminal reaches the whole foreground group, and the server must
    // outlive it until the command has cancelled its run and stops the server itself (stop(), or at exit).
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  const killAtExit = () => child.kill('SIGTERM');
  process.once('exit', killAtExit);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  void exited.then(() => process.off('exit', killAtExit));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      // Another process may have won the race for the port: reuse its server.
      if (await isTemporalServing(address)) return { address, namespace: 'default', uiUrl: `http://${host}:${port + 1000}`, owned: false, stop: async () => {} };
      throw new TemporalCliUnavailableError(`temporal server start-dev exited with code ${child.exitCode}: ${stderr.trim()}`);
    }
    if (await isTemporalServing(address)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new TemporalCliUnavailableError(`temporal server start-dev did not answer on ${address} within 60 s: ${stderr.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    address,
    namespace: 'default',
    uiUrl: `http://${host}:${port + 1000}`,
    owned: true,
    stop: () => stopChild(child, exited),
  };
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Last resort on machines with internet: @temporalio/testing downloads the CLI itself. */
async function startDownloadedDevServer(o: { host: string; port: number; dbFile: string; tuning: string[] }): Promise<TemporalEndpoint> {
  let testing: typeof Testing;
  try {
    testing = await import('@temporalio/testing');
  } catch {
    throw new TemporalCliUnavailableError(
      'No Temporal CLI found and Go is not installed to build one. Install Go (then this builds the CLI), ' +
        'set TEMPORAL_CLI to a temporal binary, or set TEMPORAL_ADDRESS to a running server.',
    );
  }
  const env = await testing.TestWorkflowEnvironment.createLocal({
    server: { ip: o.host, port: o.port, uiPort: o.port + 1000, dbFilename: o.dbFile, extraArgs: o.tuning },
  });
  return { address: `${o.host}:${o.port}`, namespace: 'default', uiUrl: `http://${o.host}:${o.port + 1000}`, owned: true, stop: () => env.teardown() };
}

/** Whether a Temporal frontend answers at `address`. */
export async function isTemporalServing(address: string): Promise<boolean> {
  if ((await probeTcp(address, 1000)) !== 'open') return false;
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({ address, connectTimeout: 2000 });
    await connection.workflowService.getSystemInfo({});
    return true;
  } catch {
    return false;
  } finally {
    await connection?.close();
  }
}

/** Nothing answers at the Temporal address a command was given (TEMPORAL_ADDRESS). */
export class TemporalUnreachableError extends AgentError {
  override readonly name = 'TemporalUnreachableError';
  readonly code = 'TemporalUnreachable';
}

/**
 * Fails at once, saying what to do, when nothing accepts connections at TEMPORAL_ADDRESS (refused, or a
 * host name that does not resolve); gRPC clients would retry such an address until their deadline. A
 * slow answer is left to the client's own deadline.
 */
async function checkReachable(address: string): Promise<void> {
  const probe = await probeTcp(address, 3000);
  if (probe instanceof Error) {
    throw new TemporalUnreachableError(
      `Nothing answers at ${address} (TEMPORAL_ADDRESS): ${probe.message}. Start Temporal there, or point TEMPORAL_ADDRESS at a running server; without TEMPORAL_ADDRESS, commands use (or start) the embedded dev server.`,
    );
  }
}

/** A TCP connection to `address`: opened, no answer within `timeoutMs`, or why it failed ('unknown': not host:port). */
function probeTcp(address: string, timeoutMs: number): Promise<'open' | 'timeout' | 'unknown' | Error> {
  const [host, portText] = splitAddress(address);
  const port = Number(portText);
  if (!host || !Number.isInteger(port) || port <= 0 || port > 65535) return Promise.resolve('unknown');
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    socket.setTimeout(timeoutMs);
    socket.once('connect', () => (socket.destroy(), resolve('open')));
    socket.once('timeout', () => (socket.destroy(), resolve('timeout')));
    socket.once('error', (error) => resolve(error));
  });
}

/** `host:port` or `[ipv6]:port` into host and port text ('' for a missing part). */
function splitAddress(address: string): [string, string] {
  const at = address.lastIndexOf(':');
  if (at < 0 || address.endsWith(']')) return [address, ''];
  return [address.slice(0, at).replace(/^\[(.*)\]$/, '$1'), address.slice(at + 1)];
}
