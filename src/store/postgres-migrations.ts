/**
 * PostgreSQL schema migrations: plain SQL files `migrations/postgres/NNN_name.sql` (migration-files.ts),
 * applied in version order, each once, recorded in `agent_store_migrations` with a checksum. All of it
 * runs in one transaction holding an advisory lock, so workers starting together do not race: the first
 * applies, the others wait and then find nothing left to do. A shipped file must never change (its
 * checksum is checked); a change is a new file.
 */
import path from 'node:path';
import type { ClientBase } from 'pg';
import { loadMigrations, MIGRATIONS_DIR, type Migration } from './migration-files.ts';

export const POSTGRES_MIGRATIONS_DIR = path.join(MIGRATIONS_DIR, 'postgres');

/** Lock key shared by every migrating process (advisory locks are per database). */
const LOCK_KEY = 'agent-store migrations';

/** Applies the missing migrations on `client` (not in a transaction); returns the versions applied now. */
export async function migratePostgres(client: ClientBase, migrations: readonly Migration[] = loadMigrations(POSTGRES_MIGRATIONS_DIR)): Promise<number[]> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS agent_store_migrations (
      version integer PRIMARY KEY,
      file text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ version: number; file: string; checksum: string }>('SELECT version, file, checksum FROM agent_store_migrations');
    const applied = new Map(rows.map((row) => [row.version, row]));
    const now: number[] = [];
    for (const migration of migrations) {
      const done = applied.get(migration.version);
      if (done) {
        if (done.checksum !== migration.checksum) {
          throw new Error(
            `migration ${migration.file} was changed after it was applied as ${done.file}: add a new migration file instead of editing a shipped one`,
          );
        }
        continue;
      }
      await client.query(migration.sql);
      await client.query('INSERT INTO agent_store_migrations (version, file, checksum) VALUES ($1, $2, $3)', [migration.version, migration.file, migration.checksum]);
      now.push(migration.version);
    }
    await client.query('COMMIT');
    return now;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
