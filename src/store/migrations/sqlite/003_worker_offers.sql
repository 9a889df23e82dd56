-- What each worker offers (src/offers/): its tools and agents and their digest, written at its start and
-- refreshed while it runs. Times are ISO strings; stopped_at is set when the last worker of a queue stops.
CREATE TABLE worker_offers (
  worker_id TEXT PRIMARY KEY,
  task_queue TEXT NOT NULL,
  digest TEXT NOT NULL,
  offer TEXT NOT NULL,
  started_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  stopped_at TEXT
);
CREATE INDEX worker_offers_by_queue ON worker_offers (task_queue);
