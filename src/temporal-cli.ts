/**
 * Finds the Temporal CLI (whose `server start-dev` is the real Temporal server on SQLite), building it
 * with `go install` the first time. Lookup order: TEMPORAL_CLI → `temporal` on PATH → the project's
 * cached build → `go install` (when Go is available). Run directly, it prints the binary's path.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { CACHE_DIR } from './paths.ts';

export const TEMPORAL_CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal';
/** Later CLI versions carry a `replace` directive that `go install` refuses. */
export const TEMPORAL_CLI_VERSION = 'v1.5.1';
const CACHED_CLI = path.join(CACHE_DIR, 'bin', 'temporal');

export class TemporalCliUnavailableError extends Error {
  override readonly name = 'TemporalCliUnavailableError';
}

type Log = (line: string) => void;

/** The Temporal CLI path, or null when none exists and none can be built here. */
export async function findTemporalCli(log: Log = (l) => console.error(l)): Promise<string | null> {
  const fromEnv = process.env.TEMPORAL_CLI;
  if (fromEnv) {
    if (!isExecutable(fromEnv)) throw new TemporalCliUnavailableError(`TEMPORAL_CLI=${fromEnv} is not an executable file.`);
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
  mkdirSync(path.dirname(CACHED_CLI), { recursive: true });
  log(`Building the Temporal CLI ${TEMPORAL_CLI_VERSION} with \`go install ${TEMPORAL_CLI_MODULE}@${TEMPORAL_CLI_VERSION}\`.`);
  log(`This takes a few minutes once; the binary is cached in ${path.dirname(CACHED_CLI)}.`);
  const started = Date.now();
  const ticker = setInterval(() => log(`  still building the Temporal CLI... ${Math.round((Date.now() - started) / 1000)} s`), 20_000);
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(go, ['install', `${TEMPORAL_CLI_MODULE}@${TEMPORAL_CLI_VERSION}`], {
        env: { ...process.env, GOBIN: path.dirname(CACHED_CLI) },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      child.on('error', reject);
      child.on('exit', resolve);
    });
    if (code !== 0 || !existsSync(CACHED_CLI)) {
      throw new TemporalCliUnavailableError(
        `go install ${TEMPORAL_CLI_MODULE}@${TEMPORAL_CLI_VERSION} failed (exit ${code}); see its output above. ` +
          'Set TEMPORAL_CLI to an existing binary or TEMPORAL_ADDRESS to a running server.',
      );
    }
    log(`Temporal CLI built in ${Math.round((Date.now() - started) / 1000)} s: ${CACHED_CLI}`);
  } finally {
    clearInterval(ticker);
  }
}

function which(command: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, command);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

function isExecutable(file: string): boolean {
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
