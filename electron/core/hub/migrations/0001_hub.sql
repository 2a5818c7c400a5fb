-- Arbiter hub schema, version 1 (PostgreSQL). Applied by `arbiter hub init` (electron/core/hub/schema.ts) in
-- one transaction, after the schema `arbiter` and its table hub_schema_version exist. The role that runs it
-- owns every table: it is the hub's admin (it needs CREATEROLE to make the group roles below).
--
-- Who may write what is PostgreSQL's to enforce, not the client's:
-- - arbiter_hub_member (group role, NOLOGIN): reads everything; inserts revisions (only its own, by row-level
--   security) and segmentations. Never UPDATE or DELETE on a revision: not granted, and a trigger refuses them
--   for everyone, the owner included.
-- - arbiter_hub_lead (group role, a member too): publishes projects, items, images, rubric versions and
--   guidelines; may insert adjudicated revisions (the policy reads the annotator row's role).
-- - Each annotator logs in as their own role (arbiter_<name>), made by `arbiter hub grant`, which also writes
--   their row in arbiter.annotator (uuid = the identity their labels carry).
-- Group roles belong to the cluster, grants to this database: a second hub database in the same cluster
-- shares the group and login roles but not the grants.

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'arbiter_hub_member') THEN
    CREATE ROLE arbiter_hub_member NOLOGIN;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'arbiter_hub_lead') THEN
    CREATE ROLE arbiter_hub_lead NOLOGIN;
  END IF;
  IF NOT pg_has_role('arbiter_hub_lead', 'arbiter_hub_member', 'MEMBER') THEN
    GRANT arbiter_hub_member TO arbiter_hub_lead;
  END IF;
END
$$;

-- A published project: its settings as the local project keeps them (task kinds, rubric in force, …).
CREATE TABLE arbiter.project (
  id           bigserial PRIMARY KEY,
  name         text NOT NULL UNIQUE,
  settings     jsonb NOT NULL DEFAULT '{}',
  published_at timestamptz NOT NULL DEFAULT now(),
  published_by name NOT NULL DEFAULT current_user
);

-- Items as the `arbiter` items format writes them (electron/core/formats/exchange/arbiter.ts), in order;
-- uid is the item's content hash, equal on every machine.
CREATE TABLE arbiter.item_line (
  project_id bigint NOT NULL REFERENCES arbiter.project(id),
  seq        integer NOT NULL,
  uid        text NOT NULL,
  -- json, not jsonb: the exact text the writer made (jsonb reorders keys and refuses \u0000 and lone
  -- surrogates, which item text may hold), so a join re-imports byte-identical items. (P2, hub/publish.ts)
  line       json NOT NULL,
  -- The item's own criteria as stored (JSON text), or NULL; later edits travel as `item/<uid>` rubric versions.
  criteria   json,
  PRIMARY KEY (project_id, seq),
  UNIQUE (project_id, uid)
);

-- Image bytes, content-addressed like the local image store.
CREATE TABLE arbiter.image (
  sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  bytes  bytea NOT NULL,
  mime   text NOT NULL
);

CREATE TABLE arbiter.rubric_version (
  project_id   bigint NOT NULL REFERENCES arbiter.project(id),
  name         text NOT NULL,
  version      integer NOT NULL,
  criteria     jsonb NOT NULL,
  in_force     boolean NOT NULL DEFAULT false,
  published_at timestamptz NOT NULL DEFAULT now(),
  published_by name NOT NULL DEFAULT current_user,
  PRIMARY KEY (project_id, name, version)
);

CREATE TABLE arbiter.guidelines (
  project_id   bigint NOT NULL REFERENCES arbiter.project(id),
  revision     integer NOT NULL,
  text         text NOT NULL,
  author       text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  published_by name NOT NULL DEFAULT current_user,
  PRIMARY KEY (project_id, revision)
);

-- Versions of a response's steps; hub_seq orders them for pulling what is new.
CREATE TABLE arbiter.segmentation (
  hub_seq    bigserial PRIMARY KEY,
  project_id bigint NOT NULL REFERENCES arbiter.project(id),
  item_uid   text NOT NULL,
  response   integer NOT NULL,
  version    integer NOT NULL,
  steps      jsonb NOT NULL,
  origin     text NOT NULL CHECK (origin IN ('file', 'auto', 'annotator')),
  created_at timestamptz NOT NULL DEFAULT now(),
  pushed_by  name NOT NULL DEFAULT current_user,
  UNIQUE (project_id, item_uid, response, version)
);

-- The people who may write, and the PostgreSQL role each logs in as.
CREATE TABLE arbiter.annotator (
  uuid       uuid PRIMARY KEY,
  name       text NOT NULL UNIQUE,
  role       text NOT NULL CHECK (role IN ('annotator', 'lead')),
  pg_role    name NOT NULL UNIQUE,
  granted_at timestamptz NOT NULL DEFAULT now(),
  granted_by name NOT NULL DEFAULT current_user
);

