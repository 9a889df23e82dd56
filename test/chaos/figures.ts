/** The figures a chaos or soak run prints: throughput, run latency percentiles, recovery after a kill. */
import type { RecordedRequest } from '../../src/scripted-model/server.ts';
import type { Disruption } from './driver.ts';
import type { TrackedRun } from './runner.ts';

export interface PhaseFigures {
  name: string;
  runs: number;
  finished: number;
  wallS: number;
  runsPerMin: number;
  p50S: number;
  p99S: number;
  maxS: number;
}

/** The value at `p` (0..1) of sorted `values`, nearest rank. */
export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

export function phaseFigures(name: string, runs: readonly TrackedRun[], startedAt: number, endedAt: number): PhaseFigures {
  const done = runs.filter((r) => r.finishedAt !== undefined);
  const latencies = done.map((r) => (r.finishedAt! - r.startedAt) / 1000).sort((a, b) => a - b);
  const wallS = (endedAt - startedAt) / 1000;
  return {
    name,
    runs: runs.length,
    finished: done.length,
    wallS,
    runsPerMin: (done.length / wallS) * 60,
    p50S: percentile(latencies, 0.5),
    p99S: percentile(latencies, 0.99),
    maxS: latencies.at(-1) ?? NaN,
  };
}

export interface Recovery {
  /** Model calls in flight on a killed worker (the scripted server saw them aborted at the kill). */
  interrupted: number;
  /** Of those, how many were asked again (by another worker) afterwards. */
  retried: number;
  /** Kill → the retry of the interrupted call reaching the model server: the longest, and the median (ms). */
  longestMs: number;
  medianMs: number;
  /** The kill with the longest recovery. */
  longestKill?: string;
}

/**
 * Recovery after each SIGKILL, from the model server's side: every model call of a tracked run that was
 * in flight when a worker died (recorded aborted within 2 s of the kill) is asked again once another
 * worker has the activity (after its heartbeat timeout); the time from the kill to that retry is how long
 * the run stood still.
 */
export function recoveryAfterKills(kills: readonly Disruption[], requests: readonly RecordedRequest[], runTag: (r: RecordedRequest) => string | null): Recovery {
  const waits: { ms: number; kill: string }[] = [];
  let interrupted = 0;
  for (const kill of kills) {
    for (const request of requests) {
      const end = request.startedAt + request.ms;
      if (!request.aborted || request.startedAt > kill.at || end < kill.at - 100 || end > kill.at + 2000) continue;
      const tag = runTag(request);
      if (!tag) continue;
      interrupted++;
      const retry = requests.find((r) => r.startedAt > kill.at && r.id > request.id && r.turn === request.turn && runTag(r) === tag && r.scenario === request.scenario);
      if (retry) waits.push({ ms: retry.startedAt - kill.at, kill: kill.what });
    }
  }
  const sorted = waits.map((w) => w.ms).sort((a, b) => a - b);
  const longest = waits.reduce<{ ms: number; kill: string } | undefined>((max, w) => (!max || w.ms > max.ms ? w : max), undefined);
  return { interrupted, retried: waits.length, longestMs: longest?.ms ?? NaN, medianMs: percentile(sorted, 0.5), ...(longest ? { longestKill: longest.kill } : {}) };
}

export const seconds = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : '–');

export function table(rows: readonly (readonly (string | number)[])[]): string {
  const cells = rows.map((row) => row.map((c) => (typeof c === 'number' ? (Number.isInteger(c) ? String(c) : c.toFixed(1)) : c)));
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  return cells.map((row) => row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')).join('\n');
}
