/**
 * The SQLite store's schema: the SQL files `migrations/sqlite/NNN_name.sql` (migration-files.ts), the same
 * versions as migrations/postgres/ in SQLite's words, applied in order by sqlite-store.ts; `PRAGMA
 * user_version` records the last version applied. Never edit a shipped version: add the next one.
 */
import path from 'node:path';
import { loadMigrations, MIGRATIONS_DIR, type Migration } from './migration-files.ts';

export const SQLITE_MIGRATIONS_DIR = path.join(MIGRATIONS_DIR, 'sqlite');

export function sqliteMigrations(): Migration[] {
  return loadMigrations(SQLITE_MIGRATIONS_DIR);
}
