-- What each worker offers (src/offers/): its tools and agents and their digest, written at its start and
-- refreshed while it runs. Times are ISO strings; stopped_at is set when the last worker of a queue stops.
CREATE TABLE worker_offers (
  worker_id text PRIMARY KEY,
  task_queue text NOT NULL,
  digest text NOT NULL,
  offer text NOT NULL,                -- JSON: {tools, agents}
  started_at text NOT NULL,
  last_seen_at text NOT NULL,
  stopped_at text
);
CREATE INDEX worker_offers_by_queue ON worker_offers (task_queue);
