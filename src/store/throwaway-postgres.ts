/**
 * A real, throwaway PostgreSQL server for the tests and the store bench (here, not in test/: the bench runs
 * from the Docker image too): Debian's binaries (`apt-get install postgresql`), a fresh data directory in a
 * temp dir, listening on 127.0.0.1 only (unix socket inside the temp dir), trust auth, durability switched
 * off for speed. PostgreSQL refuses to run as root, so when we are root the server runs as the `postgres`
 * system user. The server is a child of this process: stop() / start() keep the data directory (to
 * simulate an outage), destroy() deletes it, and a process that exits without destroy() still takes its
 * server down with it.
 */
import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CACHE_DIR } from '../paths.ts';
import { AgentError } from '../wire/agent-error.ts';

export interface PostgresServer {
  host: string;
  port: number;
  /** Superuser role name. */
  user: string;
  /** postgres://user@127.0.0.1:port/<database> */
  url(database: string): string;
  /** Creates the database unless it exists. */
  createDatabase(name: string): Promise<void>;
  /** Stops the server process (data kept), e.g. to simulate an outage. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data directory. */
  start(): Promise<void>;
  /** Stops and deletes the data directory. */
  destroy(): Promise<void>;
}

const HOST = '127.0.0.1';
const SUPERUSER = 'postgres';

export class PostgresUnavailableError extends AgentError {
  override readonly name = 'PostgresUnavailableError';
  readonly code = 'PostgresUnavailable';
}

/** The newest /usr/lib/postgresql/<version>/bin with initdb, postgres and psql (`PG_BIN` overrides). */
export function findPostgresBinDir(): string {
  const fromEnv = process.env.PG_BIN;
  if (fromEnv) {
    if (!hasBinaries(fromEnv)) throw new PostgresUnavailableError(`PG_BIN=${fromEnv} has no initdb/postgres/psql: point it at a PostgreSQL bin directory, or unset it to use the newest under /usr/lib/postgresql.`);
    return fromEnv;
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+(\.\d+)?$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const dir = path.join(root, version, 'bin');
    if (hasBinaries(dir)) return dir;
  }
  throw new PostgresUnavailableError(
    `No PostgreSQL server binaries under ${root}/*/bin. Install them with \`apt-get install postgresql\` (or set PG_BIN).`,
  );
}

/** Why PostgreSQL tests cannot run here, or false when they can. CI must test PostgreSQL: there, missing binaries fail the run instead. */
export function postgresSkipReason(): string | false {
  try {
    findPostgresBinDir();
    return false;
  } catch (error) {
    return process.env.CI ? false : `PostgreSQL is not installed here: ${(error as Error).message}`;
  }
}

function hasBinaries(dir: string): boolean {
  return ['initdb', 'postgres', 'psql'].every((b) => existsSync(path.join(dir, b)));
}

/** uid/gid to run the server as: ourselves, or the `postgres` system user when we are root. */
function serverIdentity(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  const fields = line?.split(':');
  if (!fields || fields.length < 4) {
    throw new PostgresUnavailableError(
      'Running as root, and PostgreSQL refuses to run as root, but there is no `postgres` system user (it comes with `apt-get install postgresql`).',
    );
  }
  return { uid: Number(fields[2]), gid: Number(fields[3]) };
}

/**
 * initdb takes ~3 s; copying a pristine cluster made by it once (kept in .cache) takes ~0.3 s.
 * The template is made in a temp dir and renamed into place, so concurrent first runs are safe.
 */
