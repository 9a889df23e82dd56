-- The agent store's tables in SQLite (the same as migrations/postgres/001_init.sql, in SQLite's words).
-- Applied once per file by sqlite-store.ts, which records the version in PRAGMA user_version.
-- JSON values (trace lines, events, effect details) are kept as the JSON text that was written, so a
-- trace exports exactly as it was appended; times are ISO strings.

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

-- No table of event heads (PostgreSQL's run_event_heads): SQLite has one writer at a time, so the next id,
-- MAX(id) + 1 in the appending INSERT, is taken and committed in order (sqlite-store.ts).
CREATE TABLE run_events (
  run_id TEXT NOT NULL,
  id INTEGER NOT NULL,                -- 1, 2, … per run
  at TEXT NOT NULL,
  event TEXT NOT NULL,                -- JSON
  PRIMARY KEY (run_id, id)
) WITHOUT ROWID;
