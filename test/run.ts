/**
 * `npm test`: builds (once) and starts one real Temporal dev server for the whole run, prebuilds the
 * workflow bundle, then runs every test file with node's test runner against that server.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { run } from 'node:test';
import { spec, tap } from 'node:test/reporters';
import { PROJECT_ROOT } from '../src/paths.ts';
import { freeDevServerPort, startDevServer } from '../src/temporal/temporal-server.ts';
import { workflowBundle } from '../src/worker/workflow-bundle.ts';
import { recordedTestTimes, recordTestTimes } from './helpers/file-times.ts';
import { exitOnSignals } from '../src/cli/command-line.ts';

// Ctrl-C stops the dev server below too (its 'exit' hook), and its data goes with it.
exitOnSignals();
const dataDir = mkdtempSync(path.join(tmpdir(), 'agent-tests-'));
process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
const server = await startDevServer({ dataDir, port: await freeDevServerPort() });
console.error(`Temporal dev server for the tests on ${server.address} (db in ${dataDir})`);
await workflowBundle();

const only = process.argv.slice(2);
const files = only.length
  ? only
  : // Not test/cluster/: those start their own Temporal cluster and run with `npm run test:cluster`.
    readdirSync(path.join(PROJECT_ROOT, 'test'))
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => path.join('test', f));
// The longest files first, as timed by the last run (files it did not time before them): the
// process-killing durability tests alone outlast the others by a minute, and started late they ran on alone.
const recorded = recordedTestTimes();
files.sort((a, b) => (recorded[b] ?? Infinity) - (recorded[a] ?? Infinity) || a.localeCompare(b));

process.env.TEMPORAL_ADDRESS = server.address;
process.env.TEMPORAL_LOG_LEVEL ??= 'ERROR';
// Four files at once on two cores: most of a test's time is spent waiting (worker processes starting,
// Temporal's task timeouts after a kill), not computing. 238 s with two, 131 s with four, 123 s with six.
// (`run()`, not `node --test`: the command line sorts the files by name.)
// TEST_NAME_PATTERN: only the tests whose names match (the mutants check runs the tests that claim an invariant).
const namePattern = process.env.TEST_NAME_PATTERN;
const tests = run({
  files: files.map((f) => path.resolve(PROJECT_ROOT, f)),
  concurrency: 4,
  // Per file. The package test packs the harness and installs it with its dependencies (WordNet's data is
  // 34 MB): alone it takes about 220 s on two cores, and next to three other files on a busy machine it
  // has taken more than 300 s. A hung file is still stopped, after 10 minutes.
  timeout: 600_000,
  ...(namePattern ? { testNamePatterns: [namePattern] } : {}),
});
let failed = false;
let ran = 0;
tests.on('test:pass', ({ details }: { details: { type?: string } }) => void (details.type === 'test' && ran++));
const seconds: Record<string, number> = {};
tests.on('test:fail', () => (failed = true));
for (const outcome of ['test:pass', 'test:fail'] as const) {
  tests.on(outcome, ({ nesting, file, details }: { nesting: number; file?: string; details: { duration_ms: number } }) => {
    // A file's top-level tests run one after another: their durations add up to the file's time.
    if (nesting !== 0 || !file) return;
    const name = path.relative(PROJECT_ROOT, file);
    seconds[name] = (seconds[name] ?? 0) + details.duration_ms / 1000;
  });
}
const report = tests.compose(process.stdout.isTTY ? spec : tap);
report.pipe(process.stdout, { end: false });
await finished(report);
recordTestTimes(seconds);
await server.stop();
if (namePattern && ran === 0 && !failed) {
  console.error(`No test matched TEST_NAME_PATTERN=${JSON.stringify(namePattern)}.`);
  process.exit(3);
}
process.exit(failed ? 1 : 0);
