/**
 * The `record` and `replay` CLI commands:
 *   record <runId> [--out file] [--as-task tasks.json]   writes the run's recording (and appends an eval task)
 *   replay <file> [--policy json] [--limits json] [--lenient] [--tool-mode dry-run|recorded|live]
 *                 [--workspace dir] [--extra-approvals approve|reject]
 *                                                     replays it and prints the side-by-side trajectory diff
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { AgentClient } from '../client/client.ts';
import { runInputSchema } from '../client/run-input.ts';
import type { AgentStore } from '../store/store.ts';
import { REPLAY_TOOL_MODES, type ReplayToolMode } from '../wire/replay.ts';
import type { RunLimits, RunPolicy } from '../wire/run-input.ts';
import { appendRecordedTask } from './as-task.ts';
import { recordRun } from './record.ts';
import { replayRecording } from './replay.ts';
import { renderReplayReport, type ReplayReport } from './report.ts';
import { loadRecording, type Recording } from './schema.ts';
import { AgentError } from '../wire/agent-error.ts';

export class RecordingUsageError extends AgentError {
  override readonly name = 'RecordingUsageError';
  readonly code = 'RecordingUsage';
}

export interface RecordArgs {
  out?: string;
  asTask?: string;
}

/** Writes the recording; returns the lines to print. */
export async function recordCommand(deps: { agents: AgentClient; store: AgentStore }, runId: string, args: RecordArgs): Promise<string[]> {
  const recording = await recordRun(deps, runId);
  const out = path.resolve(args.out ?? (args.asTask ? path.join(path.dirname(args.asTask), `${runId}.json`) : path.join('recordings', `${runId}.json`)));
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(recording, null, 2) + '\n');
  // The recording names the run's store rows (kept outputs, compaction links): gc must never take them.
  await keepRecorded(deps.store, recording, `recorded → ${out}`);
  const lines = [
    `recorded ${runId}: ${count(recording.turns.length, 'turn')}, ${count(recording.toolResults.length, 'tool result')}, ${count(recording.decisions.length, 'decision')}, ` +
      `${count(recording.children.length, 'research child', 'research children')}, ${count(recording.executions.length, 'execution')}` +
      `${recording.complete ? `, ${recording.result?.status ?? 'closed'}` : ', still running'} → ${out}`,
  ];
  for (const gap of recording.gaps) lines.push(`not recorded: ${gap}`);
  if (args.asTask) lines.push(`eval task "${appendRecordedTask(args.asTask, out, recording)}" appended to ${args.asTask}`);
  return lines;
}

/** Keeps the recorded run and its children (recursively) from gc. */
async function keepRecorded(store: AgentStore, recording: Recording, reason: string): Promise<void> {
  await store.keepRun(recording.runId, reason);
  for (const child of recording.children) await keepRecorded(store, child.recording, reason);
}

export interface ReplayArgs {
  policy?: string;
  limits?: string;
  lenient?: boolean;
  toolMode?: string;
  workspace?: string;
  extraApprovals?: string;
}

/** Replays and compares; returns the report's text and whether the replay failed (the command's exit status). */
export async function replayCommand(deps: { agents: AgentClient; store: AgentStore }, file: string, args: ReplayArgs): Promise<{ text: string; same: boolean; diverged: boolean }> {
  const absolute = path.resolve(file);
  const recording = loadRecording(absolute);
  const outcome = await replayRecording(deps, recording, {
    file: absolute,
    mode: args.lenient ? 'lenient' : 'strict',
    tools: toolMode(args.toolMode),
    ...(args.policy ? { policy: parseJson<RunPolicy>('--policy', args.policy, runInputSchema.shape.policy.unwrap()) } : {}),
    ...(args.limits ? { limits: parseJson<Partial<RunLimits>>('--limits', args.limits, runInputSchema.shape.limits.unwrap()) } : {}),
    ...(args.workspace ? { workspace: path.resolve(args.workspace) } : {}),
    extraApprovals: extraApprovals(args.extraApprovals),
  });
  const turns = outcome.report.replay.turns;
  const speed = `${count(turns, 'turn')} in ${Math.round(outcome.wallMs)} ms (${(turns / (outcome.wallMs / 1000)).toFixed(1)} turns/s)`;
  return {
    text: `replay ${outcome.runId} of ${recording.runId}: ${speed}\n\n${renderReplayReport(outcome.report)}`,
    same: outcome.report.same,
    diverged: replayDiverged(outcome.report, args.lenient ?? false),
  };
}

/**
 * Whether a replay fails (exits 1), so a CI job that replays recordings can fail: a strict replay fails when
 * its conversation left the recording (the report lists a divergence) or, with no --policy or --limits to
 * try, when anything in the report differs — the code no longer does what it did when it was recorded. A
 * what-if's changes are its answer, not a failure; a lenient replay only reports.
 */
export function replayDiverged(report: ReplayReport, lenient: boolean): boolean {
  if (lenient) return false;
  return report.divergences.length > 0 || (!report.context.overrides && !report.same);
}

/** The directory a replay's scripted model must be allowed to read. */
export function recordingDirOf(file: string): string {
  return path.dirname(path.resolve(file));
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function toolMode(text: string | undefined): ReplayToolMode {
  if (text === undefined) return 'dry-run';
  if (!(REPLAY_TOOL_MODES as readonly string[]).includes(text)) throw new RecordingUsageError(`--tool-mode is one of ${REPLAY_TOOL_MODES.join(', ')}, not "${text}".`);
  return text as ReplayToolMode;
}

function extraApprovals(text: string | undefined): 'approve' | 'reject' {
  if (text === undefined || text === 'approve' || text === 'reject') return text ?? 'approve';
  throw new RecordingUsageError(`--extra-approvals is approve or reject, not "${text}".`);
}

function parseJson<T>(flag: string, text: string, schema: z.ZodType): T {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new RecordingUsageError(`${flag} is not JSON: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new RecordingUsageError(`${flag}: ${z.prettifyError(parsed.error)}`);
  return parsed.data as T;
}
