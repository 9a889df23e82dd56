/**
 * What Temporal's Web UI and CLI show of a run without opening a payload (the SDK's user metadata): a
 * one-line summary per activity, timer and child run, the run's static summary and details, and its
 * current details. Pure and deterministic (the workflow builds most of them; the client builds the
 * run's static ones), and never a redacted value: a tool's `redact` fields are masked as in the trace,
 * and text from people or the model (a goal, a question) has what looks like a credential or an address
 * masked. Summaries are recorded in history (encrypted with the payloads under AGENT_PAYLOAD_KEY).
 */
import { REDACTED } from './redact.ts';
import type { RunInput, RunLimits, RunPolicy } from './run-input.ts';
import type { RunState } from './types.ts';

/** A summary line stays under this many characters (the UI shows one line). */
export const SUMMARY_MAX_CHARS = 160;
/** One argument's value in a summary. */
const ARG_MAX_CHARS = 60;
/** A goal in the run's summary. */
const GOAL_MAX_CHARS = 100;

/** One line, at most `max` characters: whitespace runs folded, a cut marked with `…`. */
export function oneLine(text: string, max = SUMMARY_MAX_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/**
 * Text from a person or the model with what looks like a secret or a personal address masked: API keys and
 * tokens (`sk-…`, `ghp_…`, `AKIA…`, `Bearer …`), `password=…`-style pairs, e-mail addresses, long hex or
 * base64 runs. A summary is shown to everyone who can list runs; the run's input keeps the text itself.
 */
export function maskSecrets(text: string): string {
  return text
    .replace(/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`)
    .replace(/\b(password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key)(\s*[:=]\s*)("[^"]*"|'[^']*'|\S+)/gi, `$1$2${REDACTED}`)
    .replace(/\b(?:sk|pk|rk)-[A-Za-z0-9_-]{12,}/g, REDACTED)
    .replace(/\b(?:ghp|gho|ghs|ghu|github_pat|xox[abp])_[A-Za-z0-9_-]{12,}/g, REDACTED)
    .replace(/\bAKIA[0-9A-Z]{16}\b/g, REDACTED)
    .replace(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, REDACTED)
    .replace(/\b[A-Fa-f0-9]{32,}\b/g, REDACTED)
    // A long run of key-like characters with both letters and digits (a path has slashes or dots; a word has no digits).
    .replace(/(?=[A-Za-z0-9+_-]*\d)(?=[A-Za-z0-9+_-]*[A-Za-z])[A-Za-z0-9+_-]{40,}={0,2}/g, REDACTED);
}

/** An argument value as a summary shows it: strings as they are (secrets masked), anything else as JSON; cut. */
function shownValue(value: unknown): string {
  const text = typeof value === 'string' ? maskSecrets(value) : JSON.stringify(value) ?? String(value);
  return oneLine(text, ARG_MAX_CHARS);
}

/**
 * A tool call's activity summary: `read_file errors.log`, `delete_file access.log (approved by alice)`,
 * `send_message to=[redacted] text=…`. One argument shows as its value, several as `name=value`;
 * the contract's `redact` fields are masked, each value and the whole line cut.
 */
export function toolCallSummary(toolName: string, args: Readonly<Record<string, unknown>>, redact: readonly string[], approved?: { by?: string | undefined }): string {
  const entries = Object.entries(args).filter(([, v]) => v !== undefined);
  const shown = (name: string, value: unknown) => (redact.includes(name) ? REDACTED : shownValue(value));
  const argText = entries.length === 1 ? shown(...entries[0]!) : entries.map(([name, value]) => `${name}=${shown(name, value)}`).join(' ');
  const approval = !approved ? '' : approved.by ? ` (approved by ${oneLine(maskSecrets(approved.by), 40)})` : ' (approved)';
  return oneLine(`${toolName}${argText ? ` ${argText}` : ''}`, SUMMARY_MAX_CHARS - approval.length) + approval;
}

/** The model call's summary: `model gpt-4.1-mini · turn 3`. */
export function modelCallSummary(model: string, turn: number): string {
  return oneLine(`model ${model} · turn ${turn}`);
}

/** A research child's summary (its activity-like line in the parent's timeline and its own run's summary). */
export function researchSummary(question: string): string {
  return oneLine(`research: ${maskSecrets(question)}`);
}

/** The wall-time timer. */
export function wallTimerSummary(maxWallMs: number): string {
  return `wall-time limit (${duration(maxWallMs)})`;
}

/** The approval timeout's timer. */
export function approvalTimerSummary(toolName: string, callKey: string, timeoutMs: number): string {
  return oneLine(`approval timeout: ${toolName} ${callKey} (${duration(timeoutMs)})`);
}

/** A wait on a durable timer before calling again through a store outage. */
export function storeWaitSummary(what: string): string {
  return oneLine(`waiting for the store (${what})`);
}

/** What the run is, in one line: its goal (cut, secrets masked), the agent, the model. */
export function runStaticSummary(run: { goal: string; agent?: string | undefined; model?: string | undefined }): string {
  const who = [run.agent ? `agent ${run.agent}` : null, run.model ? `model ${run.model}` : null].filter(Boolean).join(' · ');
  const goal = oneLine(maskSecrets(run.goal), GOAL_MAX_CHARS);
  return oneLine(who ? `${goal} — ${who}` : goal);
}

/**
 * The run's settings as the UI's details panel shows them (Temporal markdown). `limits`: the limits the run
 * runs under, or null when an agent decides them (then `limitsSet` are those the run's input sets).
 */
export function runStaticDetails(run: {
  agent?: string | undefined;
  model?: string | undefined;
  limits: RunLimits | null;
  limitsSet?: Partial<RunLimits> | undefined;
  policy?: RunPolicy | undefined;
  tools?: readonly string[] | undefined;
}): string {
  const { limits, policy } = run;
  const limitsLine = limits
    ? `${limits.maxTurns} turns · budget ${limits.maxBudgetUsd} USD` +
      (limits.maxWallMs !== undefined ? ` · wall time ${duration(limits.maxWallMs)}` : '') +
      (limits.maxToolCalls !== undefined ? ` · ${limits.maxToolCalls} tool runs` : '')
    : `the agent's` + (run.limitsSet && Object.keys(run.limitsSet).length ? `, with ${Object.entries(run.limitsSet).map(([k, v]) => `${k} ${v}`).join(', ')}` : '');
  const policyLine = run.agent && !policy
    ? `the agent's`
    : `medium-risk quota ${policy?.mediumQuota ?? 5}` +
      ` · extreme allowed: ${policy?.allowExtreme?.length ? policy.allowExtreme.join(', ') : 'none'}` +
      (policy?.requireApproval?.length ? ` · always ask: ${policy.requireApproval.join(', ')}` : '') +
      (policy?.approvalTimeoutMs !== undefined ? ` · approval timeout ${duration(policy.approvalTimeoutMs)}` : '');
  const lines = [
    run.agent ? `**agent** ${run.agent}` : null,
    run.model ? `**model** ${run.model}` : null,
    `**limits** ${limitsLine}`,
    `**policy** ${policyLine}`,
    run.tools ? `**tools** ${run.tools.join(', ') || '(none)'}` : null,
  ];
  return markdownList(lines.filter((l): l is string => l !== null));
}

/** The static summary and details a run starts with (`AgentClient.startRun`). */
export function runStartMetadata(input: Pick<RunInput, 'goal' | 'agent' | 'model' | 'limits' | 'policy' | 'tools'>, defaults: RunLimits): { staticSummary: string; staticDetails: string } {
  const byAgent = input.agent !== undefined;
  return {
    staticSummary: runStaticSummary(input),
    staticDetails: runStaticDetails({
      agent: input.agent,
      model: input.model,
      limits: byAgent ? null : { ...defaults, ...input.limits },
      limitsSet: input.limits,
      policy: input.policy,
      tools: input.tools,
    }),
  };
}

/**
 * The run's current details (Temporal markdown; answered by a live worker): status, turn, cost against
 * the budget, what it waits for (the call key and the hash an approval quotes), the last progress label.
 * Only redacted arguments and masked text, as `state.pending` holds them.
 */
export function runCurrentDetails(state: Readonly<RunState>, limits: Pick<RunLimits, 'maxTurns' | 'maxBudgetUsd'>): string {
  const lines = [
    `**status** ${state.status}${state.reason ? ` (${state.reason})` : ''}`,
    `**turn** ${state.turns} of ${limits.maxTurns} · **tool runs** ${state.toolRuns}`,
    `**cost** ${state.totalCostUsd.toFixed(6)} USD of ${limits.maxBudgetUsd} USD`,
  ];
  const pending = state.pending;
  if (pending?.kind === 'approval') {
    lines.push(`**waiting for approval** ${toolCallSummary(pending.toolName, pending.args, [])} · call ${pending.callKey} · argsHash ${pending.argsHash} · risk ${pending.risk}`);
  } else if (pending?.kind === 'input') {
    lines.push(`**waiting for an answer** call ${pending.callKey}: ${oneLine(maskSecrets(pending.question))}`);
  }
  const running = state.children.filter((c) => c.status === 'running').length;
  if (running) lines.push(`**research runs** ${running} running`);
  if (state.progress) lines.push(`**progress** ${oneLine(maskSecrets(state.progress))}`);
  return markdownList(lines);
}

/**
 * Lines as a Markdown list (the UI renders details as Markdown: single newlines would run together). No
 * `$` anywhere in details: the UI reads text between two of them as a formula.
 */
function markdownList(lines: readonly string[]): string {
  return lines.map((l) => `- ${l}`).join('\n');
}

function duration(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000} d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms >= 1000) return `${Math.round(ms / 100) / 10} s`;
  return `${ms} ms`;
}
