/**
 * A recording next to its replay: the side-by-side trajectory (status, turns, tool runs, approvals asked,
 * cost, receipt, each call), the conversation's divergences turn by turn, and what changed in plain
 * sentences ("with mediumQuota 2, write_file #3 (t3.1) would have waited for approval"). Pure.
 */
import { firstDifference } from './conversation.ts';
import type { Recording } from './schema.ts';
import { byCallKey, clip, costAtRecordedPrices, trajectoryOf, type CallStory, type Trajectory } from './trajectory.ts';

export interface ExtraDecision {
  callKey: string;
  tool: string;
  /** Why the replay asked (the policy's words), or the question. */
  why: string;
  /** What the replay answered in place of a human, since the recording holds no decision for it. */
  answered: string;
}

export interface ReplayContext {
  /** The policy and limit overrides the replay ran under, in words ("mediumQuota 2"); empty for a plain replay. */
  overrides: string;
  /** How it ran, in words ("lenient, recorded tools"); empty for the defaults (strict, dry run). */
  mode?: string;
  /** Calls that returned their recorded result instead of running (dry run). */
  notRun: string[];
  /** Approvals and questions the recording had no decision for, and how the replay answered them. */
  extraDecisions: ExtraDecision[];
}

export interface ReplayReport {
  recorded: Trajectory;
  replay: Trajectory;
  /** The replay's spend at the recorded model's prices. */
  replayCostUsd: number;
  /** Conversation differences, turn by turn ("turn 3: tool result of read_file (t2.1) differs: …"). */
  divergences: string[];
  /** What the replay did differently, in sentences. */
  changes: string[];
  /**
   * Calls that ran in the recording and in the replay alike and returned something else: the world they read
   * changed since (a dry run runs read-only tools live), so what changed after them is drift, not the overrides'.
   */
  drift: string[];
  context: ReplayContext;
  /** Same trajectory, receipt and conversation. */
  same: boolean;
}

export function compareRecordings(original: Recording, replay: Recording, context: ReplayContext): ReplayReport {
  const recorded = trajectoryOf(original);
  const replayed = trajectoryOf(replay);
  const replayCostUsd = costAtRecordedPrices(replay, original);
  const divergences = conversationDivergences(original, replay, '');
  const drift = driftedCalls(divergences, recorded, replayed);
  const changes = drift.length
    ? [
        `the world drifted: ${drift.join(', ')} returned something else than when recorded (what ${drift.length === 1 ? 'it reads' : 'they read'} changed since), ` +
          `so what follows comes from that${context.overrides ? `, not from ${context.overrides}` : ''}; --tool-mode recorded replays the recorded results`,
        ...trajectoryChanges(recorded, replayed, 'after that drift, '),
      ]
    : trajectoryChanges(recorded, replayed, context.overrides ? `with ${context.overrides}, ` : '');
  return { recorded, replay: replayed, replayCostUsd, divergences, changes, drift, context, same: divergences.length === 0 && changes.length === 0 };
}

/** The calls whose tool result differs (a divergence) although they ran the same way in both: drift. */
function driftedCalls(divergences: readonly string[], recorded: Trajectory, replay: Trajectory): string[] {
  const drifted: string[] = [];
  for (const divergence of divergences) {
    const callKey = /^turn \d+: tool result of \S+ \(([^)]+)\) differs/.exec(divergence)?.[1];
    const a = recorded.calls.find((c) => c.callKey === callKey);
    const b = replay.calls.find((c) => c.callKey === callKey);
    if (a && b && a.ran && b.ran && steps(withoutApproval(a)) === steps(withoutApproval(b))) drifted.push(nameOf(a.callKey, a, recorded.calls));
  }
  return drifted;
}

