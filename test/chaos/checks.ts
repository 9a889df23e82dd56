/**
 * What must hold after the chaos: every run ended as its scenario says (none lost, none stuck); every
 * approved side effect happened exactly once and no other one did (the workspaces' outbox and access.log
 * against the store's effect ledger and the runs' recorded decisions); every trace (and its research
 * children's) is seq 1..n without a gap, ending in run_stopped with the run's status; every run's event
 * stream is ids 1..n without a gap. Read from the store's PostgreSQL directly, as an auditor would.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { currentLines, type TraceRow } from '../../src/store/trace-tasks.ts';
import { researchChildRunId } from '../../src/wire/run-ids.ts';
import type { TraceLine } from '../../src/wire/trace-events.ts';
import { wrongOutcome } from './mix.ts';
import type { TrackedRun } from './runner.ts';

export interface CheckReport {
  runs: number;
  lost: string[];
  stuck: string[];
  wrong: string[];
  effects: string[];
  traces: string[];
  events: string[];
  /** Approved side effects seen exactly once (outbox file or deleted access.log, with its ledger entry). */
  effectsOnce: number;
  tracesChecked: number;
}

const SIDE_EFFECT_TOOLS = ['delete_file', 'send_message'];

export const problems = (r: CheckReport) => [...r.lost, ...r.stuck, ...r.wrong, ...r.effects, ...r.traces, ...r.events];

/**
 * Checks `runs`. `started` names every run the driver started (default: `runs`): a ledger entry of a run
 * outside it is one nobody started. The soak checks runs in batches, each just before `gc` collects it.
 */
export async function checkRuns(storeUrl: string, runs: TrackedRun[], started: ReadonlySet<string> = new Set(runs.map((r) => r.runId))): Promise<CheckReport> {
  const report: CheckReport = { runs: runs.length, lost: [], stuck: [], wrong: [], effects: [], traces: [], events: [], effectsOnce: 0, tracesChecked: 0 };
  for (const run of runs) {
    if (!run.result) {
      (/not found/i.test(run.lastError ?? '') ? report.lost : report.stuck).push(`${run.runId} (${run.kind}): no result${run.lastError ? `; last error: ${run.lastError.slice(0, 200)}` : ''}`);
      continue;
    }
    const wrong = wrongOutcome(run, run.result);
    if (wrong) report.wrong.push(`${run.runId} (${run.kind}${run.decision ? `, ${run.decision}` : ''}): ${wrong}`);
  }

  const db = new pg.Client({ connectionString: storeUrl });
  await db.connect();
  try {
    const ids = runs.map((r) => r.runId);
    const children = runs.filter((r) => r.kind === 'research').map((r) => r.runId);
    const traces = await finishedTraces(db, ids, children);
    checkTraces(report, runs, traces);
    await checkEvents(db, report, ids);
    await checkEffects(db, report, runs, started);
  } finally {
    await db.end();
  }
  return report;
}

/** The traces of `ids` and of their research children, once each ends in run_stopped (the sink may still be writing): at most a minute. */
async function finishedTraces(db: pg.Client, ids: string[], researchParents: string[]): Promise<Map<string, TraceLine[]>> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { rows } = await db.query<TraceRow & { run_id: string }>(
      `SELECT run_id, line, run_start_ms, history_length FROM trace_lines WHERE run_id = ANY($1) OR run_id LIKE ANY($2) ORDER BY run_id, seq`,
      [ids, researchParents.map((p) => `${researchChildRunId(p, '')}%`)],
    );
    const rowsByRun = new Map<string, TraceRow[]>();
    for (const row of rows) rowsByRun.set(row.run_id, [...(rowsByRun.get(row.run_id) ?? []), row]);
    // As the store reads a trace: without the lines of a workflow task Temporal refused (store/trace-tasks.ts).
    const traces = new Map([...rowsByRun].map(([runId, runRows]) => [runId, currentLines(runRows)]));
    const open = [...traces.values()].filter((t) => t.at(-1)?.type !== 'run_stopped').length;
    if (open === 0 || Date.now() > deadline) return traces;
    await sleep(1000);
  }
}

function checkTraces(report: CheckReport, runs: TrackedRun[], traces: Map<string, TraceLine[]>): void {
  const byId = new Map(runs.map((r) => [r.runId, r]));
  for (const run of runs) {
    if (!traces.has(run.runId)) report.traces.push(`${run.runId}: no trace`);
    if (run.kind === 'research' && ![...traces.keys()].some((id) => id !== run.runId && id.startsWith(researchChildRunId(run.runId, '')))) {
      report.traces.push(`${run.runId}: no trace of its research child`);
    }
  }
  for (const [runId, trace] of traces) {
    report.tracesChecked++;
    const seqs = trace.map((l) => l.seq);
    const gap = seqs.findIndex((seq, i) => seq !== i + 1);
    if (gap >= 0) report.traces.push(`${runId}: seq ${seqs[gap]} at position ${gap + 1} (not 1..n): ${trace.map((l) => `${l.seq} ${l.type} ${l.at.slice(11, 23)}`).join(', ')}`);
    const last = trace.at(-1);
    const run = byId.get(runId);
    if (last?.type !== 'run_stopped') report.traces.push(`${runId}: ends with ${last?.type ?? 'nothing'}, not run_stopped`);
    else if (run?.result && last.status !== run.result.status) report.traces.push(`${runId}: run_stopped ${last.status}, the result says ${run.result.status}`);
    if (!run) continue;
    const continued = trace.filter((l) => l.type === 'continued_as_new').length;
    if (run.kind === 'continue-as-new' && continued < 2) report.traces.push(`${runId}: ${continued} continue-as-new, expected 2 (3 turns, every turn)`);
    const decided = trace.filter((l) => l.type === 'approval_decided');
    if (run.decision) {
      const expected = run.decision === 'approve' ? 'approved' : 'rejected';
      if (decided.length !== 1 || decided[0]!.decision !== expected || (run.decided && (decided[0]!.callKey !== run.decided.callKey || decided[0]!.by !== run.decided.by))) {
        report.traces.push(`${runId}: approval_decided ${JSON.stringify(decided.map((d) => [d.callKey, d.decision, d.by]))}, expected one ${expected} by ${run.decided?.by ?? '?'}`);
      }
    } else if (decided.length) report.traces.push(`${runId}: a decision nobody sent: ${JSON.stringify(decided)}`);
  }
}

