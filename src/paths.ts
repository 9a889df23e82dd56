/**
 * Where the harness finds its own files, and where a process keeps its data and caches.
 *
 * The code runs from one of two places: its TypeScript sources in this repository (`src/paths.ts`, Node
 * strips the types), or compiled (`dist/src/paths.js`) from the published package, usually inside a
 * consumer's `node_modules`. Every path derived from the code's own location is derived here.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(import.meta.url);

/** The root of the code tree: the repository (running from sources) or the package's `dist/` (compiled). */
export const CODE_ROOT = path.resolve(path.dirname(HERE), '..');

/** The extension of the harness's own modules as they run: `.ts` from sources, `.js` compiled. */
export const CODE_EXT = path.extname(HERE);

/** The package's root: package.json, the README, examples/workspace (the demo's). The repository when running from sources. */
export const PROJECT_ROOT = CODE_EXT === '.js' && path.basename(CODE_ROOT) === 'dist' ? path.dirname(CODE_ROOT) : CODE_ROOT;

/** A module of the harness as it runs, named by its path from the code root without extension: `codeModule('workflows', 'index')`. */
export function codeModule(...segments: string[]): string {
  return path.join(CODE_ROOT, ...segments) + CODE_EXT;
}

/** The package lies in a `node_modules` directory: another project installed it. */
export const INSTALLED = PROJECT_ROOT.split(path.sep).includes('node_modules');

/**
 * The directory data and caches go under unless told otherwise: the repository when running from it; the
 * working directory when the package is installed (never inside `node_modules`, which an install replaces).
 */
function homeDir(): string {
  return INSTALLED ? process.cwd() : PROJECT_ROOT;
}

/** Run data: the dev server's SQLite file, the store, traces, the demo workspace. `AGENT_DATA_DIR` overrides; else `<home>/.data`. */
export function dataDir(): string {
  return path.resolve(process.env.AGENT_DATA_DIR ?? path.join(homeDir(), '.data'));
}

/** Built artefacts kept between runs (the Temporal CLI build, the workflow bundle): `<home>/.cache`, as of the process's start. */
export const CACHE_DIR = path.join(homeDir(), '.cache');

export const TASK_QUEUE = process.env.AGENT_TASK_QUEUE ?? 'agent-harness';