/** Where the replay's conversation (and its children's) left the recorded one, turn by turn. */
export function conversationDivergences(original: Recording, replay: Recording, prefix: string): string[] {
  const out: string[] = [];
  const turns = Math.min(original.turns.length, replay.turns.length);
  for (let k = 1; k <= turns; k++) {
    const from = k > 1 ? Math.min(original.turns[k - 2]!.sent, replay.turns[k - 2]!.sent) : 0;
    const difference = firstDifference(k, original.messages.slice(0, original.turns[k - 1]!.sent), replay.messages.slice(0, replay.turns[k - 1]!.sent), from);
    if (difference) out.push(prefix + difference);
  }
  // A model call that got no reply (a strict replay's divergence ends it so): what it sent is the rest of `messages`.
  const next = original.turns[turns];
  if (replay.turns.length === turns && next && replay.messages.length > 0 && replay.messages.at(-1)!.role !== 'assistant') {
    const difference = firstDifference(turns + 1, original.messages.slice(0, next.sent), replay.messages, turns > 0 ? Math.min(original.turns[turns - 1]!.sent, replay.turns[turns - 1]!.sent) : 0);
    if (difference) out.push(prefix + difference);
  }
  if (replay.turns.length !== original.turns.length) {
    out.push(`${prefix}the replay's model answered ${replay.turns.length} turn${replay.turns.length === 1 ? '' : 's'}, the recording has ${original.turns.length}`);
  } else if (turns > 0) {
    const last = original.turns[turns - 1]!;
    const reply = JSON.stringify(replay.turns[turns - 1]!.reply);
    if (JSON.stringify(last.reply) !== reply) out.push(`${prefix}turn ${turns}: the reply differs`);
  }
  for (const child of original.children) {
    const other = replay.children.find((c) => c.callKey === child.callKey);
    if (!other) out.push(`${prefix}research ${child.callKey}: the replay started no child for it`);
    else out.push(...conversationDivergences(child.recording, other.recording, `${prefix}research ${child.callKey}: `));
  }
  return out;
}

function trajectoryChanges(recorded: Trajectory, replay: Trajectory, lead: string): string[] {
  const changes: string[] = [];
  const statusOf = (t: Trajectory) => `${t.status}${t.reason && t.status !== 'completed' ? ` (${t.reason})` : ''}`;
  if (statusOf(recorded) !== statusOf(replay)) changes.push(`${lead}the run would have ended ${statusOf(replay)} instead of ${statusOf(recorded)}`);
  if (recorded.turns !== replay.turns) changes.push(`${lead}it would have taken ${replay.turns} turn${replay.turns === 1 ? '' : 's'} instead of ${recorded.turns}`);
  const before = new Map(recorded.calls.map((c) => [c.callKey, c]));
  const after = new Map(replay.calls.map((c) => [c.callKey, c]));
  const keys = [...new Set([...before.keys(), ...after.keys()])].map((callKey) => ({ callKey })).sort(byCallKey);
  for (const { callKey } of keys) {
    const a = before.get(callKey);
    const b = after.get(callKey);
    const name = nameOf(callKey, b ?? a!, b ? replay.calls : recorded.calls);
    if (!a) {
      changes.push(`${lead}${name} would have been called: ${steps(b!)}`);
      continue;
    }
    if (!b) {
      changes.push(`${lead}${name} would not have been called (the recording: ${steps(a)})`);
      continue;
    }
    if (b.askedApproval && !a.askedApproval) changes.push(`${lead}${name} would have waited for approval${whyOf(b)}`);
    else if (a.askedApproval && !b.askedApproval) changes.push(`${lead}${name} would not have waited for approval`);
    if (a.ran && !b.ran) changes.push(`${lead}${name} would not have run: ${steps(b)}`);
    else if (!a.ran && b.ran) changes.push(`${lead}${name} would have run (the recording: ${steps(a)})`);
    else if (steps(withoutApproval(a)) !== steps(withoutApproval(b))) changes.push(`${lead}${name}: ${steps(b)} instead of ${steps(a)}`);
  }
  if (recorded.receipt !== replay.receipt) changes.push(`the receipt would have been "${replay.receipt}" instead of "${recorded.receipt}"`);
  if (recorded.output !== replay.output) changes.push(`the answer would have been ${JSON.stringify(clip(replay.output ?? '', 160))} instead of ${JSON.stringify(clip(recorded.output ?? '', 160))}`);
  return changes;
}

