/**
 * `npm run test:chaos [-- options]`: many concurrent runs of mixed kinds on the production shape
 * (test/chaos/shape.ts) while workers are SIGKILLed and the server, both PostgreSQL instances and the
 * store are restarted or stopped (test/chaos/driver.ts); then every run, side effect, trace and event
 * stream is checked (test/chaos/checks.ts). Exits 1 on any problem. See docs/chaos.md.
 *
 *   --runs N            runs under chaos (default 300)           --ci   the short version (48 runs)
 *   --calm-runs N       runs before the chaos, for the calm figures (default runs / 5, at least 12)
 *   --concurrency N     runs open at once (default 40; --ci 16)
 *   --kill-every S      mean seconds between worker kills (default 6)
 *   --outage-seconds S  the store outage (default 10)
 *   --seed N            which workers are killed when (default 1)
 *   --max-minutes M     a phase's runs not finished by then are stuck (default 20; --ci 6)
 *   --soak [--minutes M] [--every-seconds S] [--retention-minutes R]   the soak instead (test/chaos/soak.ts):
 *                       gc with an R-minute retention (default 2) at every sample
 */
import { exitOnSignals, parseCommandLine, usageExit } from '../../src/cli/command-line.ts';
import { findPostgresBinDir } from '../../src/store/throwaway-postgres.ts';
import { workflowBundle } from '../../src/worker/workflow-bundle.ts';
import { ensureTemporalServerBinaries } from '../helpers/temporal-cluster.ts';
import { checkRuns, printReport, problems } from './checks.ts';
import { ChaosDriver } from './driver.ts';
import { phaseFigures, recoveryAfterKills, seconds, table, type PhaseFigures } from './figures.ts';
import { planRun } from './mix.ts';
import { Runner } from './runner.ts';
import { startShape } from './shape.ts';
import { soak } from './soak.ts';

const USAGE = `usage: npm run test:chaos -- [--ci] [--runs N] [--calm-runs N] [--concurrency N] [--kill-every S] [--outage-seconds S]
                              [--seed N] [--max-minutes M] [--workers N] [--verbose]
       npm run test:chaos -- --soak [--minutes M] [--every-seconds S] [--retention-minutes R]   (npm run test:soak)
See docs/chaos.md.`;
const { values: args } = parseCommandLine('test:chaos', USAGE, {
  options: {
    ci: { type: 'boolean', default: false },
    runs: { type: 'string' },
    'calm-runs': { type: 'string' },
    concurrency: { type: 'string' },
    'kill-every': { type: 'string', default: '6' },
    'outage-seconds': { type: 'string', default: '10' },
    seed: { type: 'string', default: '1' },
    'max-minutes': { type: 'string' },
    workers: { type: 'string', default: '3' },
    soak: { type: 'boolean', default: false },
    minutes: { type: 'string', default: '10' },
    'every-seconds': { type: 'string', default: '2' },
    'retention-minutes': { type: 'string', default: '2' },
    verbose: { type: 'boolean', default: false },
  },
});

const positive = (name: string, value: string | undefined, fallback: number): number => {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) usageExit('test:chaos', USAGE, `--${name} must be a positive number, not "${value}"`);
  return n;
};

exitOnSignals();
const t0 = Date.now();
const log = (line: string) => console.error(`[${((Date.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${line}`);
const runs = Math.round(positive('runs', args.runs, args.ci ? 48 : 300));
const calmRuns = Math.round(positive('calm-runs', args['calm-runs'], Math.max(12, Math.round(runs / 5))));
const concurrency = Math.round(positive('concurrency', args.concurrency, args.ci ? 16 : 40));
const maxMs = positive('max-minutes', args['max-minutes'], args.ci ? 6 : 20) * 60_000;
const workers = Math.round(positive('workers', args.workers, 3));

