-- Arbiter schema, version 7: the images each project holds. Their bytes are in the image store beside the
-- database (core/images/store.ts), each once by sha256; this table says which project's items hold which,
-- so that the image route serves a project its own images only. Filled by the import in the transaction
-- that writes the items. `seq` is the first seq of the import that brought the image to the project: the
-- rows of an import that is rolled back (or that a crash cut short) go with its items.
CREATE TABLE project_image (
  project_id  INTEGER NOT NULL REFERENCES project(id) ON DELETE CASCADE,
  sha256      TEXT NOT NULL,
  seq         INTEGER NOT NULL,
  PRIMARY KEY (project_id, sha256)
) WITHOUT ROWID;
