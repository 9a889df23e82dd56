/**
 * The store's cost per agent turn (src/store/bench-store.ts: one transcript link written and read back,
 * three trace lines, one run event, each awaited) on the embedded SQLite file and on a throwaway
 * PostgreSQL (Debian's binaries, src/store/throwaway-postgres.ts); the PostgreSQL row is skipped, with the
 * reason, when its binaries are missing.
 */
import path from 'node:path';
import { benchStore, type StoreBenchResult } from '../../store/bench-store.ts';
import { openStore } from '../../store/open-store.ts';
import { PostgresUnavailableError, startPostgres } from '../../store/throwaway-postgres.ts';
import { log, type BenchEnv } from './env.ts';

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
