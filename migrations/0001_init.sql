-- Arbiter schema, version 1. Labels are append-only revisions; label_head is a derived pointer to
-- each (item, annotator)'s current revision, kept in the same transaction so reads stay O(1).

CREATE TABLE project (
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL UNIQUE,
  created_at  TEXT NOT NULL,
  guidelines  TEXT NOT NULL DEFAULT '',
  settings    TEXT NOT NULL DEFAULT '{}'
);

CREATE TABLE import_file (
  id          INTEGER PRIMARY KEY,
  project_id  INTEGER NOT NULL REFERENCES project(id) ON DELETE CASCADE,
  sha256      TEXT NOT NULL,
  file_name   TEXT NOT NULL,
  format      TEXT NOT NULL,
  imported_at TEXT NOT NULL,
  items       INTEGER NOT NULL,
  labels      INTEGER NOT NULL
);
CREATE INDEX import_file_by_hash ON import_file(project_id, sha256);

CREATE TABLE item (
  id          INTEGER PRIMARY KEY,
  project_id  INTEGER NOT NULL REFERENCES project(id) ON DELETE CASCADE,
  uid         TEXT NOT NULL,
  external_id TEXT,
  seq         INTEGER NOT NULL,
  prompt      TEXT NOT NULL,           -- JSON: a string or a chat message list
  reference   TEXT,
  metadata    TEXT NOT NULL DEFAULT '{}',
  -- JSON array of {content, model, steps, hash}; responses are read and written with their item,
  -- and hash (of the content) keys the score cache.
  responses   TEXT NOT NULL,
  UNIQUE (project_id, uid),
  UNIQUE (project_id, seq)
);

CREATE TABLE annotator (
  id         INTEGER PRIMARY KEY,      -- local; labels carry it in every row and index, so it stays small
  uuid       TEXT NOT NULL UNIQUE,     -- stable across machines
  name       TEXT NOT NULL UNIQUE,
  kind       TEXT NOT NULL CHECK (kind IN ('human', 'model', 'source')),
  created_at TEXT NOT NULL
);

CREATE TABLE label (
  seq          INTEGER PRIMARY KEY,
  id           TEXT NOT NULL UNIQUE,   -- UUIDv7
  item_id      INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
  annotator_id INTEGER NOT NULL REFERENCES annotator(id),
  created_at   TEXT NOT NULL,          -- ISO 8601, UTC, milliseconds
  choice       TEXT CHECK (choice IN ('A', 'B', 'tie', 'both_bad')),
  ranking      TEXT,
  strength     INTEGER CHECK (strength IN (1, 2, 3)),
  shown_order  TEXT,
  body         TEXT NOT NULL DEFAULT '{}'
);
-- Revisions of an item (history, per-project counts); a few per item, so ordering them is cheap.
CREATE INDEX label_by_item ON label(item_id);

-- The current revision per (item, annotator): the one with the greatest (created_at, id).
CREATE TABLE label_head (
  item_id      INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
  annotator_id INTEGER NOT NULL REFERENCES annotator(id),
  label_id     TEXT NOT NULL REFERENCES label(id),
  created_at   TEXT NOT NULL,
  choice       TEXT,                   -- NULL when the current revision clears the label
  PRIMARY KEY (item_id, annotator_id)
) WITHOUT ROWID;
CREATE INDEX label_head_by_annotator ON label_head(annotator_id, item_id);
