-- Arbiter schema, version 3: one store for every kind of judgement.
-- - Responses become rows, so step labels, segmentations and scores can point at one.
-- - Segmentations: versions of a response's steps.
-- - Labels carry a task (pairwise, ranking, steps, rubric, verdict, critique); the current label is per
--   (item, annotator, task) and is the latest revision by insertion order (label.seq), never by wall clock.
-- - Rubrics with immutable versions; adjudications; progress counters kept in the write transaction.
-- - Imports are atomic by visibility: a project shows the items below its visible_seq, and an import's
--   rows become visible when its import_file record is marked complete.

-- Projects: visibility watermark, counters, enabled tasks, and a state for batched deletes.
ALTER TABLE project ADD COLUMN visible_seq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE project ADD COLUMN item_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE project ADD COLUMN tasks TEXT NOT NULL DEFAULT '["pairwise"]';
ALTER TABLE project ADD COLUMN state TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'deleting'));
UPDATE project SET
  visible_seq = (SELECT COALESCE(MAX(seq), -1) + 1 FROM item WHERE item.project_id = project.id),
  item_count = (SELECT COUNT(*) FROM item WHERE item.project_id = project.id);

ALTER TABLE import_file ADD COLUMN state TEXT NOT NULL DEFAULT 'complete' CHECK (state IN ('pending', 'complete'));
ALTER TABLE import_file ADD COLUMN owner TEXT;            -- host:pid of the process writing a pending import
ALTER TABLE import_file ADD COLUMN first_seq INTEGER;     -- the first item seq a pending import may write

-- Responses as rows, in source order.
CREATE TABLE response (
  item_id  INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
  idx      INTEGER NOT NULL,           -- 0-based source order: A = 0, B = 1, …
  content  TEXT NOT NULL,              -- JSON: a string or a chat message list (content may be typed parts)
  model    TEXT,
  PRIMARY KEY (item_id, idx)
) WITHOUT ROWID;
INSERT INTO response (item_id, idx, content, model)
  SELECT item.id, CAST(r.key AS INTEGER), r.value -> '$.content', r.value ->> '$.model'
  FROM item, json_each(item.responses) AS r;

-- Steps of a response; a split or merge makes a new version. Version 1 comes from the file when it has steps.
CREATE TABLE segmentation (
  id           INTEGER PRIMARY KEY,
  item_id      INTEGER NOT NULL,
  response_idx INTEGER NOT NULL,
  version      INTEGER NOT NULL,
  steps        TEXT NOT NULL,          -- JSON array of strings
  origin       TEXT NOT NULL CHECK (origin IN ('file', 'auto', 'annotator')),
  created_at   TEXT NOT NULL,
  UNIQUE (item_id, response_idx, version),
  FOREIGN KEY (item_id, response_idx) REFERENCES response(item_id, idx) ON DELETE CASCADE
);
INSERT INTO segmentation (item_id, response_idx, version, steps, origin, created_at)
  SELECT item.id, CAST(r.key AS INTEGER), 1, r.value -> '$.steps', 'file', strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  FROM item, json_each(item.responses) AS r
  WHERE json_type(r.value, '$.steps') = 'array';

ALTER TABLE item ADD COLUMN response_count INTEGER NOT NULL DEFAULT 2;
ALTER TABLE item ADD COLUMN criteria TEXT;        -- JSON: the item's own rubric criteria, when it has them
UPDATE item SET response_count = json_array_length(responses);
ALTER TABLE item DROP COLUMN responses;

