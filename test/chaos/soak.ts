/**
 * The soak (`npm run test:soak`, or `npm run test:chaos -- --soak --minutes M`): the chaos run's mix at a
 * steady rate (one run every `everyMs`) for `minutes`, no chaos; every ~`minutes × 3` s a sample of each
 * worker's RSS, the store's size and the server's latency (DescribeWorkflowExecution of the latest run,
 * which reads the history from PostgreSQL). After the warm-up (the first 30 %), a worker whose RSS grew by
 * more than 10 % fails the soak; so does any run that did not end as its scenario says. A table is printed
 * and written as CSV under .data/test-artifacts/, with the curves as a PNG beside it.
 *
 * Retention works as an operator would run it: at every sample, `gc`'s own selection (collectGarbage) with a
 * short retention (`retentionMs`); each run it picks is checked first (its trace, events and effects, as the
 * end of a chaos run checks them), then collected. More runs kept than the retention allows (those that
 * stopped within it, plus those still open) fails the soak: the store must not grow with the runs it served.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import pg from 'pg';
import { PROJECT_ROOT } from '../../src/paths.ts';
import { collectGarbage } from '../../src/store/retention.ts';
import { runAndAncestors } from '../../src/wire/run-ids.ts';
import { checkRuns, mergeReports, printReport, problems, type CheckReport } from './checks.ts';
import { percentile, phaseFigures, seconds, table } from './figures.ts';
import { planRun } from './mix.ts';
import { Runner, type TrackedRun } from './runner.ts';
import { writeSoakPlot } from './soak-plot.ts';
import type { Shape } from './shape.ts';

const WARM_UP = 0.3;
const MAX_RSS_GROWTH = 0.1;

interface Sample {
  atS: number;
  rssMb: number[];
  storeMb: number;
  serverMs: number;
  started: number;
  finished: number;
  /** p50 latency of the runs finished since the last sample (s). */
  p50S: number;
  /** Runs (not counting research children) whose trace is in the store after this sample's gc. */
  keptRuns: number;
  /** Runs collected by this sample's gc, in all since the start. */
  collected: number;
}

/** How many runs retention may leave in the store: those stopped within it (with a quarter's slack), and the open ones. */
function allowedRuns(retentionMs: number, everyMs: number, open: number): number {
  return Math.ceil((retentionMs / everyMs) * 1.25) + open + 2;
}

