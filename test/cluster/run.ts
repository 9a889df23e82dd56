/**
 * `npm run test:cluster`: the tests against the production shape — the real Temporal server v1.29.1 on
 * PostgreSQL 15 (test/helpers/temporal-cluster.ts), each test file starting the cluster it needs. Builds
 * the server and its SQL tool first (once, minutes; cached in .cache/bin) and the workflow bundle, so
 * no test times out on a build. Needs Go and PostgreSQL's server binaries (`apt-get install postgresql`).
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { workflowBundle } from '../../src/worker/workflow-bundle.ts';
import { findPostgresBinDir } from '../../src/store/throwaway-postgres.ts';
import { ensureTemporalServerBinaries } from '../helpers/temporal-cluster.ts';

findPostgresBinDir();
await ensureTemporalServerBinaries();
await workflowBundle();

const only = process.argv.slice(2);
const files = only.length
  ? only
  : readdirSync(path.join(PROJECT_ROOT, 'test', 'cluster'))
      .filter((f) => f.endsWith('.test.ts'))
      .sort()
      .map((f) => path.join('test', 'cluster', f));

const code = await new Promise<number | null>((resolve) => {
  const child = spawn(process.execPath, ['--test', '--test-concurrency=1', '--test-timeout=300000', ...files], {
    cwd: PROJECT_ROOT,
    stdio: 'inherit',
    env: { TEMPORAL_LOG_LEVEL: 'ERROR', ...process.env },
  });
  child.on('exit', resolve);
});
process.exit(code ?? 1);