-- Rubrics: a name per project, versions that never change once saved.
CREATE TABLE rubric (
  id          INTEGER PRIMARY KEY,
  project_id  INTEGER NOT NULL REFERENCES project(id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  UNIQUE (project_id, name)
);
CREATE TABLE rubric_version (
  id          INTEGER PRIMARY KEY,
  rubric_id   INTEGER NOT NULL REFERENCES rubric(id) ON DELETE CASCADE,
  version     INTEGER NOT NULL,
  criteria    TEXT NOT NULL,           -- JSON: [{key, description, scale, weight, required, hotkey}]
  hash        TEXT NOT NULL,           -- of the canonical criteria: the same content keeps its version
  created_at  TEXT NOT NULL,
  UNIQUE (rubric_id, version)
);
CREATE TRIGGER rubric_version_is_immutable BEFORE UPDATE ON rubric_version
BEGIN SELECT RAISE(ABORT, 'a rubric version never changes; save a new version'); END;

-- Label revisions, now per task. seq is the insertion order and decides which revision is current.
CREATE TABLE label_v3 (
  seq               INTEGER PRIMARY KEY,
  id                TEXT NOT NULL UNIQUE,   -- UUIDv7, made by the client: a retried save is a no-op
  item_id           INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
  annotator_id      INTEGER NOT NULL REFERENCES annotator(id),
  task              TEXT NOT NULL CHECK (task IN ('pairwise', 'ranking', 'steps', 'rubric', 'verdict', 'critique')),
  created_at        TEXT NOT NULL,          -- ISO 8601 UTC, informational: never used to pick the current label
  -- pairwise: a response letter in source order (A, B, C…), 'tie' or 'both_bad'; verdict: 'good' or 'bad'
  choice            TEXT CHECK (choice IS NULL OR choice GLOB '[A-Z]' OR choice IN ('tie', 'both_bad', 'good', 'bad')),
  strength          INTEGER CHECK (strength IN (1, 2, 3)),
  ranking           TEXT,                   -- JSON: groups of tied response indexes, best first
  shown_order       TEXT,
  rubric_version_id INTEGER REFERENCES rubric_version(id),
  segmentation_id   INTEGER REFERENCES segmentation(id),
  body              TEXT NOT NULL DEFAULT '{}'
);
INSERT INTO label_v3 (seq, id, item_id, annotator_id, task, created_at, choice, strength, ranking, shown_order, body)
  SELECT seq, id, item_id, annotator_id, 'pairwise', created_at, choice, strength, ranking, shown_order, body FROM label ORDER BY seq;
DROP TABLE label_head;
DROP TABLE label;
ALTER TABLE label_v3 RENAME TO label;
CREATE INDEX label_by_item ON label(item_id);
CREATE TRIGGER label_is_append_only BEFORE UPDATE ON label
BEGIN SELECT RAISE(ABORT, 'label revisions are append-only'); END;

-- The current revision per (item, annotator, task): the greatest seq. done = it holds a judgement
-- (an undo back to nothing is a revision too, with done = 0).
CREATE TABLE label_head (
  item_id      INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
  annotator_id INTEGER NOT NULL REFERENCES annotator(id),
  task         TEXT NOT NULL,
  label_seq    INTEGER NOT NULL,
  done         INTEGER NOT NULL,
  choice       TEXT,
  PRIMARY KEY (item_id, annotator_id, task)
) WITHOUT ROWID;
INSERT INTO label_head (item_id, annotator_id, task, label_seq, done, choice)
  SELECT l.item_id, l.annotator_id, 'pairwise', l.seq, l.choice IS NOT NULL, l.choice
  FROM label l
  WHERE l.seq = (SELECT MAX(seq) FROM label m WHERE m.item_id = l.item_id AND m.annotator_id = l.annotator_id);

-- Progress counters, kept in the same write transaction as the label that moves them.
CREATE TABLE progress (
  project_id   INTEGER NOT NULL REFERENCES project(id) ON DELETE CASCADE,
  task         TEXT NOT NULL,
  annotator_id INTEGER NOT NULL REFERENCES annotator(id),
  done         INTEGER NOT NULL DEFAULT 0,  -- items this annotator has a current judgement on
  PRIMARY KEY (project_id, task, annotator_id)
) WITHOUT ROWID;
INSERT INTO progress (project_id, task, annotator_id, done)
  SELECT i.project_id, h.task, h.annotator_id, SUM(h.done) FROM label_head h JOIN item i ON i.id = h.item_id
  GROUP BY i.project_id, h.task, h.annotator_id;

CREATE TABLE task_progress (
  project_id   INTEGER NOT NULL REFERENCES project(id) ON DELETE CASCADE,
  task         TEXT NOT NULL,
  labeled      INTEGER NOT NULL DEFAULT 0,  -- items with a current judgement by at least one human
  PRIMARY KEY (project_id, task)
) WITHOUT ROWID;
INSERT INTO task_progress (project_id, task, labeled)
  SELECT i.project_id, h.task, COUNT(DISTINCT h.item_id) FROM label_head h JOIN item i ON i.id = h.item_id
  JOIN annotator a ON a.id = h.annotator_id WHERE a.kind = 'human' AND h.done = 1
  GROUP BY i.project_id, h.task;

-- The resolved label for a disputed item and task: the gold label on export.
CREATE TABLE adjudication (
  seq          INTEGER PRIMARY KEY,
  id           TEXT NOT NULL UNIQUE,       -- UUIDv7
  item_id      INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
  task         TEXT NOT NULL,
  label_seq    INTEGER NOT NULL REFERENCES label(seq),  -- the lead's resolved revision
  annotator_id INTEGER NOT NULL REFERENCES annotator(id),  -- who resolved it
  note         TEXT NOT NULL DEFAULT '',
  created_at   TEXT NOT NULL
);
CREATE INDEX adjudication_by_item ON adjudication(item_id, task);
