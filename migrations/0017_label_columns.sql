-- Arbiter schema, version 17: the columns `arbiter stats` reads, kept beside label_head (issue 20). The
-- review of a project read every current pairwise label's revision row by its seq (300k random row reads
-- and their JSON bodies: 2× a plain GROUP BY pass); it now reads label_head alone. Each column is what the
-- current revision's row says, written with the head by every path that writes one (store/headColumns.ts:
-- a save, an undo, an import's labels, a labels merge or a hub pull through it):
--   strength          the revision's strength (1–3), as is
--   shown_left        the first source index of its shown order (the response shown on the left)
--   saved_ms          its created_at in ms since 1970 (Date.parse), when a real date in the canonical
--                     form every write stores (YYYY-MM-DDTHH:MM:SS.sssZ); NULL otherwise (the reader parses it)
--   time_ms           the body's time_ms, when a number
--   prelabel_visible  the body's prelabel_visible: 1 or 0, when true or false
--   regions           1 when the body holds region marks ("regions"), else 0 (review reads those bodies alone)
ALTER TABLE label_head ADD COLUMN strength INTEGER;
ALTER TABLE label_head ADD COLUMN shown_left INTEGER;
ALTER TABLE label_head ADD COLUMN saved_ms INTEGER;
ALTER TABLE label_head ADD COLUMN time_ms REAL;
ALTER TABLE label_head ADD COLUMN prelabel_visible INTEGER;
ALTER TABLE label_head ADD COLUMN regions INTEGER;

-- The heads an upgrade finds, backfilled from their revisions (the expressions of store/headColumns.ts).
UPDATE label_head SET
  strength = l.strength,
  shown_left = CASE WHEN json_valid(l.shown_order) AND json_type(l.shown_order, '$[0]') = 'integer' THEN json_extract(l.shown_order, '$[0]') END,
  saved_ms = CASE WHEN strftime('%Y-%m-%dT%H:%M:%fZ', l.created_at) = l.created_at THEN unixepoch(l.created_at) * 1000 + CAST(substr(l.created_at, 21, 3) AS INTEGER) END,
  time_ms = CASE WHEN json_valid(l.body) AND json_type(l.body, '$.time_ms') IN ('integer', 'real') THEN json_extract(l.body, '$.time_ms') END,
  prelabel_visible = CASE WHEN json_valid(l.body) THEN CASE json_type(l.body, '$.prelabel_visible') WHEN 'true' THEN 1 WHEN 'false' THEN 0 END END,
  regions = instr(l.body, '"regions"') > 0
FROM label l WHERE l.seq = label_head.label_seq;

-- The few heads whose review needs their revision row (a body with region marks, a created_at not kept as
-- ms, a choice other than the four of a pair): an index of them alone, so the review reads them first by
-- it rather than asking each of 300k rows (store/review.ts pairwiseHeads).
CREATE INDEX label_head_needs_row ON label_head(item_id, annotator_id)
  WHERE regions = 1 OR saved_ms IS NULL OR choice NOT IN ('A', 'B', 'tie', 'both_bad');
