/** What people read: the one-line run summary and the state table. */
import type { RunResult, RunState } from '../workflows/types.ts';

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
  if (result.error) lines.push(`error: ${result.error}`);
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
  if (state.interruption) rows.push(['interruption', JSON.stringify(state.interruption)]);
  if (state.output !== null) rows.push(['answer', state.output]);
  if (state.error) rows.push(['error', state.error]);
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
}
