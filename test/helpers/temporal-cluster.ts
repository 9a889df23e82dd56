/**
 * The production shape of Temporal, on this machine, for tests: the real Temporal server v1.29.1 (all
 * four services in one process) on a real PostgreSQL, with the same server config as docker-compose.yml
 * (deploy/temporal/agent.yaml) and the same dynamic config (deploy/dynamicconfig/agent.yaml).
 *
 * The server and its SQL tool are built once with `go install` into .cache/bin (minutes, cold); the
 * schema comes from the server module's own files (`schema/postgresql/v12`) in the Go module cache.
 * Everything listens on 127.0.0.1 only, on ports chosen free at start and kept across stopServer() /
 * startServer(), so clients and workers reconnect to the same address after a restart.
 */
import { AGENT_SEARCH_ATTRIBUTES } from '../../src/wire/search-attributes.ts';
import { execFile, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import { CACHE_DIR, PROJECT_ROOT } from '../../src/paths.ts';
import { goInstall, isExecutable, which } from '../../src/temporal/temporal-cli.ts';
import { spawnBoundToThisProcess, startPostgres, type PostgresServer } from '../../src/store/throwaway-postgres.ts';

export interface TemporalCluster {
  /** The frontend, host:port. */
  address: string;
  namespace: string;
  postgres: PostgresServer;
  /** The server's JSON log lines (level TEMPORAL_CLUSTER_LOG_LEVEL, default warn). */
  logFile: string;
  /** Stops the Temporal server process (PostgreSQL keeps running). */
  stopServer(): Promise<void>;
  /** Starts it again on the same ports and databases; resolves once the frontend answers. */
  startServer(): Promise<void>;
  /** Stops the server, and PostgreSQL too when this cluster started it. */
  close(): Promise<void>;
}

export interface TemporalClusterOptions {
  /** A PostgreSQL of the caller's (kept running by close()); default: one started (and destroyed) here. */
  postgres?: PostgresServer;
  /** Database names: `<prefix>` and `<prefix>_visibility` (default `temporal`). */
  databasePrefix?: string;
  /** Default deploy/dynamicconfig/agent.yaml. */
  dynamicConfigFile?: string;
  log?: (line: string) => void;
}

export const TEMPORAL_SERVER_MODULE = 'go.temporal.io/server';
export const TEMPORAL_SERVER_VERSION = 'v1.29.1';
const SERVER_CONFIG_ROOT = path.join(PROJECT_ROOT, 'deploy');
const SERVER_CONFIG_DIR = 'temporal'; // deploy/temporal/agent.yaml, selected with --env agent
const DYNAMIC_CONFIG_FILE = path.join(PROJECT_ROOT, 'deploy', 'dynamicconfig', 'agent.yaml');
const HOST = '127.0.0.1';
const NAMESPACE = 'default';
const READY_TIMEOUT_MS = 60_000;

const execFileAsync = promisify(execFile);

/**
 * The `server` and `sql` (temporal-sql-tool) binaries of Temporal server v1.29.1: TEMPORAL_SERVER_BIN and
 * TEMPORAL_SQL_TOOL when set, else the project's build in .cache/bin/temporal-server-v1.29.1, made with
 * `go install` when absent.
 */
export async function ensureTemporalServerBinaries(log: (line: string) => void = (l) => console.error(l)): Promise<{ server: string; sqlTool: string }> {
  const fromEnv = { server: process.env.TEMPORAL_SERVER_BIN, sqlTool: process.env.TEMPORAL_SQL_TOOL };
  if (fromEnv.server && fromEnv.sqlTool) {
    for (const [name, file] of Object.entries(fromEnv)) {
      if (!isExecutable(file!)) throw new Error(`${name === 'server' ? 'TEMPORAL_SERVER_BIN' : 'TEMPORAL_SQL_TOOL'}=${file} is not an executable file.`);
    }
    return { server: fromEnv.server, sqlTool: fromEnv.sqlTool };
  }
  const [server, sqlTool] = await goInstall(
    {
      what: 'the Temporal server',
      module: [`${TEMPORAL_SERVER_MODULE}/cmd/server`, `${TEMPORAL_SERVER_MODULE}/cmd/tools/sql`],
      version: TEMPORAL_SERVER_VERSION,
      binaries: ['server', 'sql'],
      gobin: path.join(CACHE_DIR, 'bin', `temporal-server-${TEMPORAL_SERVER_VERSION}`),
    },
    { log },
  );
  return { server: server!, sqlTool: sqlTool! };
}

/**
 * The server module's `schema/postgresql/v12` directory (with `temporal/versioned` and `visibility/versioned`),
 * from the Go module cache (downloaded if needed); null when Go is not here (the SQL tool's embedded copy
 * of the same files is used then).
 */
async function schemaDir(): Promise<string | null> {
  const go = which('go');
  if (!go) return null;
  const { stdout } = await execFileAsync(go, ['mod', 'download', '-json', `${TEMPORAL_SERVER_MODULE}@${TEMPORAL_SERVER_VERSION}`], {
    env: { ...process.env, GOFLAGS: '' },
  });
  const dir = (JSON.parse(stdout) as { Dir?: string }).Dir;
  const schema = dir && path.join(dir, 'schema', 'postgresql', 'v12');
  if (!schema || !existsSync(path.join(schema, 'temporal', 'versioned'))) {
    throw new Error(`No PostgreSQL schema in ${TEMPORAL_SERVER_MODULE}@${TEMPORAL_SERVER_VERSION} (module dir ${dir ?? 'unknown'}).`);
  }
  return schema;
}

/** Creates the two databases unless they exist and brings their schemas to the latest version (idempotent). */
async function setupSchemas(sqlTool: string, pg: PostgresServer, databases: { temporal: string; visibility: string }): Promise<void> {
  const dir = await schemaDir();
  const run = async (database: string, args: string[]) => {
    try {
      await execFileAsync(sqlTool, args, {
        env: {
          PATH: process.env.PATH ?? '',
          SQL_HOST: pg.host,
          SQL_PORT: String(pg.port),
          SQL_USER: pg.user,
          SQL_PASSWORD: '',
          SQL_PLUGIN: 'postgres12',
          SQL_DATABASE: database,
        },
      });
    } catch (error) {
      const { stdout, stderr } = error as { stdout?: string; stderr?: string };
      throw new Error(`temporal-sql-tool ${args.join(' ')} on ${database} failed: ${(stderr || stdout || (error as Error).message).trim().slice(-3000)}`);
    }
  };
  await Promise.all(
    (['temporal', 'visibility'] as const).map(async (kind) => {
      const database = databases[kind];
      await pg.createDatabase(database);
      // setup-schema -v 0.0 only creates the version tables (and skips when the schema is newer).
      await run(database, ['setup-schema', '-v', '0.0']);
      await run(database, dir ? ['update-schema', '-d', path.join(dir, kind, 'versioned')] : ['update-schema', '--schema-name', `postgresql/v12/${kind}`]);
    }),
  );
}

const handedOut = new Set<number>();

/**
 * Free ports on 127.0.0.1 below 32768: the PostgreSQL schema keeps membership ports in a smallint
 * column (cluster_membership.rpc_port), so a port from the ephemeral range makes the server exit.
 */
async function freeLowPorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) {
    const port = 20_000 + Math.floor(Math.random() * 12_700);
    if (handedOut.has(port) || ports.includes(port)) continue;
    if (await canBind(port)) ports.push(port);
  }
  for (const port of ports) handedOut.add(port);
  return ports;
}

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, HOST, () => server.close(() => resolve(true)));
  });
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: HOST, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startTemporalCluster(options: TemporalClusterOptions = {}): Promise<TemporalCluster> {
  const log = options.log ?? ((line: string) => console.error(line));
  const started = Date.now();
  const binaries = await ensureTemporalServerBinaries(log);
  const ownPostgres = !options.postgres;
  const pg = options.postgres ?? (await startPostgres());
  const workDir = mkdtempSync(path.join(tmpdir(), 'agent-temporal-'));
  const logFile = path.join(workDir, 'temporal.log');
  const prefix = options.databasePrefix ?? 'temporal';
  const databases = { temporal: prefix, visibility: `${prefix}_visibility` };

  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  let tail = '';
  let ports: number[] = [];
  const killOnExit = () => {
    child?.kill('SIGKILL');
    rmSync(workDir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);

  const cleanUp = async () => {
    process.off('exit', killOnExit);
    if (ownPostgres) await pg.destroy();
    rmSync(workDir, { recursive: true, force: true });
  };

  const frontendPort = () => ports[0]!;
  const address = () => `${HOST}:${frontendPort()}`;

  const serverEnv = (): NodeJS.ProcessEnv => {
    const [frontend, history, matching, worker, frontendMembership, historyMembership, matchingMembership, workerMembership] = ports.map(String);
    // Only what deploy/temporal/agent.yaml reads, so nothing in this process's environment leaks in.
    return {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? workDir,
      LOG_LEVEL: process.env.TEMPORAL_CLUSTER_LOG_LEVEL ?? 'warn',
      NUM_HISTORY_SHARDS: '4',
      POSTGRES_SEEDS: pg.host,
      DB_PORT: String(pg.port),
      POSTGRES_USER: pg.user,
      POSTGRES_PWD: '',
      DBNAME: databases.temporal,
      VISIBILITY_DBNAME: databases.visibility,
      BIND_ON_IP: HOST,
      FRONTEND_GRPC_PORT: frontend,
      HISTORY_GRPC_PORT: history,
      MATCHING_GRPC_PORT: matching,
      WORKER_GRPC_PORT: worker,
      FRONTEND_MEMBERSHIP_PORT: frontendMembership,
      HISTORY_MEMBERSHIP_PORT: historyMembership,
      MATCHING_MEMBERSHIP_PORT: matchingMembership,
      WORKER_MEMBERSHIP_PORT: workerMembership,
      DYNAMIC_CONFIG_FILE_PATH: options.dynamicConfigFile ?? DYNAMIC_CONFIG_FILE,
    };
  };

  const launch = () => {
    const stream = createWriteStream(logFile, { flags: 'a' });
    const proc = spawnBoundToThisProcess(
      binaries.server,
      ['--root', SERVER_CONFIG_ROOT, '--config', SERVER_CONFIG_DIR, '--env', 'agent', '--allow-no-auth', 'start'],
      { cwd: workDir, env: serverEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = proc;
    exited = new Promise((resolve) =>
      proc.once('close', () => {
        stream.end();
        resolve();
      }),
    );
    const onData = (chunk: Buffer) => {
      stream.write(chunk);
      tail = (tail + chunk.toString()).slice(-6000);
    };
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', onData);
  };

  /** Until the frontend answers and the namespace exists (registered here the first time). */
  const waitUntilReady = async () => {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    const proc = child!;
    const failed = () => proc.exitCode !== null || proc.signalCode !== null;
    while (!(await portOpen(frontendPort()))) {
      if (failed()) throw new Error(`the Temporal server exited (${proc.exitCode ?? proc.signalCode}) before it listened: ${tail.trim()}`);
      if (Date.now() > deadline) throw new Error(`the Temporal server did not listen on ${address()} within ${READY_TIMEOUT_MS / 1000} s: ${tail.trim()}`);
      await sleep(100);
    }
    const connection = await Connection.connect({ address: address(), connectTimeout: 5_000 });
    try {
      for (;;) {
        if (failed()) throw new Error(`the Temporal server exited (${proc.exitCode ?? proc.signalCode}): ${tail.trim()}`);
        try {
          // Resolves the namespace through the frontend's namespace registry, as starting a workflow does
          // (describeNamespace reads the database directly, and a miss stays cached in the registry ~1 s).
          await connection.workflowService.listWorkflowExecutions({ namespace: NAMESPACE, pageSize: 1 });
          await registerSearchAttributes(connection);
          return;
        } catch (error) {
          if ((error as { code?: number }).code === 5 /* NOT_FOUND: the namespace */) {
            try {
              await connection.workflowService.registerNamespace({
                namespace: NAMESPACE,
                workflowExecutionRetentionPeriod: msToTs('1 day'),
              });
            } catch (registerError) {
              if ((registerError as { code?: number }).code !== 6 /* ALREADY_EXISTS */) throw registerError;
            }
          }
          if (Date.now() > deadline) throw new Error(`the Temporal server on ${address()} was not ready within ${READY_TIMEOUT_MS / 1000} s: ${(error as Error).message}`);
          await sleep(200);
        }
      }
    } finally {
      await connection.close();
    }
  };

  const stopServer = async () => {
    const proc = child;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
  };

  const startServer = async () => {
    if (child && child.exitCode === null && child.signalCode === null) return;
    tail = '';
    launch();
    try {
      await waitUntilReady();
    } catch (error) {
      await stopServer();
      throw error;
    }
  };

  try {
    log(`Temporal cluster: PostgreSQL on ${pg.host}:${pg.port}${ownPostgres ? ` (started in ${Date.now() - started} ms)` : ''}.`);
    const schemaStarted = Date.now();
    await setupSchemas(binaries.sqlTool, pg, databases);
    log(`Temporal cluster: schemas of ${databases.temporal} and ${databases.visibility} up to date in ${Date.now() - schemaStarted} ms.`);
    const serverStarted = Date.now();
    for (let attempt = 0; ; attempt++) {
      // frontend, history, matching, worker gRPC; then their membership (ringpop) ports.
      ports = await freeLowPorts(8);
      try {
        await startServer();
        break;
      } catch (error) {
        // A port chosen free can be taken before the server binds it: choose again.
        if (attempt >= 2 || !/address already in use/i.test((error as Error).message)) throw error;
      }
    }
    log(`Temporal cluster: server ${TEMPORAL_SERVER_VERSION} ready on ${address()} in ${Date.now() - serverStarted} ms (log ${logFile}).`);
  } catch (error) {
    await stopServer().catch(() => {});
    await cleanUp();
    throw error;
  }

  return {
    address: address(),
    namespace: NAMESPACE,
    postgres: pg,
    logFile,
    stopServer,
    startServer,
    async close() {
      await stopServer();
      await cleanUp();
    },
  };
}

/** The harness's custom search attributes (src/wire/search-attributes.ts), as the dev server registers them at start. */
async function registerSearchAttributes(connection: Connection): Promise<void> {
  const types = { KEYWORD: 2, INT: 3, DOUBLE: 4 } as const; // temporal.api.enums.v1.IndexedValueType
  const searchAttributes = Object.fromEntries(AGENT_SEARCH_ATTRIBUTES.map((key) => [key.name, types[key.type]]));
  try {
    await connection.operatorService.addSearchAttributes({ namespace: NAMESPACE, searchAttributes });
  } catch (error) {
    if ((error as { code?: number }).code !== 6 /* ALREADY_EXISTS */) throw error;
  }
}
