-- Arbiter schema, version 5: a labels merge is atomic by visibility, like an item import.
-- - label_import: one record per merge of a labels file, pending while its revisions are written.
--   A merge's revisions carry its id (label.import_id) and no reader shows them while the record is
--   pending; the current labels they make are staged in label_import_head, and resolutions (a lead's
--   adjudications from another machine) in label_import_resolution. When every revision is written the
--   record becomes 'applying' (from then on the merge counts as done, and its revisions are visible), the
--   staged heads and counters are applied in short batches, and the record becomes 'complete'. A pending
--   merge whose process is gone is removed at the next open; an applying one is finished then.
-- - label.import_id stays on the row once the merge completes (NULL for every revision saved here).

CREATE TABLE label_import (
  id          INTEGER PRIMARY KEY,
  project_id  INTEGER NOT NULL REFERENCES project(id) ON DELETE CASCADE,
  file_name   TEXT NOT NULL,
  state       TEXT NOT NULL CHECK (state IN ('pending', 'applying', 'complete')),
  owner       TEXT,                    -- host:pid of the process writing a pending merge
  started_at  TEXT NOT NULL,
  revisions   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX label_import_by_state ON label_import(state) WHERE state <> 'complete';

ALTER TABLE label ADD COLUMN import_id INTEGER;
CREATE INDEX label_by_import ON label(import_id) WHERE import_id IS NOT NULL;

-- The revision a merge makes current per (item, annotator, task): its latest by (created_at, id).
CREATE TABLE label_import_head (
  import_id    INTEGER NOT NULL REFERENCES label_import(id) ON DELETE CASCADE,
  item_id      INTEGER NOT NULL,
  annotator_id INTEGER NOT NULL,
  task         TEXT NOT NULL,
  label_seq    INTEGER NOT NULL,
  created_at   TEXT NOT NULL,
  label_id     TEXT NOT NULL,
  done         INTEGER NOT NULL,
  choice       TEXT,
  PRIMARY KEY (import_id, item_id, annotator_id, task)
);

-- Resolutions a merge carries: linked as adjudications when the merge is applied.
CREATE TABLE label_import_resolution (
  import_id  INTEGER NOT NULL REFERENCES label_import(id) ON DELETE CASCADE,
  label_id   TEXT NOT NULL,
  note       TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (import_id, label_id)
) WITHOUT ROWID;
