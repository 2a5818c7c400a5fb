-- Arbiter schema, version 8: a project joined to (or published on) a team hub, a PostgreSQL database
-- (electron/core/hub/). One row per linked project: the hub's address WITHOUT its password (passwords
-- live in the OS keychain, an environment variable or a prompt, never here), the hub's id of the
-- project, and the two sync watermarks:
-- - pushed_label_seq: the local label.seq of the last of this machine's own revisions (saved here, so
--   label.import_id IS NULL, by a human annotator) known to be committed on the hub. Moved only after
--   the hub's INSERT … ON CONFLICT (id) DO NOTHING committed; a replay after a kill adds nothing there.
-- - pulled_seq: the hub's revision.hub_seq up to which everyone else's revisions are merged here. Moved
--   only after the merge of the batch completed (a replay merges nothing twice: a merge is idempotent
--   by revision id).
-- - pulled_segmentation_seq / pushed_segmentation_id: the same for segmentations (the hub's
--   segmentation.hub_seq; the local segmentation.id of the last annotator-made cut offered to the hub).
-- last_sync_at / last_error: what the Team panel shows (the error as a sentence, NULL after a good sync).
--
-- hub_deferred: revisions pulled from the hub that could not merge yet (an item this project lacks, a
-- rubric version not published yet, a line that does not pass the checks here), by hub_seq, with why.
-- The pull watermark moves past them, so one such line never stops the team's sync; every sync tries
-- them again first, and a row goes once its revision merged (or turned out to be stored already).
CREATE TABLE hub_link (
  project_id        INTEGER PRIMARY KEY REFERENCES project(id) ON DELETE CASCADE,
  url               TEXT NOT NULL,
  hub_project_id    INTEGER NOT NULL,
  joined_at         TEXT NOT NULL,
  pulled_seq        INTEGER NOT NULL DEFAULT 0,
  pushed_label_seq  INTEGER NOT NULL DEFAULT 0,
  pulled_segmentation_seq INTEGER NOT NULL DEFAULT 0,
  pushed_segmentation_id  INTEGER NOT NULL DEFAULT 0,
  last_sync_at      TEXT,
  last_error        TEXT
);

CREATE TABLE hub_deferred (
  project_id  INTEGER NOT NULL REFERENCES hub_link(project_id) ON DELETE CASCADE,
  hub_seq     INTEGER NOT NULL,
  reason      TEXT NOT NULL,
  PRIMARY KEY (project_id, hub_seq)
) WITHOUT ROWID;

-- The revisions saved here (the only ones a sync pushes), in seq order: a push finds those after its
-- watermark without walking past the many a merge brought in.
CREATE INDEX label_saved_here ON label(seq) WHERE import_id IS NULL;
