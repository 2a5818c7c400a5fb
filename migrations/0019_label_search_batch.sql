-- Arbiter schema, version 19: a labels merge writes each item's label_search row once per batch, not once
-- per head (issue 20, "Speed that slipped"). Migration 12's triggers on label_head rewrite the item's whole
-- label_search row (every head's text, deleted and inserted again) at every head that moves: a merge of 3
-- annotators' files rewrote each item's row three times, 7.8 s of a 300k-revision merge. They now stand
-- aside while a batch writer's transaction holds the row of label_search_deferred; that writer rewrites
-- the rows of the items it touched itself, once each, before it commits (store/labelSearch.ts, called by
-- the labels merge's apply, store/labelImports.ts, which a hub pull goes through too). A save, an undo, an
-- import's own labels never set it: the triggers keep their rows current in the save's transaction, as
-- before. What the index holds is unchanged: nothing here writes to it.

-- The flag: a row while a batch writer defers the labels' rows; set and cleared inside that writer's one
-- write transaction, so no other connection ever sees it (a failed batch rolls it back with the rest).
CREATE TABLE label_search_deferred (id INTEGER PRIMARY KEY CHECK (id = 1));

-- The searchable text of each current revision, one row per head (NULL where it holds none), so a batch
-- reads the heads of its items through label_head's key; item_label_text is the same text per item, as
-- migration 12 gave it (group_concat skips the NULLs, in the heads' key order). A body whose text does not
-- name a field (serializeBody's JSON writes every key as it is) holds none of it: its JSON is not walked.
DROP TRIGGER item_search_head_insert;
DROP TRIGGER item_search_head_update;
DROP TRIGGER item_search_head_delete;
DROP VIEW item_label_text;
CREATE VIEW label_head_text AS
SELECT h.item_id AS item_id, h.annotator_id AS annotator_id, h.task AS task,
  l.body ->> '$.rationale' AS rationale,
  CASE WHEN instr(l.body, '"critique"') THEN (SELECT group_concat(value, char(10)) FROM json_each(l.body, '$.critique') WHERE type = 'text') END AS critique,
  CASE WHEN instr(l.body, '"corrections"') THEN (SELECT group_concat(value, char(10)) FROM json_tree(l.body, '$.corrections') WHERE type = 'text') END AS correction,
  CASE WHEN instr(l.body, '"regions"') THEN (SELECT group_concat(value, char(10)) FROM json_tree(l.body, '$.regions') WHERE key = 'note' AND type = 'text') END AS note
FROM label_head h JOIN label l ON l.seq = h.label_seq AND l.body <> '{}' AND json_valid(l.body);
CREATE VIEW item_label_text AS
SELECT item_id,
  COALESCE(group_concat(rationale, char(10)), '') AS rationale,
  COALESCE(group_concat(critique, char(10)), '') AS critique,
  COALESCE(group_concat(correction, char(10)), '') AS correction,
  COALESCE(group_concat(note, char(10)), '') AS note
FROM label_head_text
GROUP BY item_id;

-- Migration 12's triggers, word for word, each asking first whether a batch writer defers.
CREATE TRIGGER item_search_head_insert AFTER INSERT ON label_head
WHEN NOT EXISTS (SELECT 1 FROM label_search_deferred)
  AND ((SELECT instr(body, '"rationale"') OR instr(body, '"critique"') OR instr(body, '"corrections"') OR instr(body, '"regions"') FROM label WHERE seq = NEW.label_seq)
    OR EXISTS (SELECT 1 FROM search_labeled WHERE item_id = NEW.item_id))
BEGIN
  DELETE FROM label_search WHERE rowid = NEW.item_id;
  DELETE FROM search_labeled WHERE item_id = NEW.item_id;
  INSERT INTO label_search (rowid, rationale, critique, correction, note)
    SELECT item_id, rationale, critique, correction, note FROM item_label_text
    WHERE item_id = NEW.item_id AND (rationale <> '' OR critique <> '' OR correction <> '' OR note <> '');
  INSERT INTO search_labeled (item_id) SELECT NEW.item_id WHERE EXISTS (SELECT 1 FROM label_search WHERE rowid = NEW.item_id);
END;
CREATE TRIGGER item_search_head_update AFTER UPDATE OF label_seq ON label_head
WHEN NOT EXISTS (SELECT 1 FROM label_search_deferred)
  AND ((SELECT instr(body, '"rationale"') OR instr(body, '"critique"') OR instr(body, '"corrections"') OR instr(body, '"regions"') FROM label WHERE seq = NEW.label_seq)
    OR EXISTS (SELECT 1 FROM search_labeled WHERE item_id = NEW.item_id))
BEGIN
  DELETE FROM label_search WHERE rowid = NEW.item_id;
  DELETE FROM search_labeled WHERE item_id = NEW.item_id;
  INSERT INTO label_search (rowid, rationale, critique, correction, note)
    SELECT item_id, rationale, critique, correction, note FROM item_label_text
    WHERE item_id = NEW.item_id AND (rationale <> '' OR critique <> '' OR correction <> '' OR note <> '');
  INSERT INTO search_labeled (item_id) SELECT NEW.item_id WHERE EXISTS (SELECT 1 FROM label_search WHERE rowid = NEW.item_id);
END;
CREATE TRIGGER item_search_head_delete AFTER DELETE ON label_head
WHEN NOT EXISTS (SELECT 1 FROM label_search_deferred)
  AND EXISTS (SELECT 1 FROM search_labeled WHERE item_id = OLD.item_id)
BEGIN
  DELETE FROM label_search WHERE rowid = OLD.item_id;
  DELETE FROM search_labeled WHERE item_id = OLD.item_id;
  INSERT INTO label_search (rowid, rationale, critique, correction, note)
    SELECT item_id, rationale, critique, correction, note FROM item_label_text
    WHERE item_id = OLD.item_id AND (rationale <> '' OR critique <> '' OR correction <> '' OR note <> '');
  INSERT INTO search_labeled (item_id) SELECT OLD.item_id WHERE EXISTS (SELECT 1 FROM label_search WHERE rowid = OLD.item_id);
END;
