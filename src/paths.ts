/** Where the project keeps its files. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Run data: the dev server's SQLite file, traces, the demo workspace. `AGENT_DATA_DIR` overrides. */
export function dataDir(): string {
  return path.resolve(process.env.AGENT_DATA_DIR ?? path.join(PROJECT_ROOT, '.data'));
}

/** Built artefacts kept between runs (the Temporal CLI build, the workflow bundle). */
export const CACHE_DIR = path.join(PROJECT_ROOT, '.cache');

export const TASK_QUEUE = process.env.AGENT_TASK_QUEUE ?? 'agent-harness';