function initDataDir(bin: string, dataDir: string, identity: { uid: number; gid: number } | null, env: NodeJS.ProcessEnv): void {
  const versionLine = execFileSync(path.join(bin, 'postgres'), ['--version'], { encoding: 'utf8' });
  const version = /\d+(\.\d+)*/.exec(versionLine)?.[0] ?? 'unknown';
  const owner = identity ? identity.uid : (process.getuid?.() ?? 0);
  const template = path.join(CACHE_DIR, `postgres-template-${version}-uid${owner}`);
  if (!existsSync(path.join(template, 'PG_VERSION'))) {
    mkdirSync(CACHE_DIR, { recursive: true });
    const scratch = mkdtempSync(path.join(tmpdir(), 'agent-pg-initdb-'));
    try {
      if (identity) chownSync(scratch, identity.uid, identity.gid);
      const fresh = path.join(scratch, 'data');
      try {
        execFileSync(
          path.join(bin, 'initdb'),
          ['-D', fresh, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync', '--no-instructions'],
          { cwd: scratch, env, stdio: ['ignore', 'ignore', 'pipe'], ...(identity ?? {}) },
        );
      } catch (error) {
        const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
        throw new PostgresUnavailableError(`initdb failed: ${stderr || (error as Error).message}`);
      }
      // Another process may have made it meanwhile; either copy is as good.
      execFileSync('cp', ['-a', fresh, `${template}.${process.pid}`]);
      try {
        renameSync(`${template}.${process.pid}`, template);
      } catch {
        rmSync(`${template}.${process.pid}`, { recursive: true, force: true });
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  // cp -a keeps owner and the 0700 mode postgres insists on.
  execFileSync('cp', ['-a', template, dataDir]);
}

const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((f) => existsSync(f));

/**
 * spawn(), but the child gets `signal` when this process dies (util-linux `setpriv --pdeathsig`, which
 * then execs the command: same pid), so a test process killed by its runner leaves no server behind.
 */
export function spawnBoundToThisProcess(
  command: string,
  args: string[],
  options: SpawnOptions,
  signal: 'KILL' | 'TERM' | 'QUIT' | 'INT' = 'KILL',
): ChildProcess {
  return SETPRIV ? spawn(SETPRIV, ['--pdeathsig', signal, '--', command, ...args], options) : spawn(command, args, options);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startPostgres(options: { port?: number } = {}): Promise<PostgresServer> {
  const bin = findPostgresBinDir();
  const identity = serverIdentity();
  const baseDir = mkdtempSync(path.join(tmpdir(), 'agent-pg-'));
  const dataDir = path.join(baseDir, 'data');
  if (identity) chownSync(baseDir, identity.uid, identity.gid);
  const asServerUser = identity ? { uid: identity.uid, gid: identity.gid } : {};
  const env = { ...process.env, LC_ALL: 'C', LANG: 'C' };

  try {
    initDataDir(bin, dataDir, identity, env);
  } catch (error) {
    rmSync(baseDir, { recursive: true, force: true });
    throw error;
  }
  // Settings that make a test server fast; durability is not wanted here.
  appendFileSync(
    path.join(dataDir, 'postgresql.conf'),
    [
      '',
      `listen_addresses = '${HOST}'`,
      `unix_socket_directories = '${baseDir}'`,
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      'max_connections = 400',
      'shared_buffers = 64MB',
      'max_wal_size = 1GB',
      // LOG ranks above WARNING here, so "ready to accept connections" (awaited below) is still printed.
      "log_min_messages = 'warning'",
      "log_min_error_statement = 'panic'",
      '',
    ].join('\n'),
  );

  let port = options.port ?? (await freePort());
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  let destroyed = false;

  const killOnExit = () => {
    child?.kill('SIGQUIT');
    rmSync(baseDir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);

  const launch = async (): Promise<void> => {
    // SIGQUIT is PostgreSQL's immediate shutdown.
    const proc = spawnBoundToThisProcess(
      path.join(bin, 'postgres'),
      ['-D', dataDir, '-p', String(port)],
      { cwd: baseDir, env, stdio: ['ignore', 'ignore', 'pipe'], ...asServerUser },
      'QUIT',
    );
    child = proc;
    exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    let log = '';
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        log = (log + chunk.toString()).slice(-8000);
        if (log.includes('database system is ready to accept connections')) {
          resolve();
          proc.stderr?.off('data', onData);
          proc.stderr?.resume();
        }
      };
      proc.stderr?.on('data', onData);
      proc.once('error', reject);
      proc.once('exit', (code, signal) => reject(new PostgresUnavailableError(`postgres exited (${code ?? signal}) before it was ready: ${log.trim()}`)));
    });
  };

  const startOnce = async () => {
    if (destroyed) throw new Error('this PostgreSQL server was destroyed');
    if (child && child.exitCode === null && child.signalCode === null) return;
    await launch();
  };

  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await startOnce();
        break;
      } catch (error) {
        // A random port can be taken between choosing it and binding it: choose again.
        const portTaken = /could not bind|Address already in use/i.test((error as Error).message);
        if (options.port !== undefined || !portTaken || attempt >= 4) throw error;
        port = await freePort();
      }
    }
  } catch (error) {
    process.off('exit', killOnExit);
    rmSync(baseDir, { recursive: true, force: true });
    throw error;
  }

  const stop = async () => {
    const proc = child;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill('SIGINT'); // fast shutdown: rolls back open transactions, closes connections
    const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };

  const psql = (sql: string) =>
    new Promise<void>((resolve, reject) => {
      const proc = spawn(path.join(bin, 'psql'), ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', HOST, '-p', String(port), '-U', SUPERUSER, '-d', 'postgres', '-f', '-'], {
        cwd: baseDir,
        env: { ...env, PGCONNECT_TIMEOUT: '10' },
        stdio: ['pipe', 'ignore', 'pipe'],
      });
      let stderr = '';
      proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      proc.once('error', reject);
      proc.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`psql failed (exit ${code}): ${stderr.trim()}`))));
      proc.stdin.end(sql);
    });

  return {
    host: HOST,
    port,
    user: SUPERUSER,
    url: (database) => `postgres://${SUPERUSER}@${HOST}:${port}/${encodeURIComponent(database)}`,
    async createDatabase(name) {
      const ident = `"${name.replaceAll('"', '""')}"`;
      const literal = `'${name.replaceAll("'", "''")}'`;
      try {
        await psql(`SELECT 'CREATE DATABASE ${ident.replaceAll("'", "''")}' WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = ${literal})\\gexec\n`);
      } catch (error) {
        // Two concurrent creators: the loser sees a duplicate; the database exists either way.
        if (!/already exists|duplicate key/i.test((error as Error).message)) throw error;
      }
    },
    stop,
    start: startOnce,
    async destroy() {
      destroyed = true;
      await stop();
      process.off('exit', killOnExit);
      rmSync(baseDir, { recursive: true, force: true });
    },
  };
}