async function checkEvents(db: pg.Client, report: CheckReport, ids: string[]): Promise<void> {
  const { rows } = await db.query<{ run_id: string; ids: string[] }>(`SELECT run_id, array_agg(id ORDER BY id) AS ids FROM run_events WHERE run_id = ANY($1) GROUP BY run_id`, [ids]);
  const seen = new Set<string>();
  for (const row of rows) {
    seen.add(row.run_id);
    const gap = row.ids.map(Number).findIndex((id, i) => id !== i + 1);
    if (gap >= 0) report.events.push(`${row.run_id}: event id ${row.ids[gap]} at position ${gap + 1} (not 1..n)`);
  }
  for (const id of ids) if (!seen.has(id)) report.events.push(`${id}: no events`);
}

async function checkEffects(db: pg.Client, report: CheckReport, runs: TrackedRun[], started: ReadonlySet<string>): Promise<void> {
  const { rows } = await db.query<{ key: string; tool: string; phase: string; detail: string }>(`SELECT key, tool, phase, detail FROM effects WHERE tool = ANY($1)`, [SIDE_EFFECT_TOOLS]);
  const byRun = new Map<string, typeof rows>();
  for (const row of rows) {
    const runId = row.key.slice(0, row.key.indexOf(':'));
    byRun.set(runId, [...(byRun.get(runId) ?? []), row]);
  }
  for (const runId of byRun.keys()) if (!started.has(runId) && runId.startsWith('chaos-')) report.effects.push(`${runId}: a ledger entry of a run nobody started`);
  for (const run of runs) {
    const entries = byRun.get(run.runId) ?? [];
    const sent = existsSync(path.join(run.workspace, 'outbox')) ? readdirSync(path.join(run.workspace, 'outbox')).length : 0;
    const deleted = !existsSync(path.join(run.workspace, 'access.log'));
    const approved = run.decision === 'approve';
    const tool = run.kind === 'delete' ? 'delete_file' : run.kind === 'send' ? 'send_message' : null;
    const where = `${run.runId} (${run.kind}${run.decision ? `, ${run.decision}d` : ''})`;
    if (tool && approved) {
      const ok = entries.length === 1 && entries[0]!.tool === tool && entries[0]!.phase === 'done' && (!run.decided || entries[0]!.key === `${run.runId}:${run.decided.callKey}`);
      if (!ok) report.effects.push(`${where}: ledger ${JSON.stringify(entries.map((e) => [e.key, e.tool, e.phase]))}, expected one done ${tool}`);
      const onDisk = tool === 'send_message' ? sent === 1 && !deleted : deleted && sent === 0;
      if (!onDisk) report.effects.push(`${where}: ${sent} message(s) in the outbox, access.log ${deleted ? 'deleted' : 'kept'}`);
      if (tool === 'delete_file' && ok && (JSON.parse(entries[0]!.detail) as { existed?: boolean }).existed !== true) report.effects.push(`${where}: the ledger says access.log did not exist when deleted`);
      if (ok && onDisk) report.effectsOnce++;
    } else {
      // Rejected, or a kind that never asks: no side effect, on disk or in the ledger.
      if (entries.length) report.effects.push(`${where}: unapproved ledger entries ${JSON.stringify(entries.map((e) => [e.key, e.tool, e.phase]))}`);
      if (sent || deleted) report.effects.push(`${where}: unapproved effect: ${sent} message(s) in the outbox, access.log ${deleted ? 'deleted' : 'kept'}`);
    }
  }
}

/** Two batches' reports as one. */
export function mergeReports(a: CheckReport, b: CheckReport): CheckReport {
  return {
    runs: a.runs + b.runs,
    lost: [...a.lost, ...b.lost],
    stuck: [...a.stuck, ...b.stuck],
    wrong: [...a.wrong, ...b.wrong],
    effects: [...a.effects, ...b.effects],
    traces: [...a.traces, ...b.traces],
    events: [...a.events, ...b.events],
    effectsOnce: a.effectsOnce + b.effectsOnce,
    tracesChecked: a.tracesChecked + b.tracesChecked,
  };
}

/** The report, as printed at the end of a chaos or soak run; the problems, at most 40 of them. */
export function printReport(report: CheckReport): void {
  console.log(
    `\nChecks over ${report.runs} runs (${report.tracesChecked} traces, research children included): ` +
      `${report.lost.length} lost, ${report.stuck.length} stuck, ${report.wrong.length} ended wrong; ` +
      `${report.effectsOnce} approved side effects exactly once, ${report.effects.length} effect problems; ` +
      `${report.traces.length} trace problems, ${report.events.length} event-stream problems.`,
  );
  const all = problems(report);
  for (const line of all.slice(0, 40)) console.log(`  ✗ ${line}`);
  if (all.length > 40) console.log(`  … and ${all.length - 40} more`);
  console.log(all.length ? 'FAILED' : 'PASSED');
}
