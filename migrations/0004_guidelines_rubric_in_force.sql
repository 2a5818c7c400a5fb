-- Arbiter schema, version 4: guidelines with a history, the rubric a project labels with, and a lookup
-- from a rubric version to its labels.
-- - project.guidelines stays the current text (the labeling screens read it in one row); every save
--   also adds a revision, numbered per project, so a stale editor is refused instead of overwriting a
--   teammate's edit, and an older text can be read back.
-- - project.rubric names the rubric in force: the one the compare and verdict screens rate with (an
--   item's own criteria go before it). NULL: none. A project with exactly one rubric gets it.
-- - label_by_rubric_version: the editor lists each version's label count without scanning every label.

CREATE TABLE guidelines_revision (
  project_id  INTEGER NOT NULL REFERENCES project(id) ON DELETE CASCADE,
  revision    INTEGER NOT NULL,        -- 1, 2, … per project; the newest is project.guidelines
  text        TEXT NOT NULL,
  author      TEXT,                    -- the annotator name the editor was open under
  created_at  TEXT NOT NULL,
  PRIMARY KEY (project_id, revision)
) WITHOUT ROWID;
INSERT INTO guidelines_revision (project_id, revision, text, author, created_at)
  SELECT id, 1, guidelines, NULL, created_at FROM project WHERE guidelines <> '';

ALTER TABLE project ADD COLUMN rubric TEXT;
UPDATE project SET rubric = (SELECT r.name FROM rubric r WHERE r.project_id = project.id AND r.name NOT LIKE 'item/%')
  WHERE (SELECT COUNT(*) FROM rubric r WHERE r.project_id = project.id AND r.name NOT LIKE 'item/%') = 1;

CREATE INDEX label_by_rubric_version ON label(rubric_version_id) WHERE rubric_version_id IS NOT NULL;
