/**
 * Opens the store named by `AGENT_STORE_URL` (or `options.url`):
 * - `postgres://…` / `postgresql://…` → PostgreSQL (migrations applied before this resolves);
 * - `sqlite:<path>` → that SQLite file (relative paths from the working directory);
 * - unset or empty → the embedded default, the SQLite file `<dataDir>/agent-store.sqlite`.
 */
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreUnavailableError } from './errors.ts';
import type { PostgresStoreOptions } from './postgres-store.ts';
import { SqliteStore, type SqliteStoreOptions } from './sqlite-store.ts';
import type { AgentStore } from './store.ts';

export const SQLITE_FILE_NAME = 'agent-store.sqlite';

/** Which store `openStore` opens: `url` (else `AGENT_STORE_URL`), else SQLite in `dataDir`. */
export interface OpenStoreOptions {
  /** Overrides `AGENT_STORE_URL`. */
  url?: string;
  /** The data directory (AGENT_DATA_DIR), home of the default SQLite file. */
  dataDir: string;
  sqlite?: SqliteStoreOptions;
  postgres?: PostgresStoreOptions;
}

export type StoreTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** Which store a URL names, without opening it. */
export function storeTarget(url: string | undefined, dataDir: string): StoreTarget {
  const value = url?.trim();
  if (!value) return { kind: 'sqlite', file: path.resolve(dataDir, SQLITE_FILE_NAME) };
  if (/^postgres(ql)?:\/\//i.test(value)) return { kind: 'postgres', url: value };
  const sqlite = /^sqlite:(?:\/\/)?(.+)$/i.exec(value);
  if (sqlite) return { kind: 'sqlite', file: path.resolve(sqlite[1]!) };
  throw new Error(
    `AGENT_STORE_URL must be postgres://user:password@host:port/database, postgresql://…, or sqlite:<file> (got ${JSON.stringify(value.replace(/\/\/[^@/]*@/, '//…@'))})`,
  );
}

/** Opens the store every worker host shares (see this file's head): transcripts, side-effect ledger, traces, events. */
export async function openStore(options: OpenStoreOptions): Promise<AgentStore> {
  const target = storeTarget(options.url ?? process.env.AGENT_STORE_URL, options.dataDir);
  if (target.kind === 'postgres') {
    // Loaded only here: every CLI command and worker opens a store, and most never use PostgreSQL.
    const { PostgresStore } = await import('./postgres-store.ts');
    return PostgresStore.open(target.url, options.postgres);
  }
  return new SqliteStore(target.file, options.sqlite);
}

/** How often a long-lived process says it still waits for the store. */
const WAIT_REPORT_MS = 30_000;

/**
 * `openStore` for a process that stays up (`agent worker`, `agent serve`): a store that cannot be reached
 * yet (StoreUnavailableError: PostgreSQL not started, restarting, refusing connections) is waited for,
 * retried every 0.5 s up to every 5 s, and said once and then every 30 s, so a host that boots before its
 * database comes up by itself. Any other failure (a bad URL, a failed migration) still throws at once.
 */
export async function openStoreWhenReachable(options: OpenStoreOptions & { log: (line: string) => void }): Promise<AgentStore> {
  const started = Date.now();
  let reported = 0;
  for (let delay = 500; ; delay = Math.min(delay * 2, 5000)) {
    try {
      const store = await openStore(options);
      if (reported) options.log(`The store is reachable after ${Math.round((Date.now() - started) / 1000)} s.`);
      return store;
    } catch (error) {
      if (!StoreUnavailableError.isInstance(error)) throw error;
      if (!reported || Date.now() - reported >= WAIT_REPORT_MS) {
        const waited = reported ? ` (waiting ${Math.round((Date.now() - started) / 1000)} s)` : '';
        options.log(`Waiting for the store${waited}: ${(error as Error).message}. Ctrl-C stops.`);
        reported = Date.now();
      }
      await sleep(delay);
    }
  }
}
