-- Arbiter schema, version 15: local generative judges (GGUF models through llama.cpp, or an
-- OpenAI-compatible server the user names), their prompt templates, and what they answered.
--
-- judge_template: a project's prompt template per judge kind, versioned like rubrics: saving changed
-- text makes the next version, the same text keeps its own, and a version never changes.
CREATE TABLE judge_template (
  id          INTEGER PRIMARY KEY,
  project_id  INTEGER NOT NULL REFERENCES project(id) ON DELETE CASCADE,
  kind        TEXT NOT NULL CHECK (kind IN ('pairwise', 'rubric', 'steps', 'outcome')),
  version     INTEGER NOT NULL CHECK (version >= 1),
  system      TEXT NOT NULL,
  prompt      TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  UNIQUE (project_id, kind, version)
);
CREATE TRIGGER judge_template_frozen BEFORE UPDATE ON judge_template
BEGIN SELECT RAISE(ABORT, 'a judge template version never changes: save a new version'); END;

-- judge_engine: a project's OpenAI-compatible server, when the user set one (there is never a default,
-- and nothing is sent anywhere before it is set). The local engine needs no row.
CREATE TABLE judge_engine (
  project_id  INTEGER PRIMARY KEY REFERENCES project(id) ON DELETE CASCADE,
  base_url    TEXT NOT NULL,
  api_key     TEXT NOT NULL DEFAULT '',
  model       TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);

-- judge_result: one answer (pairwise: both presentation orders) of one judge on one item, or on one
-- response of it (rubric, steps, outcome). What was run is named in full so a run can be repeated and
-- compared: the model file's sha256 (or the server's model name), the template version, the sampling
-- parameters and the seed. verdict is in the item's source order ('A' is response 0) whichever order
-- the judge saw; flipped: the two orders disagreed (the pre-label is then uncertain). error: why no
-- answer was stored (a time or token limit, a refused answer), with answer NULL.
CREATE TABLE judge_result (
  id               INTEGER PRIMARY KEY,
  run_id           TEXT NOT NULL,
  project_id       INTEGER NOT NULL REFERENCES project(id) ON DELETE CASCADE,
  item_id          INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
  response_index   INTEGER,
  kind             TEXT NOT NULL CHECK (kind IN ('pairwise', 'rubric', 'steps', 'outcome')),
  engine           TEXT NOT NULL CHECK (engine IN ('llama', 'openai')),
  model_name       TEXT NOT NULL,
  model_hash       TEXT NOT NULL,
  template_version INTEGER NOT NULL,
  rubric_version   INTEGER,
  params           TEXT NOT NULL,
  seed             INTEGER NOT NULL,
  answer           TEXT,
  answer_swapped   TEXT,
  verdict          TEXT CHECK (verdict IN ('A', 'B', 'tie')),
  strength         INTEGER,
  flipped          INTEGER CHECK (flipped IN (0, 1)),
  first_error      INTEGER,
  outcome          TEXT,
  critique         TEXT,
  error            TEXT,
  tokens           INTEGER NOT NULL DEFAULT 0,
  ms               INTEGER NOT NULL DEFAULT 0,
  created_at       TEXT NOT NULL
);
CREATE INDEX judge_result_by_item ON judge_result(project_id, item_id, kind);

-- judge_critique_edit: an annotator took a judge's critique as the start of their own; how far their
-- saved critique is from it (Levenshtein distance in characters), and which revision saved it.
CREATE TABLE judge_critique_edit (
  id           INTEGER PRIMARY KEY,
  result_id    INTEGER NOT NULL REFERENCES judge_result(id) ON DELETE CASCADE,
  item_id      INTEGER NOT NULL REFERENCES item(id) ON DELETE CASCADE,
  annotator    TEXT NOT NULL,
  revision_id  TEXT NOT NULL,
  distance     INTEGER NOT NULL,
  judge_length INTEGER NOT NULL,
  final_length INTEGER NOT NULL,
  created_at   TEXT NOT NULL,
  UNIQUE (revision_id, result_id)
);
