/**
 * The store's schema migrations as plain SQL files, `migrations/<store>/NNN_name.sql`: a directory per
 * store (postgres, sqlite) with the same versions, each in its database's words (test/store.test.ts checks
 * that both end with the same tables and columns). Applied in version order, each once: see
 * postgres-migrations.ts and sqlite-store.ts. A shipped file never changes (PostgreSQL checks its
 * checksum): a change is a new file in both directories.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface Migration {
  version: number;
  file: string;
  sql: string;
  checksum: string;
}

export function loadMigrations(dir: string): Migration[] {
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
