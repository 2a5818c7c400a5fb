-- Arbiter schema, version 13: saved views of the items explorer (shared/api/items.ts): a query (search
-- text and facet clauses, shared/itemQuery.ts) and a sort, saved by name per project. A deleted view
-- stays as a tombstone (deleted = 1) so that its deletion travels through the team hub like a save; the
-- newest updated_at of a name wins when views merge.
CREATE TABLE item_view (
  id          TEXT PRIMARY KEY,          -- UUIDv7, made where the view was first saved
  project_id  INTEGER NOT NULL REFERENCES project(id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  query       TEXT NOT NULL,
  sort        TEXT NOT NULL,             -- JSON: {"column": "seq", "desc": false}
  author      TEXT,
  updated_at  TEXT NOT NULL,             -- ISO 8601 UTC
  deleted     INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1)),
  UNIQUE (project_id, name)
);
