/** The eval table, as in the seed: one row per task, then totals and mean turn time. */
import { table } from '../stats.ts';
import type { EvalReport } from './run-eval.ts';

const int = new Intl.NumberFormat('en-US');
const mark = (ok: boolean) => (ok ? '✓' : '✗');

export function renderReport(report: EvalReport): string {
  const rows = report.tasks.map((t) => [
    t.name,
    t.turns,
    t.toolRuns,
    int.format(t.wallMs),
    `$${t.costUsd.toFixed(6)}`,
    t.status,
    mark(t.resultOk),
    mark(t.trajectoryOk),
    t.broken[0] ?? '',
  ]);
  const { totals } = report;
  return [
    table(['task', 'turns', 'tools', 'wall ms', 'cost', 'status', 'result', 'trajectory', 'first broken expectation'], rows),
    '',
    `TOTAL turns=${totals.turns}  toolruns=${totals.toolRuns}  wall=${int.format(totals.wallMs)}ms  cost=$${totals.costUsd.toFixed(6)}  ` +
      `mean turn=${int.format(totals.meanTurnMs)}ms  passed=${totals.passed}/${totals.tasks}`,
  ].join('\n');
}
