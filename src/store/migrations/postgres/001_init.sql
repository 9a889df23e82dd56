-- The agent store's tables (mirrors src/store/sqlite-schema.ts, version 1).
-- Applied once per database by postgres-migrations.ts, inside a transaction holding an advisory lock.
-- JSON values are kept as the JSON text that was written (text, not jsonb), so a trace exports exactly
-- as it was appended; times are ISO strings written by the harness.

CREATE TABLE transcript_links (
  hash text PRIMARY KEY,
  prev text,
  body text NOT NULL,                 -- canonical JSON of {prev, messages}; sha256(body) = hash
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE effects (
  key text PRIMARY KEY,               -- idempotency key
  tool text NOT NULL,
  phase text NOT NULL CHECK (phase IN ('started', 'done')),
  detail text NOT NULL,               -- JSON object
  outcome text,
  started_at text NOT NULL,
  done_at text,
  CHECK ((phase = 'done') = (outcome IS NOT NULL))
);

CREATE TABLE trace_lines (
  run_id text NOT NULL,
  seq bigint NOT NULL,
  line text NOT NULL,                 -- the TraceLine as JSON
  PRIMARY KEY (run_id, seq)
);

CREATE TABLE outputs (
  ref text PRIMARY KEY,               -- output:<sha256 hex of body>
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The last event id of each run: appending locks the run's row, so ids are given (and committed) in order.
CREATE TABLE run_event_heads (
  run_id text PRIMARY KEY,
  last_id bigint NOT NULL
);

CREATE TABLE run_events (
  run_id text NOT NULL,
  id bigint NOT NULL,                 -- 1, 2, … per run
  at text NOT NULL,
  event text NOT NULL,                -- JSON
  PRIMARY KEY (run_id, id)
);

-- Live streams: every appended event is announced (run id only; payloads are limited to 8000 bytes)
-- on channel agent_run_events, delivered to listeners when the insert commits.
CREATE FUNCTION agent_notify_run_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('agent_run_events', NEW.run_id);
  RETURN NULL;
END
$$;

CREATE TRIGGER run_events_notify AFTER INSERT ON run_events
  FOR EACH ROW EXECUTE FUNCTION agent_notify_run_event();