/** `write_file #3 (t3.1)`: the third call of write_file in the run. */
function nameOf(callKey: string, call: CallStory, calls: readonly CallStory[]): string {
  const ordinal = calls.filter((c) => c.tool === call.tool).findIndex((c) => c.callKey === callKey) + 1;
  return `${call.tool} #${ordinal} (${callKey})`;
}

function whyOf(call: CallStory): string {
  const asked = call.steps.find((s) => s.startsWith('asked approval'));
  return asked ? ` ${asked.slice('asked approval '.length)}` : '';
}

function withoutApproval(call: CallStory): CallStory {
  return { ...call, steps: call.steps.filter((s) => !s.startsWith('asked approval') && s !== 'approved') };
}

function steps(call: CallStory): string {
  return call.steps.join(' → ') || (call.ran ? 'ran' : 'called');
}

const usd = (n: number) => `$${n.toFixed(6)}`;
const int = new Intl.NumberFormat('en-US');

/** The report as text: the side-by-side table, the calls, what changed, the divergences. */
export function renderReplayReport(report: ReplayReport): string {
  const { recorded: a, replay: b } = report;
  const how = [report.context.overrides, report.context.mode].filter(Boolean).join('; ');
  const right = `replay${how ? ` (${how})` : ''}`;
  const rows: [string, string, string][] = [
    ['status', `${a.status}${a.reason && a.status !== 'completed' ? ` (${a.reason})` : ''}`, `${b.status}${b.reason && b.status !== 'completed' ? ` (${b.reason})` : ''}`],
    ['turns', String(a.turns), String(b.turns)],
    ['tool runs', String(a.toolRuns), String(b.toolRuns)],
    ['approvals asked', String(a.approvalsAsked), String(b.approvalsAsked)],
    ['cost', usd(a.costUsd), usd(report.replayCostUsd)],
    ['tokens in / out', `${int.format(a.tokens.prompt)} / ${int.format(a.tokens.completion)}`, `${int.format(b.tokens.prompt)} / ${int.format(b.tokens.completion)}`],
    ['receipt', a.receipt, b.receipt],
    ['answer', JSON.stringify(clip(a.output ?? '', 60)), JSON.stringify(clip(b.output ?? '', 60))],
  ];
  const keys = [...new Set([...a.calls, ...b.calls].map((c) => c.callKey))].map((callKey) => ({ callKey })).sort(byCallKey);
  for (const { callKey } of keys) {
    const x = a.calls.find((c) => c.callKey === callKey);
    const y = b.calls.find((c) => c.callKey === callKey);
    const call = (y ?? x)!;
    rows.push([`${callKey} ${call.tool}`, x ? steps(x) : '-', y ? steps(y) : '-']);
  }
  const width = [Math.max(...rows.map((r) => r[0].length), 4), Math.max(...rows.map((r) => Math.min(r[1].length, 60)), 8)];
  const line = (r: [string, string, string]) => `${r[0].padEnd(width[0]!)}  ${clip(r[1], 60).padEnd(width[1]!)}  ${r[2] === r[1] ? '=' : r[2]}`;
  const out = [line(['', 'recorded', right]), ...rows.map(line)];
  if (b.error && b.status !== 'completed') out.push('', `replay error: ${b.error}`);
  for (const e of report.context.extraDecisions) out.push(`extra: ${e.tool} ${e.callKey} asked (${e.why}); the recording has no decision for it: ${e.answered}`);
  if (report.context.notRun.length) out.push(`dry run: not run, recorded result returned: ${report.context.notRun.join(', ')}`);
  out.push('');
  if (report.same) out.push('same trajectory, receipt and conversation as recorded');
  for (const change of report.changes) out.push(`- ${change}`);
  for (const d of report.divergences) out.push(`divergence: ${d}`);
  return out.join('\n');
}
