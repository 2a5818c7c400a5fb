-- Arbiter schema, version 14: gold, honeypots and qualification.
--
-- Gold marks (electron/core/store/gold.ts): a lead marks a file's own labels (the `source` annotator's) as
-- gold, per import or per selection of items, for one task or every task ('*'). Marks are append-only
-- events, each with its own id (UUIDv7): the mark in force for an item and task is the newest by
-- (created_at, id) among the marks naming that task or '*', so machines that merged the same marks in
-- other orders agree. gold = 0 is an unmark. Adjudications are gold without a mark
-- (electron/core/review/gold.ts reads both). hub_seq: the mark's place on the team hub once pushed or
-- pulled (NULL: made here and not yet sent).
CREATE TABLE gold_mark (
  seq          INTEGER PRIMARY KEY,
  id           TEXT NOT NULL UNIQUE,
  item_id      INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
  task         TEXT NOT NULL CHECK (task IN ('*', 'pairwise', 'ranking', 'steps', 'rubric', 'verdict', 'critique')),
  gold         INTEGER NOT NULL CHECK (gold IN (0, 1)),
  annotator_id INTEGER NOT NULL REFERENCES annotator(id),
  created_at   TEXT NOT NULL,
  hub_seq      INTEGER
);
CREATE INDEX gold_mark_by_item ON gold_mark(item_id, task);
CREATE INDEX gold_mark_unsent ON gold_mark(seq) WHERE hub_seq IS NULL;

-- The team hub's gold marks read up to (core/hub/gold.ts), per linked project.
ALTER TABLE hub_link ADD COLUMN pulled_gold_seq INTEGER NOT NULL DEFAULT 0;
