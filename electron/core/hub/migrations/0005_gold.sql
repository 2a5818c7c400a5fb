-- Hub schema, version 5: gold, honeypots and qualification.
--
-- Gold marks (a lead marks a file's own labels as gold, per item and task or '*' for every task; the
-- desktop's gold_mark rows, migrations/0014_gold.sql): append-only like revisions, one row per mark with
-- the id the desktop made. Only a lead writes them, under their own uuid (row-level security, FORCEd for
-- the owner too); nobody updates or deletes one. A desktop checks each pulled mark again (core/hub/gold.ts):
-- its shape, its item, and that its uuid is a lead's on this hub, so a mark the hub's own maintenance or
-- a compromised hub wrote under someone else's name is refused there.
CREATE TABLE arbiter.gold_mark (
  hub_seq        bigserial PRIMARY KEY,
  id             text NOT NULL UNIQUE CHECK (id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
  project_id     bigint NOT NULL REFERENCES arbiter.project(id),
  item_uid       text NOT NULL,
  task           text NOT NULL CHECK (task IN ('*', 'pairwise', 'ranking', 'steps', 'rubric', 'verdict', 'critique')),
  gold           boolean NOT NULL,
  annotator_uuid uuid NOT NULL,
  created_at     text NOT NULL CHECK (created_at ~ '^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$'),
  pushed_at      timestamptz NOT NULL DEFAULT now(),
  pushed_by      name NOT NULL DEFAULT current_user,
  FOREIGN KEY (project_id, item_uid) REFERENCES arbiter.item_line (project_id, uid)
);
CREATE INDEX gold_mark_by_project ON arbiter.gold_mark (project_id, hub_seq);

ALTER TABLE arbiter.gold_mark ENABLE ROW LEVEL SECURITY;
ALTER TABLE arbiter.gold_mark FORCE ROW LEVEL SECURITY;
CREATE POLICY gold_mark_read ON arbiter.gold_mark FOR SELECT USING (true);
CREATE POLICY gold_mark_insert_lead ON arbiter.gold_mark FOR INSERT
  WITH CHECK (EXISTS (
    SELECT 1 FROM arbiter.annotator a
    WHERE a.pg_role = current_user AND a.uuid = annotator_uuid AND a.role = 'lead' AND a.revoked_at IS NULL
  ));

CREATE FUNCTION arbiter.gold_mark_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'gold marks are append-only: a new mark (gold or not) replaces an old one';
END
$$;
CREATE TRIGGER gold_mark_no_update BEFORE UPDATE OR DELETE ON arbiter.gold_mark FOR EACH ROW EXECUTE FUNCTION arbiter.gold_mark_is_append_only();
CREATE TRIGGER gold_mark_no_truncate BEFORE TRUNCATE ON arbiter.gold_mark FOR EACH STATEMENT EXECUTE FUNCTION arbiter.gold_mark_is_append_only();

GRANT SELECT ON arbiter.gold_mark TO arbiter_hub_member;
GRANT INSERT (id, project_id, item_uid, task, gold, annotator_uuid, created_at) ON arbiter.gold_mark TO arbiter_hub_lead;
GRANT USAGE ON SEQUENCE arbiter.gold_mark_hub_seq_seq TO arbiter_hub_lead;
