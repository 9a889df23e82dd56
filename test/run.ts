/**
 * `npm test`: builds (once) and starts one real Temporal dev server for the whole run, prebuilds the
 * workflow bundle, then runs every test file with node's test runner against that server.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/paths.ts';
import { freeDevServerPort, startDevServer } from '../src/temporal/temporal-server.ts';
import { workflowBundle } from '../src/worker/workflow-bundle.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'agent-tests-'));
const server = await startDevServer({ dataDir, port: await freeDevServerPort() });
console.error(`Temporal dev server for the tests on ${server.address} (db in ${dataDir})`);
await workflowBundle();

const only = process.argv.slice(2);
const files = only.length
  ? only
  : // Not test/cluster/: those start their own Temporal cluster and run with `npm run test:cluster`.
    readdirSync(path.join(PROJECT_ROOT, 'test'))
      .filter((f) => f.endsWith('.test.ts'))
      .sort()
      .map((f) => path.join('test', f));

// Four files at once on two cores: most of a test's time is spent waiting (worker processes starting,
// Temporal's task timeouts after a kill), not computing. 238 s with two, 131 s with four, 123 s with six.
const code = await new Promise<number | null>((resolve) => {
  const child = spawn(process.execPath, ['--test', '--test-concurrency=4', '--test-timeout=180000', ...files], {
    cwd: PROJECT_ROOT,
    stdio: 'inherit',
    env: { TEMPORAL_LOG_LEVEL: 'ERROR', ...process.env, TEMPORAL_ADDRESS: server.address },
  });
  child.on('exit', resolve);
});
await server.stop();
rmSync(dataDir, { recursive: true, force: true });
process.exit(code ?? 1);
