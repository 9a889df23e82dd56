/**
 * The eval table, as in the seed: one row per task, then totals and mean turn time; then the claim
 * warnings (answers that claim what the run's receipt does not show), with each run's receipt.
 */
import { table } from '../table.ts';
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
    t.warnings.length,
    t.broken[0] ?? '',
  ]);
  const { totals } = report;
  const lines = [
    table(['task', 'turns', 'tools', 'wall ms', 'cost', 'status', 'result', 'trajectory', 'warnings', 'first broken expectation'], rows),
    '',
    `TOTAL turns=${totals.turns}  toolruns=${totals.toolRuns}  wall=${int.format(totals.wallMs)}ms  cost=$${totals.costUsd.toFixed(6)}  ` +
      `mean turn=${int.format(totals.meanTurnMs)}ms  warnings=${totals.warnings}  passed=${totals.passed}/${totals.tasks}`,
  ];
  const warned = report.tasks.filter((t) => t.warnings.length);
  if (warned.length) {
    lines.push('', 'claim warnings (the answer says it did what its receipt does not show):');
    for (const t of warned) {
      lines.push(`  ${t.name}`);
      for (const w of t.warnings) lines.push(`    ! ${w}`);
      lines.push(`    receipt: ${t.receipt}`);
    }
  }
  return lines.join('\n');
}
