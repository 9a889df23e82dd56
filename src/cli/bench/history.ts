/**
 * History per turn: runs of N turns that each read a 4 KiB file, weighed in Temporal (every execution,
 * continue-as-new included), next to what the same run would have put in history had every model call
 * carried the whole transcript.
 */
import { historyWeight } from './history-size.ts';
import { log, TOOL_OUTPUT_BYTES, type BenchEnv } from './env.ts';

export interface HistoryRow {
  turns: number;
  executions: number;
  events: number;
  bytes: number;
  bytesPerTurn: number;
  largestEventBytes: number;
  wholeTranscriptBytes: number;
  runMs: number;
}

export async function benchHistory(env: BenchEnv, o: { turns: number[] }): Promise<HistoryRow[]> {
  const rows: HistoryRow[] = [];
  for (const turns of o.turns) {
    log(`history: a ${turns}-turn run reading ${TOOL_OUTPUT_BYTES} bytes per turn...`);
    const before = env.scripted.requests.length;
    const started = performance.now();
    const { runId } = await env.agents.startRun({
      goal: `Please read ${turns} files.`,
      model: 'scripted:read-many',
      tools: ['read_file'],
      workspace: env.workspace,
      limits: { maxTurns: turns + 1, maxBudgetUsd: 1e6 },
    });
    const result = await env.agents.result(runId);
    if (result.status !== 'completed') throw new Error(`history run ended ${result.status}: ${result.error}`);
    const runMs = performance.now() - started;
    const weight = await historyWeight(env.temporal, runId);
    rows.push({
      turns: result.turns,
      executions: weight.executions,
      events: weight.events,
      bytes: weight.bytes,
      bytesPerTurn: weight.bytes / result.turns,
      largestEventBytes: weight.largestEventBytes,
      wholeTranscriptBytes: env.scripted.requests.slice(before).reduce((sum, r) => sum + JSON.stringify(r.messages).length, 0),
      runMs,
    });
  }
  return rows;
}
