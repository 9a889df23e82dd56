/** What people read: the one-line run summary and the state table. */
import { formatReceipt } from '../claims/format-receipt.ts';
import type { RunResult, RunState } from '../wire/types.ts';
import type { RunSummary } from '../client/run-list.ts';

const int = new Intl.NumberFormat('en-US');

/** `turns=3 tools=2 in=815 out=70 cost=$0.002470 ms=89 status=completed`, as in the seed. */
export function summaryLine(result: RunResult, wallMs: number): string {
  const reason = result.reason && result.status !== 'completed' ? ` reason=${result.reason}` : '';
  return (
    `turns=${result.turns} tools=${result.toolRuns} in=${int.format(result.usage.promptTokens)} ` +
    `out=${int.format(result.usage.completionTokens)} cost=$${result.totalCostUsd.toFixed(6)} ` +
    `ms=${int.format(Math.round(wallMs))} status=${result.status}${reason}`
  );
}

export function answerLines(result: RunResult): string[] {
  const lines = [`answer: ${JSON.stringify(result.output ?? '')}`];
  if (result.interruption?.type === 'cancelled') lines.push(`cancelled: ${result.interruption.reason}`);
  if (result.interruption?.type === 'schedule_budget') {
    const { scheduleId, day, spentUsd, dailyBudgetUsd } = result.interruption;
    lines.push(`skipped: schedule ${scheduleId} had spent $${spentUsd.toFixed(6)} of its $${dailyBudgetUsd} daily budget on ${day}`);
  }
  if (result.error) lines.push(`error: ${result.error}`);
  // What really happened, whatever the answer says.
  if (result.receipt.length) lines.push(`receipt: ${formatReceipt(result.receipt)}`);
  for (const warning of result.warnings) lines.push(`warning: the answer claims what the receipt does not show: ${warning.message}`);
  return lines;
}

export function stateTable(state: RunState): string {
  const rows: [string, string][] = [
    ['run', state.runId],
    ['status', state.status + (state.reason ? ` (${state.reason})` : '')],
    ['goal', state.goal],
    ['model', state.model],
    ['turns', String(state.turns)],
    ['tool calls / runs', `${state.toolCalls} / ${state.toolRuns}`],
    ['tokens in / out', `${int.format(state.usage.promptTokens)} / ${int.format(state.usage.completionTokens)}`],
    ['cost', `$${state.costUsd.toFixed(6)} (with children $${state.totalCostUsd.toFixed(6)})`],
    ['progress', state.progress ?? '-'],
    ['started / updated', `${state.startedAt} / ${state.updatedAt}`],
  ];
  for (const child of state.children) {
    const waits = child.pending && waitsFor({ pending: child.pending });
    if (waits) rows.push(['waits in child', `${child.runId}${child.agent ? ` (${child.agent})` : ''}: ${waits}; decide it on that run`]);
  }
  if (state.interruption) rows.push(['interruption', JSON.stringify(state.interruption)]);
  if (state.output !== null) rows.push(['answer', state.output]);
  if (state.error) rows.push(['error', state.error]);
  if (state.receipt?.length) rows.push(['receipt', formatReceipt(state.receipt)]);
  for (const warning of state.warnings ?? []) rows.push(['warning', warning.message]);
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
}

/** `npm run agent -- list`: one line per run, newest first; a waiting run says what it waits for. */
export function runTable(runs: RunSummary[]): string {
  if (!runs.length) return 'no runs';
  const rows = runs.map((r) => [
    r.runId,
    r.status,
    r.turns === null ? '-' : String(r.turns),
    r.costUsd === null ? '-' : `$${r.costUsd.toFixed(6)}`,
    r.startedAt.replace('T', ' ').slice(0, 19),
    waitsFor(r) ?? oneLine(r.goal ?? '', 60),
  ]);
  const header = ['run', 'status', 'turns', 'cost', 'started (UTC)', 'waits for / goal'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  return [header, ...rows].map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}

function waitsFor(run: Pick<RunSummary, 'pending'>): string | null {
  if (run.pending?.kind === 'approval') return `approval of ${run.pending.toolName} (${run.pending.callKey}, risk ${run.pending.risk})`;
  if (run.pending?.kind === 'input') return `answer: ${oneLine(run.pending.question, 50)}`;
  return null;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
