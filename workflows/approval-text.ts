/** What the model is told when a call was not run. Always explicit that nothing was done. */
import type { ApprovalDecision } from '../src/wire/types.ts';

export function rejectionText(toolName: string, shownArgs: string, decision: Extract<ApprovalDecision, { decision: 'rejected' }>): string {
  const base = `Not done: ${toolName}(${shownArgs}) was NOT run and nothing was changed`;
  return decision.reason ? `${base}, because the user rejected it. Reason: ${decision.reason}` : `${base}: the user declined.`;
}

export function denialText(toolName: string, why: string): string {
  return `Not done: ${toolName} was denied by policy (${why}). It was NOT run; do not retry it.`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.round(ms / 60_000)} min`;
}