-- Label revisions, each the exact line the labels format writes (exchange/labels.ts encodeLabel). The
-- columns the policy checks must say what the line says, so a line cannot claim another annotator or an
-- adjudication its columns deny.
CREATE TABLE arbiter.revision (
  hub_seq        bigserial PRIMARY KEY,
  id             text NOT NULL UNIQUE,
  project_id     bigint NOT NULL REFERENCES arbiter.project(id),
  annotator_uuid uuid NOT NULL,
  adjudicated    boolean NOT NULL DEFAULT false,
  line           jsonb NOT NULL,
  pushed_at      timestamptz NOT NULL DEFAULT now(),
  pushed_by      name NOT NULL DEFAULT current_user,
  CONSTRAINT revision_line_is_an_object CHECK (jsonb_typeof(line) = 'object'),
  CONSTRAINT revision_line_id CHECK (line ->> 'id' = id),
  CONSTRAINT revision_line_annotator CHECK (lower(line ->> 'annotator_uuid') = annotator_uuid::text),
  CONSTRAINT revision_line_adjudicated CHECK (adjudicated = coalesce(line -> 'adjudicated' = 'true'::jsonb, false))
);
CREATE INDEX revision_by_project ON arbiter.revision (project_id, hub_seq);

-- Row-level security: everyone with SELECT reads every revision; an INSERT must be under the uuid of the
-- annotator row whose login role is current_user, and adjudicated only where that row is a lead. FORCE:
-- the owner is held to it too (a superuser is not: PostgreSQL exempts superusers from row security).
ALTER TABLE arbiter.revision ENABLE ROW LEVEL SECURITY;
ALTER TABLE arbiter.revision FORCE ROW LEVEL SECURITY;
CREATE POLICY revision_read ON arbiter.revision FOR SELECT USING (true);
CREATE POLICY revision_insert_own ON arbiter.revision FOR INSERT
  WITH CHECK (EXISTS (
    SELECT 1 FROM arbiter.annotator a
    WHERE a.pg_role = current_user
      AND a.uuid = annotator_uuid
      AND (NOT adjudicated OR a.role = 'lead')
  ));
-- A file's own labels (annotator_kind 'source') and models' have no person behind them: the lead or the
-- owner who publishes the project puts them up (core/hub/publish.ts), never as adjudications.
CREATE POLICY revision_insert_file_labels ON arbiter.revision FOR INSERT
  WITH CHECK (
    NOT adjudicated
    AND line ->> 'annotator_kind' IN ('source', 'model')
    -- never under a person's uuid: that would count as their label on every desktop
    AND NOT EXISTS (SELECT 1 FROM arbiter.annotator p WHERE p.uuid = annotator_uuid)
    AND (EXISTS (SELECT 1 FROM arbiter.annotator a WHERE a.pg_role = current_user AND a.role = 'lead')
         OR pg_has_role(current_user, (SELECT c.relowner FROM pg_class c WHERE c.oid = 'arbiter.revision'::regclass), 'MEMBER'))
  );

-- Belt and braces: no UPDATE, DELETE or TRUNCATE reaches a revision, whoever asks.
CREATE FUNCTION arbiter.revision_is_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'a revision on the hub is never changed or removed (% refused); save a new revision instead', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;
CREATE TRIGGER revision_append_only BEFORE UPDATE OR DELETE ON arbiter.revision
  FOR EACH ROW EXECUTE FUNCTION arbiter.revision_is_append_only();
CREATE TRIGGER revision_no_truncate BEFORE TRUNCATE ON arbiter.revision
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter.revision_is_append_only();

-- Connected desktops LISTEN on arbiter_hub; the payload is the project id. One notification per project
-- per statement (a batch of 5,000 revisions is one), delivered when the transaction commits.
CREATE FUNCTION arbiter.revision_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p bigint;
BEGIN
  FOR p IN SELECT DISTINCT project_id FROM inserted LOOP
    PERFORM pg_notify('arbiter_hub', p::text);
  END LOOP;
  RETURN NULL;
END
$$;
CREATE TRIGGER revision_notify AFTER INSERT ON arbiter.revision
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION arbiter.revision_notify();

-- Privileges. PUBLIC gets nothing in this schema; members read and append; leads publish.
REVOKE ALL ON ALL TABLES IN SCHEMA arbiter FROM PUBLIC;
REVOKE ALL ON SCHEMA arbiter FROM PUBLIC;
GRANT USAGE ON SCHEMA arbiter TO arbiter_hub_member;
GRANT SELECT ON ALL TABLES IN SCHEMA arbiter TO arbiter_hub_member;
-- Only the columns a client says; hub_seq, pushed_at and pushed_by are the hub's to fill.
GRANT INSERT (id, project_id, annotator_uuid, adjudicated, line) ON arbiter.revision TO arbiter_hub_member;
GRANT USAGE ON SEQUENCE arbiter.revision_hub_seq_seq TO arbiter_hub_member;
GRANT INSERT (project_id, item_uid, response, version, steps, origin, created_at) ON arbiter.segmentation TO arbiter_hub_member;
GRANT USAGE ON SEQUENCE arbiter.segmentation_hub_seq_seq TO arbiter_hub_member;
GRANT INSERT, UPDATE ON arbiter.project, arbiter.item_line, arbiter.image, arbiter.rubric_version, arbiter.guidelines TO arbiter_hub_lead;
GRANT USAGE ON SEQUENCE arbiter.project_id_seq TO arbiter_hub_lead;
