/**
 * Retention: what `gc` removes from the store, and what it never does (docs/operations-retention.md).
 *
 * A run has finished, for the store, when its trace holds a `run_stopped` line: the workflow writes it as
 * the last thing before it ends, whatever the stop (completed, failed, a limit, cancelled). A run without one
 * (running, waiting for a person, or ended without a word by a `temporal workflow terminate`) is never
 * collected. On top of that, when the caller can ask Temporal (`isOpen`), a run Temporal still reports open
 * is skipped, and a child run (`<parent>:research:…`, `<parent>:agent:…`) goes only with its parent. A run
 * `record` wrote a recording of is kept (`keepRun`), its children too.
 *
 * Collected, per run: its trace lines, its events, and the transcript links and kept outputs it owned that no
 * other run owns (content-addressed rows are shared: a link two runs wrote goes with the last of them). The
 * side-effect ledger stays: it is what proves an effect happened once, and it is small.
 */
import { runAndAncestors } from '../wire/run-ids.ts';
import { AgentError } from '../wire/agent-error.ts';
import type { AgentStore, CollectedRun } from './store.ts';

/** How long finished runs are kept when neither `--older-than` nor AGENT_RETENTION_DAYS says. */
export const DEFAULT_RETENTION_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;
const UNITS: Record<string, number> = { d: DAY_MS, h: 60 * 60 * 1000, m: 60 * 1000, s: 1000 };

/** A retention setting that cannot be read: the message names the setting and the form it takes. */
export class RetentionSettingError extends AgentError {
  override readonly name = 'RetentionSettingError';
  readonly code = 'RetentionSetting';
}

/** `30d`, `12h`, `90m`, `45s` (or a bare number of days) → milliseconds. */
export function parseAge(text: string, setting = '--older-than'): number {
  const match = /^(\d+(?:\.\d+)?)([dhms]?)$/.exec(text.trim());
  if (!match) throw new RetentionSettingError(`${setting} "${text}" is not an age: write a number with d, h, m or s (e.g. 30d, 12h).`);
  return Number(match[1]) * UNITS[match[2] || 'd']!;
}

/** AGENT_RETENTION_DAYS (days, e.g. 30 or 7.5), else the default: how old a finished run must be to go. */
export function retentionMs(env: NodeJS.ProcessEnv = process.env): number {
  const days = env.AGENT_RETENTION_DAYS;
  if (days === undefined || days.trim() === '') return DEFAULT_RETENTION_DAYS * DAY_MS;
  if (!/^\d+(\.\d+)?$/.test(days.trim())) throw new RetentionSettingError(`AGENT_RETENTION_DAYS="${days}" is not a number of days (e.g. 30).`);
  return Number(days) * DAY_MS;
}

export interface GcOptions {
  /** Finished runs that stopped longer ago than this go. */
  olderThanMs: number;
  /** List what would go, remove nothing. */
  dryRun?: boolean;
  now?: Date;
  /** Whether Temporal still reports the run open (skipped then); rejects: the run is skipped too. */
  isOpen?: (runId: string) => Promise<boolean>;
}

export interface GcReport {
  /** Runs stopped before this (ISO) were considered. */
  cutoff: string;
  dryRun: boolean;
  /** What was removed, run by run (a dry run: the runs that would go, with zero counts). */
  collected: CollectedRun[];
  /** Runs with a `run_stopped` line before the cutoff that stay, and why. */
  skipped: { runId: string; why: string }[];
}

export async function collectGarbage(store: AgentStore, options: GcOptions): Promise<GcReport> {
  const now = options.now ?? new Date();
  const cutoff = new Date(now.getTime() - options.olderThanMs).toISOString();
  const stopped = await store.stoppedRuns(cutoff);
  const candidates = new Set(stopped.map((r) => r.runId));
  const report: GcReport = { cutoff, dryRun: options.dryRun ?? false, collected: [], skipped: [] };
  for (const { runId } of stopped) {
    const why = await reasonToKeep(store, runId, candidates, options.isOpen);
    if (why) {
      report.skipped.push({ runId, why });
      continue;
    }
    report.collected.push(options.dryRun ? { runId, kept: false, traceLines: 0, events: 0, links: 0, outputs: 0 } : await store.collectRun(runId));
  }
  return report;
}

async function reasonToKeep(store: AgentStore, runId: string, candidates: ReadonlySet<string>, isOpen: GcOptions['isOpen']): Promise<string | null> {
  // A parent still in the store that is not going now (open, kept, or too recent) keeps its children.
  for (const ancestor of runAndAncestors(runId).slice(0, -1)) {
    if (!candidates.has(ancestor) && (await store.readTrace(ancestor)).length > 0) return `its parent ${ancestor} stays`;
  }
  if (!isOpen) return null;
  try {
    return (await isOpen(runId)) ? 'Temporal reports it still open' : null;
  } catch (error) {
    return `Temporal could not say whether it is open (${(error as Error).message})`;
  }
}

/** The report as lines for a terminal. */
export function gcReportLines(report: GcReport, location: string): string[] {
  const sum = (key: 'traceLines' | 'events' | 'links' | 'outputs') => report.collected.reduce((n, r) => n + r[key], 0);
  const lines = report.dryRun
    ? [`would collect ${report.collected.length} finished run(s) that stopped before ${report.cutoff} from ${location} (dry run: nothing removed)`]
    : [
        `collected ${report.collected.length} finished run(s) that stopped before ${report.cutoff} from ${location}: ` +
          `${sum('traceLines')} trace line(s), ${sum('events')} event(s), ${sum('links')} transcript link(s), ${sum('outputs')} kept output(s)`,
      ];
  for (const run of report.collected) lines.push(`  ${report.dryRun ? 'would go' : 'gone'}: ${run.runId}`);
  for (const { runId, why } of report.skipped) lines.push(`  kept: ${runId} (${why})`);
  return lines;
}
