/**
 * Finds the Temporal CLI (whose `server start-dev` is the real Temporal server on SQLite), building it
 * with `go install` the first time. Lookup order: TEMPORAL_CLI → `temporal` on PATH → the project's
 * cached build → `go install` (when Go is available). Run directly, it prints the binary's path.
 * `goInstall` is the general helper: any Go main package at a version, built once into a cache dir.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { CACHE_DIR } from '../paths.ts';
import { AgentError } from '../wire/agent-error.ts';

export const TEMPORAL_CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal';
/** Later CLI versions carry a `replace` directive that `go install` refuses. */
export const TEMPORAL_CLI_VERSION = 'v1.5.1';
const CACHED_CLI = path.join(CACHE_DIR, 'bin', 'temporal');

export class TemporalCliUnavailableError extends AgentError {
  override readonly name = 'TemporalCliUnavailableError';
  readonly code = 'TemporalCliUnavailable';
}

type Log = (line: string) => void;

/** The Temporal CLI path, or null when none exists and none can be built here. */
export async function findTemporalCli(log: Log = (l) => console.error(l)): Promise<string | null> {
  const fromEnv = process.env.TEMPORAL_CLI;
  if (fromEnv) {
    if (!isExecutable(fromEnv)) throw new TemporalCliUnavailableError(`TEMPORAL_CLI=${fromEnv} is not an executable file: point it at a temporal binary, or unset it to use the one on PATH.`);
    return fromEnv;
  }
  const onPath = which('temporal');
  if (onPath) return onPath;
  if (isExecutable(CACHED_CLI)) return CACHED_CLI;
  const go = which('go');
  if (!go) return null;
  await buildWithGo(go, log);
  return CACHED_CLI;
}

async function buildWithGo(go: string, log: Log): Promise<void> {
  try {
    await goInstall(
      { what: 'the Temporal CLI', module: TEMPORAL_CLI_MODULE, version: TEMPORAL_CLI_VERSION, binaries: ['temporal'], gobin: path.dirname(CACHED_CLI) },
      { go, log },
    );
  } catch (error) {
    if (!(error instanceof GoInstallError)) throw error;
    throw new TemporalCliUnavailableError(
      `${error.message} Set TEMPORAL_CLI to an existing binary or TEMPORAL_ADDRESS to a running server.`,
    );
  }
}

export class GoInstallError extends AgentError {
  override readonly name = 'GoInstallError';
  readonly code = 'GoInstall';
}

export interface GoInstallTarget {
  /** For progress lines: "the Temporal CLI". */
  what: string;
  /** A main package path, e.g. `go.temporal.io/server/cmd/server`; several main packages of one module may be given. */
  module: string | string[];
  version: string;
  /** The binaries `go install` leaves in `gobin` (named after the packages' last path element). */
  binaries: string[];
  /** The directory the binaries are installed into (GOBIN). */
  gobin: string;
}

/**
 * `go install <module>@<version>` into `gobin`, with progress lines (it takes minutes once), unless every
 * binary is already there. Returns the binaries' paths in `binaries` order.
 */
export async function goInstall(target: GoInstallTarget, options: { go?: string; log?: Log } = {}): Promise<string[]> {
  const log = options.log ?? ((l: string) => console.error(l));
  const paths = target.binaries.map((b) => path.join(target.gobin, b));
  if (paths.every(isExecutable)) return paths;
  const go = options.go ?? which('go');
  if (!go) throw new GoInstallError(`Building ${target.what} needs Go (\`go\` is not on PATH).`);
  const packages = (Array.isArray(target.module) ? target.module : [target.module]).map((m) => `${m}@${target.version}`);
  const command = `go install ${packages.join(' ')}`;
  mkdirSync(target.gobin, { recursive: true });
  log(`Building ${target.what} ${target.version} with \`${command}\`.`);
  log(`This takes a few minutes once; the binaries are cached in ${target.gobin}.`);
  const started = Date.now();
  const ticker = setInterval(() => log(`  still building ${target.what}... ${Math.round((Date.now() - started) / 1000)} s`), 20_000);
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(go, ['install', ...packages], {
        env: { ...process.env, GOBIN: target.gobin },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      child.on('error', reject);
      child.on('exit', resolve);
    });
    const missing = paths.filter((p) => !existsSync(p));
    if (code !== 0 || missing.length) {
      throw new GoInstallError(`\`${command}\` failed (exit ${code}${missing.length ? `, missing ${missing.join(', ')}` : ''}); see its output above.`);
    }
    log(`Built ${target.what} in ${Math.round((Date.now() - started) / 1000)} s: ${paths.join(', ')}`);
    return paths;
  } finally {
    clearInterval(ticker);
  }
}

export function which(command: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

if (import.meta.main) {
  const cli = await findTemporalCli();
  if (!cli) {
    console.error('No Temporal CLI here and no Go to build one: install Go, or set TEMPORAL_CLI or TEMPORAL_ADDRESS.');
    process.exit(1);
  }
  console.log(cli);
}
