-- Retention (docs/operations-retention.md): which runs own each content-addressed row, and runs kept from gc.
-- A transcript link or kept output goes only when no run owns it any more; rows written before this version
-- have no owner and are never collected.
CREATE TABLE content_owners (
  ref text NOT NULL,                  -- a transcript link's hash, or an output's output:<sha256>
  run_id text NOT NULL,
  PRIMARY KEY (ref, run_id)
);
CREATE INDEX content_owners_by_run ON content_owners (run_id);
-- Runs gc never collects (a recording references them), with why and since when (ISO).
CREATE TABLE kept_runs (
  run_id text PRIMARY KEY,
  reason text NOT NULL,
  kept_at text NOT NULL
);
