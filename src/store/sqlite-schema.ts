/**
 * The SQLite store's schema, as versioned SQL applied in order; `PRAGMA user_version` records the last
 * version applied (see sqlite-store.ts). Mirrors migrations/postgres/*.sql. Never edit a shipped
 * version: add the next one.
 *
 * JSON values (trace lines, events, effect details) are kept as the JSON text that was written, so a
 * trace exports exactly as it was appended; times are ISO strings.
 */
export interface SqliteMigration {
  version: number;
  name: string;
  sql: string;
}

export const SQLITE_MIGRATIONS: readonly SqliteMigration[] = [
  {
    version: 1,
    name: 'init',
    sql: `
      CREATE TABLE transcript_links (
        hash TEXT PRIMARY KEY,
        prev TEXT,
        body TEXT NOT NULL,                 -- canonical JSON of {prev, messages}; sha256(body) = hash
        created_at TEXT NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE effects (
        key TEXT PRIMARY KEY,               -- idempotency key
        tool TEXT NOT NULL,
        phase TEXT NOT NULL CHECK (phase IN ('started', 'done')),
        detail TEXT NOT NULL,               -- JSON object
        outcome TEXT,
        started_at TEXT NOT NULL,
        done_at TEXT,
        CHECK ((phase = 'done') = (outcome IS NOT NULL))
      ) WITHOUT ROWID;

      CREATE TABLE trace_lines (
        run_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        line TEXT NOT NULL,                 -- the TraceLine as JSON
        PRIMARY KEY (run_id, seq)
      ) WITHOUT ROWID;

      CREATE TABLE outputs (
        ref TEXT PRIMARY KEY,               -- output:<sha256 hex of body>
        body TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE run_events (
        run_id TEXT NOT NULL,
        id INTEGER NOT NULL,                -- 1, 2, … per run
        at TEXT NOT NULL,
        event TEXT NOT NULL,                -- JSON
        PRIMARY KEY (run_id, id)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    name: 'trace-tasks',
    sql: `
      -- The workflow task that wrote each trace line (src/store/trace-tasks.ts); null for earlier lines.
      ALTER TABLE trace_lines ADD COLUMN run_start_ms INTEGER;
      ALTER TABLE trace_lines ADD COLUMN history_length INTEGER;
    `,
  },
];