findPostgresBinDir();
await ensureTemporalServerBinaries(log);
await workflowBundle();
const shape = await startShape({ workers, log });
log(`production shape up in ${seconds(Date.now() - t0)}`);
let failed = false;
try {
  if (args.soak) {
    failed = !(await soak(shape, { minutes: positive('minutes', args.minutes, 10), everyMs: positive('every-seconds', args['every-seconds'], 2) * 1000, retentionMs: positive('retention-minutes', args['retention-minutes'], 2) * 60_000, log }));
  } else {
    failed = !(await chaos());
  }
} finally {
  await shape.close();
}
log(`done in ${seconds(Date.now() - t0)}`);
process.exit(failed ? 1 : 0);

async function chaos(): Promise<boolean> {
  const runner = new Runner(shape);
  const phases: PhaseFigures[] = [];

  log(`calm: ${calmRuns} runs, ${concurrency} at a time, no chaos`);
  const calmStart = Date.now();
  const calm = await runner.burst(Array.from({ length: calmRuns }, (_, i) => planRun('calm', i, shape.workspaceRoot)), concurrency, calmStart + maxMs);
  phases.push(phaseFigures('calm', calm, calmStart, Date.now()));

  log(`chaos: ${runs} runs, ${concurrency} at a time; a worker SIGKILLed every ~${args['kill-every']} s`);
  const driver = new ChaosDriver(shape, {
    killEveryMs: positive('kill-every', args['kill-every'], 6) * 1000,
    outageMs: positive('outage-seconds', args['outage-seconds'], 10) * 1000,
    seed: Math.round(positive('seed', args.seed, 1)),
    log,
  });
  const chaosStart = Date.now();
  let finished = 0;
  const planned = Array.from({ length: runs }, (_, i) => planRun('chaos', i, shape.workspaceRoot));
  const progress = setInterval(() => {
    finished = runner.runs.filter((r) => r.startedAt >= chaosStart && r.finishedAt).length;
    if (args.verbose) log(`${finished} of ${runs} finished`);
  }, 250);
  driver.start(() => finished / runs);
  const underChaos = await runner.burst(planned, concurrency, chaosStart + maxMs);
  const chaosEnd = Date.now();
  clearInterval(progress);
  await driver.stop();
  phases.push(phaseFigures('under chaos', underChaos, chaosStart, chaosEnd));
  await runner.close();

  log('checking every run, side effect, trace and event stream');
  const report = await checkRuns(shape.storeUrl, [...calm, ...underChaos]);
  const recovery = recoveryAfterKills(driver.kills, shape.scripted.requests, (r) => /\[((?:calm|chaos)-\d+)\]/.exec(r.messages.find((m) => m.role === 'user')?.content ?? '')?.[1] ?? null);

  console.log(`\nChaos on the production shape (Temporal server on PostgreSQL, store on its own PostgreSQL, ${workers} workers), ${new Date(t0).toISOString()}`);
  console.log(table([['phase', 'runs', 'finished', 'wall s', 'runs/min', 'p50 s', 'p99 s', 'max s'], ...phases.map((p) => [p.name, p.runs, p.finished, p.wallS, p.runsPerMin, p.p50S, p.p99S, p.maxS])]));
  console.log(`\nDisruptions: ${driver.kills.length} worker SIGKILLs (replacement polling after ${seconds(Math.min(...driver.kills.map((k) => k.ms)))}–${seconds(Math.max(...driver.kills.map((k) => k.ms)))})`);
  for (const d of driver.oneOffs) console.log(`  ${d.what} at +${seconds(d.at - chaosStart)}: back after ${seconds(d.ms)}`);
  const missed = driver.missed();
  if (missed.length) console.log(`  NOT exercised (the runs finished first): ${missed.join(', ')}`);
  console.log(
    `Recovery after a kill: ${recovery.interrupted} model calls in flight on killed workers, ${recovery.retried} asked again elsewhere; kill → retry median ${seconds(recovery.medianMs)}, longest ${seconds(recovery.longestMs)}${recovery.longestKill ? ` (${recovery.longestKill})` : ''}`,
  );
  printReport(report);
  return problems(report).length === 0 && missed.length === 0;
}
