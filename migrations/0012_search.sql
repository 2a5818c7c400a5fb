-- Arbiter schema, version 12: the full-text search index (docs/data.md, "Search").
--
-- One row per item, its rowid the item's id, in two halves (item_search, label_search) whose columns are
-- the fields a query may name (shared/searchQuery.ts SEARCH_COLUMNS; store/searchSql.ts joins the halves). The item's own text (prompt, responses, tool calls and results, reference) is written
-- with the item, in the import's own transactions (electron/core/store/search.ts); an item above its
-- project's visible_seq is never returned, so a pending import's rows are not found, and a failed one's
-- go with its items (the delete trigger). The labels' text (rationales, critiques, corrections, region
-- notes) is every current revision's of the item, kept by the triggers on label_head below.
-- unicode61 with diacritics removed: words as people type them ("cafe" finds "café"), bm25 over words;
-- why not trigram: docs/data.md.
CREATE VIRTUAL TABLE item_search USING fts5(
  prompt, response, tool, reference,
  tokenize = 'unicode61 remove_diacritics 2'
);
-- The labels' half: a small row per item whose current labels hold text (a saved rationale rewrites it,
-- not the item's whole text, which FTS5 would tokenize again out and in: 180 µs a revision against 30).
CREATE VIRTUAL TABLE label_search USING fts5(
  rationale, critique, correction, note,
  tokenize = 'unicode61 remove_diacritics 2'
);
-- The terms FTS5 gathers in memory before it writes them out as a segment: 16 MiB, not 1 MiB, so an
-- import writes fewer, larger segments and merges less (100k pairs: 21% less CPU in the index; a
-- connection that writes holds up to this much more memory). A setting of the table, kept in its config.
INSERT INTO item_search (item_search, rank) VALUES ('hashsize', 16777216);

-- The labels' searchable text per item, over the current revision of each (annotator, task).
CREATE VIEW item_label_text AS
SELECT h.item_id AS item_id,
  COALESCE(group_concat(l.body ->> '$.rationale', char(10)), '') AS rationale,
  COALESCE(group_concat((SELECT group_concat(value, char(10)) FROM json_each(l.body, '$.critique') WHERE type = 'text'), char(10)), '') AS critique,
  COALESCE(group_concat((SELECT group_concat(value, char(10)) FROM json_tree(l.body, '$.corrections') WHERE type = 'text'), char(10)), '') AS correction,
  COALESCE(group_concat((SELECT group_concat(value, char(10)) FROM json_tree(l.body, '$.regions') WHERE key = 'note' AND type = 'text'), char(10)), '') AS note
FROM label_head h JOIN label l ON l.seq = h.label_seq AND l.body <> '{}' AND json_valid(l.body)
GROUP BY h.item_id;

-- The items that have a label_search row (a plain table: the triggers below ask it on every head an
-- import writes, and asking FTS5 for a row costs more).
CREATE TABLE search_labeled (item_id INTEGER PRIMARY KEY);

-- A head that moves to a revision whose body may hold searchable text (its JSON names a rationale, a
-- critique, corrections or regions), or away from an item whose labels' text the index holds, rewrites
-- the item's label_search row. A source label with an empty body, or a body of time_ms alone, does not.
CREATE TRIGGER item_search_head_insert AFTER INSERT ON label_head
WHEN (SELECT instr(body, '"rationale"') OR instr(body, '"critique"') OR instr(body, '"corrections"') OR instr(body, '"regions"') FROM label WHERE seq = NEW.label_seq)
  OR EXISTS (SELECT 1 FROM search_labeled WHERE item_id = NEW.item_id)
BEGIN
  DELETE FROM label_search WHERE rowid = NEW.item_id;
  DELETE FROM search_labeled WHERE item_id = NEW.item_id;
  INSERT INTO label_search (rowid, rationale, critique, correction, note)
    SELECT item_id, rationale, critique, correction, note FROM item_label_text
    WHERE item_id = NEW.item_id AND (rationale <> '' OR critique <> '' OR correction <> '' OR note <> '');
  INSERT INTO search_labeled (item_id) SELECT NEW.item_id WHERE EXISTS (SELECT 1 FROM label_search WHERE rowid = NEW.item_id);
END;
CREATE TRIGGER item_search_head_update AFTER UPDATE OF label_seq ON label_head
WHEN (SELECT instr(body, '"rationale"') OR instr(body, '"critique"') OR instr(body, '"corrections"') OR instr(body, '"regions"') FROM label WHERE seq = NEW.label_seq)
  OR EXISTS (SELECT 1 FROM search_labeled WHERE item_id = NEW.item_id)
BEGIN
  DELETE FROM label_search WHERE rowid = NEW.item_id;
  DELETE FROM search_labeled WHERE item_id = NEW.item_id;
  INSERT INTO label_search (rowid, rationale, critique, correction, note)
    SELECT item_id, rationale, critique, correction, note FROM item_label_text
    WHERE item_id = NEW.item_id AND (rationale <> '' OR critique <> '' OR correction <> '' OR note <> '');
  INSERT INTO search_labeled (item_id) SELECT NEW.item_id WHERE EXISTS (SELECT 1 FROM label_search WHERE rowid = NEW.item_id);
END;
CREATE TRIGGER item_search_head_delete AFTER DELETE ON label_head
WHEN EXISTS (SELECT 1 FROM search_labeled WHERE item_id = OLD.item_id)
BEGIN
  DELETE FROM label_search WHERE rowid = OLD.item_id;
  DELETE FROM search_labeled WHERE item_id = OLD.item_id;
  INSERT INTO label_search (rowid, rationale, critique, correction, note)
    SELECT item_id, rationale, critique, correction, note FROM item_label_text
    WHERE item_id = OLD.item_id AND (rationale <> '' OR critique <> '' OR correction <> '' OR note <> '');
  INSERT INTO search_labeled (item_id) SELECT OLD.item_id WHERE EXISTS (SELECT 1 FROM label_search WHERE rowid = OLD.item_id);
END;

-- An item's row goes with it (a failed or cancelled import's batches, a deleted project).
CREATE TRIGGER item_search_item_delete AFTER DELETE ON item
BEGIN
  DELETE FROM item_search WHERE rowid = OLD.id;
  DELETE FROM label_search WHERE rowid = OLD.id;
  DELETE FROM search_labeled WHERE item_id = OLD.id;
END;

-- The items a database held before this version: indexed after the upgrade by a background build
-- (store/search.ts buildSearchIndex), in id order, next_id recording how far it came (a killed build
-- resumes there). Items written since carry their rows already; the row goes when the build is done.
CREATE TABLE search_build (
  id         INTEGER PRIMARY KEY CHECK (id = 1),
  next_id    INTEGER NOT NULL,
  end_id     INTEGER NOT NULL,
  total      INTEGER NOT NULL,
  done       INTEGER NOT NULL DEFAULT 0,
  started_at TEXT NOT NULL
);
INSERT INTO search_build (id, next_id, end_id, total, done, started_at)
  SELECT 1, MIN(id), MAX(id) + 1, COUNT(*), 0, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM item HAVING COUNT(*) > 0;
