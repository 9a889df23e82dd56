/**
 * The store's cost per agent turn, on the embedded SQLite file and on a throwaway PostgreSQL (Debian's
 * binaries, src/store/throwaway-postgres.ts); the PostgreSQL row is skipped, with the reason, when its
 * binaries are missing.
 *
 * A turn, as the harness uses the store: one transcript link of ~4 KB written and read back (what a
 * worker without the run's transcript in its cache reads: the new head's link), and three trace lines
 * (turn, tool_start, tool_result) published with their run events in one transaction, as the trace sink
 * writes an activation's lines. Every call is awaited in turn, as the activities would, so the figure is
 * latency, not throughput.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { linkHash } from '../../wire/transcript-link.ts';
import { openStore } from '../../store/open-store.ts';
import type { AgentStore } from '../../store/store.ts';
import { PostgresUnavailableError, startPostgres } from '../../store/throwaway-postgres.ts';
import type { ChatMessage } from '../../wire/types.ts';
import { log, type BenchEnv } from './env.ts';
import { median, p95 } from './stats.ts';

export type StoreCostRow = StoreBenchResult | { kind: 'sqlite' | 'postgres'; skipped: string };

export async function benchStoreCost(env: BenchEnv, o: { turns: number }): Promise<StoreCostRow[]> {
  log(`store: ${o.turns} turns against SQLite...`);
  const sqlite = await openStore({ url: `sqlite:${path.join(env.dataDir, 'store-bench.sqlite')}`, dataDir: env.dataDir });
  const rows: StoreCostRow[] = [];
  try {
    rows.push(await benchStore(sqlite, o.turns));
  } finally {
    await sqlite.close();
  }
  log(`store: ${o.turns} turns against PostgreSQL...`);
  let pg;
  try {
    pg = await startPostgres();
  } catch (error) {
    if (!(error instanceof PostgresUnavailableError)) throw error;
    rows.push({ kind: 'postgres', skipped: error.message });
    return rows;
  }
  try {
    await pg.createDatabase('agent_bench');
    const store = await openStore({ url: pg.url('agent_bench'), dataDir: env.dataDir });
    try {
      rows.push(await benchStore(store, o.turns));
    } finally {
      await store.close();
    }
  } finally {
    await pg.destroy();
  }
  return rows;
}

export interface StoreBenchResult {
  kind: AgentStore['kind'];
  turns: number;
  medianMs: number;
  p95Ms: number;
  meanMs: number;
  /** Bytes of the link written per turn (its canonical JSON). */
  linkBytes: number;
}

const WARMUP_TURNS = 5;

async function benchStore(store: AgentStore, turns = 200): Promise<StoreBenchResult> {
  const runId = `bench-store-${randomUUID()}`;
  const filler = 'lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(64).slice(0, 3800);
  let head: string | null = null;
  let seq = 0;
  let linkBytes = 0;
  const samples: number[] = [];
  for (let turn = 1; turn <= WARMUP_TURNS + turns; turn++) {
    const callId = `call_${turn}`;
    const messages: ChatMessage[] = [
      { role: 'assistant', content: null, tool_calls: [{ id: callId, name: 'read_file', arguments: `{"path":"file-${turn}.txt"}` }] },
      { role: 'tool', tool_call_id: callId, name: 'read_file', content: `turn ${turn}: ${filler}` },
    ];
    // The workflow names the link (not the store's cost); the store checks the name on write and read.
    const link = { prev: head, messages };
    const hash = linkHash(link);
    const started = performance.now();
    await store.putLink(hash, link);
    const read = await store.getLink(hash);
    if (!read) throw new Error(`bench: link ${hash} was not read back`);
    const at = new Date().toISOString();
    const base = { runId, at, toolName: 'read_file', callKey: `${runId}:${callId}`, toolCallId: callId };
    const task = { runStartMs: 1, historyLength: turn };
    await store.publishTrace(runId, [
      { line: { ...base, seq: ++seq, type: 'turn', turn, prompt_tokens: 1000, completion_tokens: 50, total_tokens: 1050, costUsd: 0.001, finish: 'tool_calls' }, task },
      { line: { ...base, seq: ++seq, type: 'tool_start', args: `{"path":"file-${turn}.txt"}` }, task },
      { line: { ...base, seq: ++seq, type: 'tool_result', ms: 1, ok: true }, task },
    ]);
    const ms = performance.now() - started;
    if (turn > WARMUP_TURNS) samples.push(ms);
    if (turn === 1) linkBytes = Buffer.byteLength(JSON.stringify(link));
    head = hash;
  }
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    kind: store.kind,
    turns,
    medianMs: round(median(samples)),
    p95Ms: round(p95(samples)),
    meanMs: round(samples.reduce((a, b) => a + b, 0) / samples.length),
    linkBytes,
  };
}
