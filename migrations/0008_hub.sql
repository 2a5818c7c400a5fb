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
-- last_sync_at / last_error: what the Team panel shows (the error as a sentence, NULL after a good sync).
CREATE TABLE hub_link (
  project_id        INTEGER PRIMARY KEY REFERENCES project(id) ON DELETE CASCADE,
  url               TEXT NOT NULL,
  hub_project_id    INTEGER NOT NULL,
  joined_at         TEXT NOT NULL,
  pulled_seq        INTEGER NOT NULL DEFAULT 0,
  pushed_label_seq  INTEGER NOT NULL DEFAULT 0,
  last_sync_at      TEXT,
  last_error        TEXT
);
