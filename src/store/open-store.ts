/**
 * Opens the store named by `AGENT_STORE_URL` (or `options.url`):
 * - `postgres://…` / `postgresql://…` → PostgreSQL (migrations applied before this resolves);
 * - `sqlite:<path>` → that SQLite file (relative paths from the working directory);
 * - unset or empty → the embedded default, the SQLite file `<dataDir>/agent-store.sqlite`.
 */
import path from 'node:path';
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
