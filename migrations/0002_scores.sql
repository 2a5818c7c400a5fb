-- Reward models and their scores. A model is its folder's content hash: the same files are the same
-- model wherever the folder lives. Scores are a cache keyed by (model, input hash) so re-scoring skips
-- what is done; content_hash hashes what the model read (prompt + response, + steps for process
-- models), since a reward scores a response in the context of its prompt.

CREATE TABLE model (
  id        INTEGER PRIMARY KEY,
  name      TEXT NOT NULL,
  hash      TEXT NOT NULL UNIQUE,
  dir       TEXT NOT NULL,
  kind      TEXT NOT NULL CHECK (kind IN ('outcome', 'process')),
  manifest  TEXT NOT NULL DEFAULT '{}',  -- JSON: the resolved spec, the user's arbiter-model.json, file signatures
  added_at  TEXT NOT NULL
);

CREATE TABLE score (
  model_id       INTEGER NOT NULL REFERENCES model(id) ON DELETE CASCADE,
  content_hash   TEXT NOT NULL,
  -- The item and response first scored with this input (informational: equal inputs share a score).
  item_id        INTEGER REFERENCES item(id) ON DELETE SET NULL,
  response_index INTEGER,
  reward         REAL,                   -- NULL when the model gave no usable score
  step_scores    TEXT,                   -- JSON array of P(step good) (null per step cut by truncation); process models only
  provider       TEXT NOT NULL,
  created_at     TEXT NOT NULL,
  PRIMARY KEY (model_id, content_hash)
) WITHOUT ROWID;
CREATE INDEX score_by_item ON score(item_id);