function rssMb(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Runs the soak; true when it passed. */
export async function soak(shape: Shape, options: { minutes: number; everyMs: number; retentionMs: number; log: (line: string) => void }): Promise<boolean> {
  const { log } = options;
  const durationMs = options.minutes * 60_000;
  const sampleEveryMs = Math.max(5_000, Math.round(durationMs / 20));
  const runner = new Runner(shape);
  const connection = await Connection.connect({ address: shape.cluster.address });
  const db = new pg.Client({ connectionString: shape.storeUrl });
  await db.connect();
  const samples: Sample[] = [];
  const start = Date.now();
  let index = 0;
  let lastSampleAt = start;
  let report: CheckReport | null = null;
  const checked = new Set<string>();
  const retained: string[] = [];

  // gc's selection, then each picked run checked before it goes (its children go with it).
  const collect = async (): Promise<void> => {
    const picked = await collectGarbage(shape.store, { olderThanMs: options.retentionMs, dryRun: true, isOpen: async (runId) => (await shape.agents.requireRun(runId)).open });
    const byId = new Map(runner.runs.map((r) => [r.runId, r]));
    const topLevel = (runId: string) => runAndAncestors(runId)[0]!;
    const due = [...new Set(picked.collected.map((r) => topLevel(r.runId)))].map((id) => byId.get(id)).filter((r): r is TrackedRun => !!r?.result && !checked.has(r.runId));
    if (due.length) {
      const batch = await checkRuns(shape.storeUrl, due, new Set(byId.keys()));
      report = report ? mergeReports(report, batch) : batch;
      for (const run of due) checked.add(run.runId);
    }
    for (const { runId } of picked.collected) if (checked.has(topLevel(runId))) await shape.store.collectRun(runId);
  };

  const sample = async () => {
    const now = Date.now();
    const latest = runner.runs.at(-1);
    let serverMs = NaN;
    if (latest) {
      const t = performance.now();
      await connection.workflowService.describeWorkflowExecution({ namespace: shape.cluster.namespace, execution: { workflowId: latest.runId } });
      serverMs = performance.now() - t;
    }
    await collect();
    const { rows } = await db.query<{ bytes: string }>(`SELECT pg_database_size(current_database()) AS bytes`);
    const kept = await db.query<{ runs: string }>(`SELECT count(DISTINCT run_id) AS runs FROM trace_lines WHERE run_id NOT LIKE '%:%'`);
    const window = runner.runs.filter((r) => r.finishedAt && r.finishedAt > lastSampleAt && r.finishedAt <= now).map((r) => (r.finishedAt! - r.startedAt) / 1000);
    lastSampleAt = now;
    samples.push({
      atS: Math.round((now - start) / 1000),
      rssMb: shape.workers.map((w) => rssMb(w.host.child.pid)),
      storeMb: Number(rows[0]!.bytes) / 1024 / 1024,
      serverMs,
      started: runner.runs.length,
      finished: runner.runs.filter((r) => r.finishedAt).length,
      p50S: percentile(window.sort((a, b) => a - b), 0.5),
      keptRuns: Number(kept.rows[0]!.runs),
      collected: checked.size,
    });
    // Only the driver keeps these; nothing reads them in a soak.
    shape.scripted.requests.length = 0;
    const s = samples.at(-1)!;
    const allowed = allowedRuns(options.retentionMs, options.everyMs, s.started - s.finished);
    if (s.keptRuns > allowed) retained.push(`+${s.atS} s: ${s.keptRuns} runs kept in the store, retention allows ${allowed}`);
    log(`soak +${s.atS} s: RSS ${s.rssMb.map((r) => r.toFixed(0)).join('/')} MB, store ${s.storeMb.toFixed(1)} MB (${s.keptRuns} runs kept, ${s.collected} collected), server ${s.serverMs.toFixed(0)} ms, ${s.finished}/${s.started} runs finished`);
  };

  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      await sample().catch((error: unknown) => log(`a sample failed: ${(error as Error).message}`));
      await sleep(sampleEveryMs);
    }
  })();

  log(`soak: one run every ${seconds(options.everyMs)} for ${options.minutes} min, ${shape.workers.length} workers, sampling (and gc with a ${seconds(options.retentionMs)} retention) every ${seconds(sampleEveryMs)}`);
  const runs = await runner.steady(() => planRun('soak', index++, shape.workspaceRoot), options.everyMs, start + durationMs, start + durationMs + 5 * 60_000);
  const end = Date.now();
  sampling = false;
  await sampler;
  await sample();
  // What gc has not taken yet is checked now.
  const rest = await checkRuns(shape.storeUrl, runs.filter((r) => !checked.has(r.runId)), new Set(runner.runs.map((r) => r.runId)));
  const checks = report ? mergeReports(report, rest) : rest;
  await runner.close();
  await db.end();
  await connection.close();

  const rows = samples.map((s) => [s.atS, ...s.rssMb.map((r) => r.toFixed(0)), s.storeMb.toFixed(1), s.keptRuns, s.collected, Number.isFinite(s.serverMs) ? s.serverMs.toFixed(1) : '', s.started, s.finished, Number.isFinite(s.p50S) ? s.p50S.toFixed(2) : '']);
  const header = ['t s', ...shape.workers.map((_, i) => `worker ${i + 1} RSS MB`), 'store MB', 'runs kept', 'collected', 'server ms', 'started', 'finished', 'p50 s'];
  console.log(`\nSoak: ${options.minutes} min, one run every ${seconds(options.everyMs)}, ${shape.workers.length} workers, ${new Date(start).toISOString()}`);
  console.log(table([header, ...rows.map((r) => r.map(String))]));
  const dir = path.join(PROJECT_ROOT, '.data', 'test-artifacts');
  mkdirSync(dir, { recursive: true });
  const csv = path.join(dir, `soak-${new Date(start).toISOString().replace(/[:.]/g, '-')}.csv`);
  writeFileSync(csv, [header, ...rows].map((r) => r.join(',')).join('\n') + '\n');
  const plot = await writeSoakPlot(csv.replace(/\.csv$/, ''), `Soak: ${options.minutes} min, one run every ${seconds(options.everyMs)}, retention ${seconds(options.retentionMs)}`, [
    { title: 'Worker RSS', unit: 'MB', series: shape.workers.map((_, i) => ({ name: `worker ${i + 1}`, points: samples.map((s) => [s.atS, s.rssMb[i]!] as const) })) },
    {
      title: 'Store',
      unit: '',
      series: [
        { name: 'size (MB)', points: samples.map((s) => [s.atS, s.storeMb] as const) },
        { name: 'runs kept', points: samples.map((s) => [s.atS, s.keptRuns] as const) },
      ],
    },
    { title: 'Server latency (DescribeWorkflowExecution)', unit: 'ms', series: [{ name: 'latency', points: samples.map((s) => [s.atS, s.serverMs] as const) }] },
  ]).catch((error: unknown) => [`(no plot: ${(error as Error).message.split('\n')[0]})`]);
  const figures = phaseFigures('soak', runs, start, end);
  console.log(`\n${figures.finished}/${figures.runs} runs finished: ${figures.runsPerMin.toFixed(1)} runs/min, p50 ${figures.p50S.toFixed(1)} s, p99 ${figures.p99S.toFixed(1)} s. CSV: ${path.relative(PROJECT_ROOT, csv)}; curves: ${plot.map((f) => path.relative(PROJECT_ROOT, f)).join(', ')}`);

  // RSS after the warm-up: the mean of the first two samples past it against the mean of the last two.
  const warm = samples.filter((s) => s.atS * 1000 >= WARM_UP * durationMs);
  const growth: string[] = [];
  if (warm.length >= 4) {
    shape.workers.forEach((_, i) => {
      const mean = (xs: Sample[]) => xs.reduce((sum, s) => sum + s.rssMb[i]!, 0) / xs.length;
      const from = mean(warm.slice(0, 2));
      const to = mean(warm.slice(-2));
      const grew = (to - from) / from;
      console.log(`worker ${i + 1}: RSS ${from.toFixed(0)} → ${to.toFixed(0)} MB after the warm-up (${grew >= 0 ? '+' : ''}${(grew * 100).toFixed(1)} %)`);
      if (!(grew <= MAX_RSS_GROWTH)) growth.push(`worker ${i + 1}: RSS grew ${(grew * 100).toFixed(1)} % after the warm-up (more than ${MAX_RSS_GROWTH * 100} %)`);
    });
  } else growth.push(`only ${warm.length} samples after the warm-up: run the soak longer`);
  const first = samples[0]!;
  const last = samples.at(-1)!;
  console.log(`store: ${first.storeMb.toFixed(1)} → ${last.storeMb.toFixed(1)} MB; runs kept at most ${Math.max(...samples.map((s) => s.keptRuns))} (retention ${seconds(options.retentionMs)}), ${last.collected} collected after their checks; server latency p50 ${percentile(samples.map((s) => s.serverMs).filter(Number.isFinite).sort((a, b) => a - b), 0.5).toFixed(1)} ms`);

  printReport(checks);
  for (const line of [...growth, ...retained]) console.log(`  ✗ ${line}`);
  return problems(checks).length === 0 && growth.length === 0 && retained.length === 0;
}
