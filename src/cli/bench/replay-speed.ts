/**
 * How fast a recording replays (`npm run agent -- replay`): a replay has no model to wait for, so it runs at
 * Temporal's pace. Two runs of N turns are recorded — one writing a file every turn (a tool activity), one
 * listing the files every turn (read-only: deduplicated after the first, no tool activity) — and replayed
 * with the tools dry-run and with every tool result taken from the recording.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { recordRun } from '../../recording/record.ts';
import { replayRecording } from '../../recording/replay.ts';
import type { Recording } from '../../recording/schema.ts';
import type { ReplayToolMode } from '../../wire/replay.ts';
import { log, type BenchEnv } from './env.ts';

export interface ReplaySpeedRow {
  what: string;
  tools: ReplayToolMode;
  turns: number;
  wallMs: number;
  turnsPerSecond: number;
}

export async function benchReplaySpeed(env: BenchEnv, o: { turns: number }): Promise<ReplaySpeedRow[]> {
  mkdirSync(env.recordingsDir, { recursive: true });
  const limits = { maxTurns: o.turns, maxRepeatedCalls: 0, maxStaleTurns: 0 };
  log(`replay: recording two runs of ${o.turns} turns...`);
  const writes = await recorded(env, 'writes', { goal: 'Write drafts.', model: 'scripted:many-writes', policy: { mediumQuota: o.turns }, limits });
  const lists = await recorded(env, 'lists', { goal: 'List the files forever.', model: 'scripted:runaway', limits });
  const rows: ReplaySpeedRow[] = [];
  for (const [what, recording, tools] of [
    ['a write_file activity a turn', writes, 'dry-run'],
    ['a write_file activity a turn', writes, 'recorded'],
    ['a deduplicated list_files a turn (no tool activity)', lists, 'dry-run'],
  ] as const) {
    log(`replay: ${what}, tools ${tools}...`);
    const { result, report, wallMs } = await replayRecording({ agents: env.agents, store: env.store }, recording.recording, { file: recording.file, tools, workspace: env.workspace });
    if (!report.same) throw new Error(`bench: the replay of ${what} (${tools}) differs from its recording`);
    rows.push({ what, tools, turns: result.turns, wallMs, turnsPerSecond: result.turns / (wallMs / 1000) });
  }
  return rows;
}

async function recorded(env: BenchEnv, name: string, input: Omit<Parameters<BenchEnv['agents']['startRun']>[0], 'workspace'>): Promise<{ file: string; recording: Recording }> {
  const { runId } = await env.agents.startRun({ ...input, workspace: env.workspace });
  await env.agents.result(runId);
  const recording = await recordRun({ agents: env.agents, store: env.store }, runId);
  const file = path.join(env.recordingsDir, `${name}.json`);
  writeFileSync(file, JSON.stringify(recording));
  return { file, recording };
}
