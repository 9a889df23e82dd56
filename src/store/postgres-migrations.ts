/**
 * PostgreSQL schema migrations: plain SQL files `migrations/postgres/NNN_name.sql`, applied in version
 * order, each once, recorded in `agent_store_migrations` with a checksum. All of it runs in one
 * transaction holding an advisory lock, so workers starting together do not race: the first applies,
 * the others wait and then find nothing left to do. A shipped file must never change (its checksum is
 * checked); a change is a new file.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClientBase } from 'pg';

export const POSTGRES_MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations', 'postgres');

export interface PostgresMigration {
  version: number;
  file: string;
  sql: string;
  checksum: string;
}

export function loadPostgresMigrations(dir = POSTGRES_MIGRATIONS_DIR): PostgresMigration[] {
  const migrations = readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .map((file) => {
      const match = /^(\d+)_[\w-]+\.sql$/.exec(file);
      if (!match) throw new Error(`migration file ${file} in ${dir} is not named NNN_name.sql`);
      const sql = readFileSync(path.join(dir, file), 'utf8');
      return { version: Number(match[1]), file, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    })
    .sort((a, b) => a.version - b.version);
  migrations.forEach((m, i) => {
    if (i > 0 && migrations[i - 1]!.version === m.version) throw new Error(`two migrations have version ${m.version}: ${migrations[i - 1]!.file} and ${m.file}`);
  });
  return migrations;
}

/** Lock key shared by every migrating process (advisory locks are per database). */
const LOCK_KEY = 'agent-store migrations';

/** Applies the missing migrations on `client` (not in a transaction); returns the versions applied now. */
export async function migratePostgres(client: ClientBase, migrations = loadPostgresMigrations()): Promise<number[]> {
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
