/**
 * A run's trajectory as a person compares two of them: status, turns, tool runs, approvals asked, cost,
 * receipt, and what happened to each call (by call key). Built from a recording (its trace and result),
 * so a recorded run and its replay are read the same way. Pure.
 */
import { formatReceipt } from '../claims/format-receipt.ts';
import { costOf, recordedRunPrice } from '../wire/pricing.ts';
import { listPrice } from '../providers/prices.ts';
import { isRecordedModel } from '../wire/replay.ts';
import type { RunStatus, StopReason } from '../wire/types.ts';
import { recordingTree, type Recording } from './schema.ts';

export interface CallStory {
  callKey: string;
  tool: string;
  /** The arguments as the trace shows them (redacted). */
  args: string;
  /** What happened, in order: "asked approval: …", "approved", "ran: ok", "deduplicated (same as t1.1)", … */
  steps: string[];
  askedApproval: boolean;
  ran: boolean;
}

export interface Trajectory {
  status: RunStatus | 'running';
  reason: StopReason | null;
  error: string | null;
  output: string | null;
  /** Turns with the children's. */
  turns: number;
  toolRuns: number;
  approvalsAsked: number;
  /** Spend with the children's, in USD. */
  costUsd: number;
  tokens: { prompt: number; completion: number };
  receipt: string;
  calls: CallStory[];
}

export function trajectoryOf(recording: Recording): Trajectory {
  const calls = new Map<string, CallStory>();
  const story = (callKey: string, tool: string, args = ''): CallStory => {
    let s = calls.get(callKey);
    if (!s) calls.set(callKey, (s = { callKey, tool, args, steps: [], askedApproval: false, ran: false }));
    if (!s.args && args) s.args = args;
    return s;
  };
  for (const line of recording.trace) {
    switch (line.type) {
      case 'approval_required': {
        const s = story(line.callKey, line.toolName, line.args);
        s.askedApproval = true;
        s.steps.push(`asked approval (${line.why})`);
        break;
      }
      case 'approval_decided':
        story(line.callKey, line.toolName).steps.push(line.decision === 'approved' ? 'approved' : `rejected${line.reason ? ` (${line.reason})` : ''}`);
        break;
      case 'tool_denied':
        story(line.callKey, line.toolName).steps.push(`denied (${line.why})`);
        break;
      case 'tool_deduplicated':
        story(line.callKey, line.toolName).steps.push(`deduplicated (same as ${line.sameAs})`);
        break;
      case 'tool_start':
        story(line.callKey, line.toolName, line.args).ran = true;
        break;
      case 'tool_result':
        story(line.callKey, line.toolName).steps.push(line.ok ? 'ran: ok' : `ran: failed (${clip(line.error ?? 'error', 60)})`);
        break;
      case 'input_required':
        story(line.callKey, 'ask_user').steps.push('asked the user');
        break;
      case 'input_received':
        story(line.callKey, 'ask_user').steps.push('answered');
        break;
    }
  }
  const result = recording.result;
  const usage = [...recordingTree(recording)].reduce(
    (sum, { recording: r }) => ({ prompt: sum.prompt + r.turns.reduce((n, t) => n + t.usage.promptTokens, 0), completion: sum.completion + r.turns.reduce((n, t) => n + t.usage.completionTokens, 0) }),
    { prompt: 0, completion: 0 },
  );
  return {
    status: result?.status ?? 'running',
    reason: result?.reason ?? null,
    error: result?.error ?? null,
    output: result?.output ?? null,
    turns: result?.totalTurns ?? recording.turns.length,
    toolRuns: result?.toolRuns ?? recording.trace.filter((l) => l.type === 'tool_start').length,
    approvalsAsked: recording.trace.filter((l) => l.type === 'approval_required').length,
    costUsd: result?.totalCostUsd ?? 0,
    tokens: usage,
    receipt: formatReceipt(result?.receipt ?? []),
    calls: [...calls.values()].sort(byCallKey),
  };
}

/**
 * A replay's spend at the recorded model's prices (a replay's model is `recorded:…`, priced as the scripted
 * model), so the two columns compare.
 */
export function costAtRecordedPrices(replay: Recording, original: Recording): number {
  // A recording keeps the run's input; an agent's run that named no model is priced at the scripted price.
  const model = original.input.model ?? '';
  if (isRecordedModel(model)) return trajectoryOf(replay).costUsd;
  const price = listPrice(model) ?? recordedRunPrice(model);
  return [...recordingTree(replay)].reduce((sum, { recording: r }) => sum + costOf({ promptTokens: r.turns.reduce((n, t) => n + t.usage.promptTokens, 0), completionTokens: r.turns.reduce((n, t) => n + t.usage.completionTokens, 0) }, price), 0);
}

/** Orders call keys `t<turn>.<n>` by turn, then n (provider ids, in older runs, after them by name). */
function byCallKey(a: { callKey: string }, b: { callKey: string }): number {
  const parse = (k: string) => /^t(\d+)\.(\d+)$/.exec(k)?.slice(1).map(Number) ?? [Number.MAX_SAFE_INTEGER, 0];
  const [ta, na] = parse(a.callKey);
  const [tb, nb] = parse(b.callKey);
  return ta! - tb! || na! - nb! || a.callKey.localeCompare(b.callKey);
}

export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export { byCallKey };
