-- Arbiter schema, version 16: the videos each project holds. Their bytes are in the video store beside the
-- database (core/videos/store.ts: the image store's videos/ folder), each once by sha256; this table says
-- which project's items hold which, so that the video route plays a project its own videos only. Filled
-- by the import in the transaction that writes the items; `seq` is the first seq of the import that
-- brought the video, so the rows of an import rolled back (or cut short by a crash) go with its items.
CREATE TABLE project_video (
  project_id  INTEGER NOT NULL REFERENCES project(id) ON DELETE CASCADE,
  sha256      TEXT NOT NULL,
  seq         INTEGER NOT NULL,
  PRIMARY KEY (project_id, sha256)
) WITHOUT ROWID;
