-- Hub schema, version 4: saved views of the items explorer (a query and a sort by name per project,
-- migrations/0013_views.sql on a desktop). Append-only: each save (or delete, a tombstone) is a row under
-- the saver's uuid, and on every desktop the newest updated_at of a name wins (core/hub/views.ts), so a
-- sync never overwrites; a row is never updated or deleted here. A member writes views only into the
-- projects they joined, under their own uuid (row-level security, FORCEd for the owner too). A desktop
-- checks every row again when it pulls it (the save's schema and the query language), and reads a
-- bounded number of them.
CREATE TABLE arbiter.item_view (
  hub_seq        bigserial PRIMARY KEY,
  id             text NOT NULL CHECK (id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'),
  project_id     bigint NOT NULL REFERENCES arbiter.project(id),
  name           text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 120),
  query          text NOT NULL CHECK (char_length(query) <= 2000),
  sort           jsonb NOT NULL CHECK (octet_length(sort::text) <= 200),
  author         text CHECK (author IS NULL OR char_length(author) <= 80),
  updated_at     text NOT NULL CHECK (updated_at ~ '^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$'),
  deleted        boolean NOT NULL DEFAULT false,
  annotator_uuid uuid NOT NULL,
  pushed_at      timestamptz NOT NULL DEFAULT now(),
  pushed_by      name NOT NULL DEFAULT current_user,
  UNIQUE (project_id, id, updated_at)
);
CREATE INDEX item_view_by_name ON arbiter.item_view (project_id, name, updated_at DESC);

ALTER TABLE arbiter.item_view ENABLE ROW LEVEL SECURITY;
ALTER TABLE arbiter.item_view FORCE ROW LEVEL SECURITY;
CREATE POLICY item_view_read ON arbiter.item_view FOR SELECT USING (true);
CREATE POLICY item_view_insert_own ON arbiter.item_view FOR INSERT
  WITH CHECK (EXISTS (
    SELECT 1 FROM arbiter.annotator a
    WHERE a.pg_role = current_user AND a.uuid = annotator_uuid AND a.revoked_at IS NULL
  ) AND arbiter.project_not_joined(ARRAY[project_id]) IS NULL);

CREATE FUNCTION arbiter.item_view_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'saved views are append-only on the hub: a newer save of the name replaces an older one';
END
$$;
CREATE TRIGGER item_view_no_update BEFORE UPDATE OR DELETE ON arbiter.item_view FOR EACH ROW EXECUTE FUNCTION arbiter.item_view_is_append_only();
CREATE TRIGGER item_view_no_truncate BEFORE TRUNCATE ON arbiter.item_view FOR EACH STATEMENT EXECUTE FUNCTION arbiter.item_view_is_append_only();

GRANT SELECT ON arbiter.item_view TO arbiter_hub_member;
GRANT INSERT (id, project_id, name, query, sort, author, updated_at, deleted, annotator_uuid) ON arbiter.item_view TO arbiter_hub_member;
GRANT USAGE ON SEQUENCE arbiter.item_view_hub_seq_seq TO arbiter_hub_member;
