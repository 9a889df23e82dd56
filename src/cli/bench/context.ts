/**
 * Context: a long run reading a 4 KiB file a turn, with compaction (an 8k-token window: tokens sent per turn
 * level off) and without (they grow with every turn), its prompt tokens per turn and its cost (docs/context.md).
 */
import path from 'node:path';
import { BENCH_DIR, log, type BenchEnv } from './env.ts';

const MODEL = `scripted:${path.join(BENCH_DIR, 'scenarios', 'long-reads.ts')}`;
/** The window the compacting run budgets against (75 % of it per request). */
export const CONTEXT_BENCH_WINDOW = 8000;

export interface ContextRow {
  compaction: 'auto' | 'off';
  turns: number;
  /** Prompt tokens of each turn's request, in order. */
  perTurn: number[];
  promptTokens: number;
  costUsd: number;
  compactions: number;
  summaries: number;
  runMs: number;
}

export async function benchContext(env: BenchEnv, o: { turns: number }): Promise<ContextRow[]> {
  const rows: ContextRow[] = [];
  for (const compaction of ['auto', 'off'] as const) {
    log(`context: a ${o.turns}-turn run reading 4 KiB a turn, compaction ${compaction}...`);
    const started = performance.now();
    const { runId } = await env.agents.startRun({
      goal: `Please read ${o.turns} files (compaction ${compaction}).`,
      model: MODEL,
      tools: ['read_file'],
      workspace: env.workspace,
      limits: { maxTurns: o.turns + 1, maxBudgetUsd: 1e6, maxRepeatedCalls: 0, maxStaleTurns: 0, compaction, ...(compaction === 'auto' ? { contextTokens: CONTEXT_BENCH_WINDOW } : {}) },
    });
    const result = await env.agents.result(runId);
    if (result.status !== 'completed') throw new Error(`context run ended ${result.status}: ${result.error}`);
    const runMs = performance.now() - started;
    const state = await env.agents.getState(runId);
    const trace = await env.store.readTrace(runId);
    const compacted = trace.flatMap((l) => (l.type === 'compacted' ? [l] : []));
    rows.push({
      compaction,
      turns: result.turns,
      perTurn: state.perTurnPromptTokens,
      promptTokens: result.usage.promptTokens,
      costUsd: result.costUsd,
      compactions: compacted.length,
      summaries: compacted.filter((c) => c.summarised > 0).length,
      runMs,
    });
  }
  return rows;
}
