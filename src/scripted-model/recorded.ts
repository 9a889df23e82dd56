/**
 * The scripted model server's side of replay: `model: "recorded:/abs/run.json"` plays a run recording's
 * replies in order. A recording is data: it is read as JSON (never imported) and only from the directories
 * the server may load recordings from. Strict (the default) answers HTTP 422 with the first difference when
 * the harness sends something other than what the recording says it sent; `recorded:/abs/run.json#lenient`
 * goes on with the recorded reply and keeps the divergence. Research children are found in the recording
 * by their conversation's first messages (their system prompt and question).
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { firstDifference, type WireMessage } from '../recording/conversation.ts';
import { parseRecording, recordingTree, type Recording, type RecordedToolResult } from '../recording/schema.ts';
import { parseRecordedModel } from '../wire/replay.ts';
import { researchCallKeys } from '../wire/run-ids.ts';
import { requestedTurns } from '../wire/compaction-text.ts';
import { asCompacted, summaryOf } from '../recording/compacted.ts';
import type { Usage } from '../wire/types.ts';
import type { Scenario } from './scenario.ts';

export type PlayResult =
  | { ok: true; message: { content: string | null; tool_calls?: { id: string; name: string; arguments: string }[] }; usage: Usage; finishReason: string; turn: number }
  | { ok: false; status: number; error: string };

export interface Divergence {
  model: string;
  turn: number;
  difference: string;
}

export type ToolResultAnswer = { found: true; result: RecordedToolResult } | { found: false; why: string };

export class RecordingPlayer {
  private readonly dirs: readonly string[];
  private readonly cache = new Map<string, { mtimeMs: number; recording: Recording }>();
  /** Differences seen in lenient replays (strict ones are answered with an error instead). */
  readonly divergences: Divergence[] = [];

  constructor(dirs: readonly string[]) {
    this.dirs = dirs.map(realOrResolved);
  }

  /** The recording as a scenario of the scripted model server (throws, for a 404, when it cannot be read). */
  scenario(model: string): Scenario {
    this.load(parseRecordedModel(model).file);
    return (_turn, messages) => {
      const played = this.play(model, messages);
      if (!played.ok) return { status: played.status, error: played.error };
      return { content: played.message.content ?? undefined, tool_calls: played.message.tool_calls, usage: played.usage, finishReason: played.finishReason };
    };
  }

  /** The reply for this request, or why there is none. */
  play(model: string, messages: readonly WireMessage[]): PlayResult {
    const { file, mode } = parseRecordedModel(model);
    let root: Recording;
    try {
      root = this.load(file);
    } catch (error) {
      return { ok: false, status: 404, error: (error as Error).message };
    }
    // A compaction's summary call: the recording's summary of as many turns.
    const requested = messages.map((m) => (m.role === 'user' ? requestedTurns(m.content) : null)).find((n) => n !== null);
    if (requested !== undefined && requested !== null) return summaryFrom(root, requested, file);
    const recording = this.conversationOf(root, messages);
    if (!recording) {
      return { ok: false, status: 422, error: `Replay of ${file}: no conversation in the recording starts with this system prompt and goal ${JSON.stringify((messages[1]?.content ?? '').slice(0, 80))}.` };
    }
    // Turns a summary replaced count too.
    const index = summaryOf(messages).turns + messages.filter((m) => m.role === 'assistant').length;
    const turn = recording.turns[index];
    if (!turn) {
      return { ok: false, status: 422, error: `Replay of ${file}: the harness asked for turn ${index + 1}, and the recording of ${recording.runId} has ${recording.turns.length} turns: the recording ran out.` };
    }
    const difference = firstDifference(turn.turn, asCompacted(recording.messages.slice(0, turn.sent), messages, recording.summaries ?? []), messages);
    if (difference) {
      if (mode === 'strict') return { ok: false, status: 422, error: `Replay of ${file} diverged from the recording at ${difference}` };
      this.divergences.push({ model, turn: turn.turn, difference });
    }
    return { ok: true, message: turn.reply, usage: turn.usage, finishReason: turn.finishReason, turn: turn.turn };
  }

  /**
   * The recorded result of a tool call in a replay (dry run): `runId` is the replaying run's id, whose
   * `:research:<callKey>` parts lead to the nested recording of a child.
   */
  toolResult(request: { model: string; runId: string; callKey: string; toolName: string }): ToolResultAnswer {
    const { file } = parseRecordedModel(request.model);
    let recording: Recording | undefined = this.load(file);
    for (const key of researchCallKeys(request.runId)) {
      recording = recording.children.find((c) => c.callKey === key)?.recording;
      if (!recording) return { found: false, why: `the recording has no research child for call ${key}` };
    }
    const result = recording.toolResults.find((r) => r.callKey === request.callKey);
    if (!result) return { found: false, why: `the recording holds no result for call ${request.callKey}` };
    if (result.toolName !== request.toolName) return { found: false, why: `call ${request.callKey} was ${result.toolName} in the recording, not ${request.toolName}` };
    return { found: true, result };
  }

  /** The recording (or nested child) whose conversation this request continues. */
  private conversationOf(root: Recording, messages: readonly WireMessage[]): Recording | null {
    const [system, goal] = messages;
    const candidates = [...recordingTree(root)]
      .map((node) => node.recording)
      .filter((r) => r.messages[0]?.content === system?.content && r.messages[1]?.content === goal?.content);
    if (candidates.length <= 1) return candidates[0] ?? null;
    // The same question asked twice: the conversation that agrees with the request the longest.
    const agreement = (r: Recording) => {
      let n = 0;
      while (n < r.messages.length && n < messages.length && JSON.stringify(r.messages[n]!.content) === JSON.stringify(messages[n]!.content ?? null)) n++;
      return n;
    };
    return candidates.reduce((best, r) => (agreement(r) > agreement(best) ? r : best));
  }

  private load(file: string): Recording {
    if (!path.isAbsolute(file)) throw new Error(`Recording "${file}" must be an absolute path to a .json file.`);
    const real = realOrResolved(file);
    if (!real.endsWith('.json') || !this.dirs.some((dir) => real.startsWith(dir + path.sep))) {
      throw new Error(
        `Recording ${file} is not a .json file under a directory this server may read recordings from (${this.dirs.join(', ') || 'none configured'}); ` +
          'set AGENT_RECORDING_DIRS (or AGENT_SCENARIO_DIRS) for the process that serves the scripted model.',
      );
    }
    const { mtimeMs } = statSync(real);
    const cached = this.cache.get(real);
    if (cached?.mtimeMs === mtimeMs) return cached.recording;
    const recording = parseRecording(readFileSync(real, 'utf8'), file);
    this.cache.set(real, { mtimeMs, recording });
    return recording;
  }
}

/** The summary of a run's first `turns` turns, from the recording (or a child's), for a replay's compaction. */
function summaryFrom(root: Recording, turns: number, file: string): PlayResult {
  for (const { recording } of recordingTree(root)) {
    const summary = recording.summaries?.find((s) => s.turns === turns);
    if (summary) return { ok: true, message: { content: summary.text }, usage: summary.usage, finishReason: 'stop', turn: 0 };
  }
  return { ok: false, status: 422, error: `Replay of ${file}: the harness asked for a summary of the first ${turns} turns, and the recording has none: the replay compacts where the recorded run did not.` };
}

/** `AGENT_RECORDING_DIRS` (separated by `:`): where a process that serves the scripted model may read recordings from. */
export function recordingDirsFromEnv(): string[] {
  return (process.env.AGENT_RECORDING_DIRS ?? '').split(path.delimiter).filter(Boolean);
}

function realOrResolved(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}
