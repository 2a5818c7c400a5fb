-- Arbiter hub schema, version 3: what an audit of version 2 found a member could do by hand (issue 20).
--
-- 1. Forged cuts: a segmentation was taken as sent. Now its steps must be a list of texts, none blank,
--    that put back together give the response's text as the hub holds the item (whitespace aside, and the
--    fence lines splits and merges inside a code block add and take out; shared/cuts.ts for the desktop);
--    only a lead (or the hub's owner) places a cut of origin 'file' or 'auto'; and a member writes cuts
--    and revisions only into the projects they joined (arbiter.project_member, below).
-- 2. Names: a revision's line said any `annotator`. Now a line under a person's uuid names that person as
--    the hub knows them, and a line under no person's uuid (a file's, a model's) names no person.
-- 5. Ghost revisions: a revision for an item the project does not hold is refused.
-- 6. Commit order rested on an advisory lock any role that can connect could take and hold, stopping every
--    push. Now it rests on a row lock of arbiter.commit_order, a table nobody but its owner may lock: the
--    trigger function runs as its owner (SECURITY DEFINER); the guarantee is the same (migration 0002).
--
-- The new checks are statement-level AFTER INSERT triggers reading the statement's rows (a transition
-- table): one query per rule per statement, whatever the batch's size. Like row-level security they exempt
-- superusers and roles with BYPASSRLS (the hub's own maintenance); everyone else, the owner included, meets them.

-- Who is writing: exempt (superuser or BYPASSRLS), the tables' owner, and the annotator row of the login role.
CREATE FUNCTION arbiter.writer_exempt() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT r.rolsuper OR r.rolbypassrls FROM pg_catalog.pg_roles r WHERE r.rolname = current_user), false)
$$;
CREATE FUNCTION arbiter.writer_is_owner() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT pg_catalog.pg_has_role(current_user, (SELECT c.relowner FROM pg_catalog.pg_class c WHERE c.oid = 'arbiter.project'::regclass), 'MEMBER')
$$;

-- `hub revoke` marks the row (the person's uuid still names their revisions); `hub grant` clears it.
ALTER TABLE arbiter.annotator ADD COLUMN revoked_at timestamptz, ADD COLUMN revoked_by name;

CREATE FUNCTION arbiter.my_uuid() RETURNS uuid LANGUAGE sql STABLE AS $$
  SELECT a.uuid FROM arbiter.annotator a WHERE a.pg_role = current_user AND a.revoked_at IS NULL
$$;

-- Who joined which project. `hub join` (and the app's Join) adds the person's own row; a lead's publish adds
-- the lead's. A member may join a project whose settings name no team, or name them in it (the lead's
-- call, any letter case); a lead may add anyone. Backfilled below from what was pushed before version 3.
CREATE TABLE arbiter.project_member (
  project_id     bigint NOT NULL REFERENCES arbiter.project(id),
  annotator_uuid uuid NOT NULL DEFAULT arbiter.my_uuid() REFERENCES arbiter.annotator(uuid) ON UPDATE CASCADE,
  joined_at      timestamptz NOT NULL DEFAULT now(),
  added_by       name NOT NULL DEFAULT current_user,
  PRIMARY KEY (project_id, annotator_uuid)
);

INSERT INTO arbiter.project_member (project_id, annotator_uuid, joined_at)
SELECT project_id, annotator_uuid, min(at) FROM (
  SELECT r.project_id, r.annotator_uuid, r.pushed_at AS at FROM arbiter.revision r JOIN arbiter.annotator a ON a.uuid = r.annotator_uuid
  UNION ALL
  SELECT s.project_id, a.uuid, s.created_at FROM arbiter.segmentation s JOIN arbiter.annotator a ON a.pg_role = s.pushed_by
  UNION ALL
  SELECT p.id, a.uuid, p.published_at FROM arbiter.project p JOIN arbiter.annotator a ON a.pg_role = p.published_by
) pushed GROUP BY project_id, annotator_uuid;

CREATE FUNCTION arbiter.project_member_joins() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  my_uuid uuid;
  my_name text;
  my_role text;
  team jsonb;
  project_name text;
BEGIN
  IF arbiter.writer_exempt() OR arbiter.writer_is_owner() THEN RETURN NEW; END IF;
  SELECT a.uuid, a.name, a.role INTO my_uuid, my_name, my_role FROM arbiter.annotator a WHERE a.pg_role = current_user AND a.revoked_at IS NULL;
  IF my_uuid IS NULL THEN
    RAISE EXCEPTION 'the login role % is granted to no annotator on this hub, so it joins no project', current_user USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF my_role = 'lead' THEN RETURN NEW; END IF;
  IF NEW.annotator_uuid IS DISTINCT FROM my_uuid THEN
    RAISE EXCEPTION '"%" may join a project only as themselves; a lead adds others', my_name USING ERRCODE = 'insufficient_privilege';
  END IF;
  SELECT p.settings -> 'team', p.name INTO team, project_name FROM arbiter.project p WHERE p.id = NEW.project_id;
  IF jsonb_typeof(team) = 'array' AND jsonb_array_length(team) > 0
     AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements_text(team) t WHERE lower(t) = lower(my_name)) THEN
    RAISE EXCEPTION '"%" is not in the team of the project "%" on this hub, so they may not join it; its lead adds them to the team (the project''s settings)', my_name, project_name
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER project_member_joins BEFORE INSERT ON arbiter.project_member
  FOR EACH ROW EXECUTE FUNCTION arbiter.project_member_joins();

-- A lead who publishes a project has joined it (a lead demoted later still writes to it).
CREATE FUNCTION arbiter.project_publisher_joins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO arbiter.project_member (project_id, annotator_uuid)
  SELECT p.id, a.uuid FROM inserted p JOIN arbiter.annotator a ON a.pg_role = current_user AND a.revoked_at IS NULL
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
CREATE TRIGGER project_publisher_joins AFTER INSERT ON arbiter.project
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION arbiter.project_publisher_joins();

-- Any of the statement's projects this login role may not write into: a member writes only where they
-- joined; a lead, and the hub's owner, anywhere. NULL when every one is allowed.
CREATE FUNCTION arbiter.project_not_joined(projects bigint[]) RETURNS text LANGUAGE plpgsql STABLE AS $$
DECLARE
  my_uuid uuid;
  my_name text;
  my_role text;
  missing text;
BEGIN
  IF arbiter.writer_is_owner() THEN RETURN NULL; END IF;
  SELECT a.uuid, a.name, a.role INTO my_uuid, my_name, my_role FROM arbiter.annotator a WHERE a.pg_role = current_user AND a.revoked_at IS NULL;
  IF my_role = 'lead' THEN RETURN NULL; END IF;
  SELECT p.name INTO missing FROM arbiter.project p
  WHERE p.id = ANY (projects)
    AND NOT EXISTS (SELECT 1 FROM arbiter.project_member m WHERE m.project_id = p.id AND m.annotator_uuid = my_uuid)
  ORDER BY p.id LIMIT 1;
  IF missing IS NULL THEN RETURN NULL; END IF;
  RETURN format('"%s" has not joined the project "%s" on this hub, and a member writes only into projects they joined (arbiter hub join, or Join in the app)',
    coalesce(my_name, current_user::text), missing);
END
$$;

-- Revisions: the project joined, the item held, the annotator named as the hub knows them.
CREATE FUNCTION arbiter.revision_rules() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  why text;
  bad record;
BEGIN
  IF arbiter.writer_exempt() THEN RETURN NULL; END IF;
  why := arbiter.project_not_joined((SELECT array_agg(DISTINCT r.project_id) FROM inserted r));
  IF why IS NOT NULL THEN RAISE EXCEPTION '%', why USING ERRCODE = 'insufficient_privilege'; END IF;

  SELECT r.id, coalesce(r.line ->> 'item_uid', '(none)') AS uid, p.name INTO bad
  FROM inserted r JOIN arbiter.project p ON p.id = r.project_id
  WHERE NOT EXISTS (SELECT 1 FROM arbiter.item_line l WHERE l.project_id = r.project_id AND l.uid = r.line ->> 'item_uid')
  LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'revision % is for the item with uid %, which the project "%" on this hub does not hold; a revision goes up only for an item its lead published', bad.id, bad.uid, bad.name
      USING ERRCODE = 'foreign_key_violation';
  END IF;

  SELECT r.id, r.line ->> 'annotator' AS said, a.name INTO bad
  FROM inserted r JOIN arbiter.annotator a ON a.uuid = r.annotator_uuid
  WHERE (r.line ->> 'annotator') IS DISTINCT FROM a.name
  LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'revision % names its annotator %, but its annotator_uuid is "%"''s on this hub; a line names the person its uuid belongs to',
      bad.id, coalesce('"' || bad.said || '"', 'nobody'), bad.name USING ERRCODE = 'check_violation';
  END IF;
  SELECT r.id, a.name INTO bad
  FROM inserted r JOIN arbiter.annotator a ON a.name = r.line ->> 'annotator'
  WHERE a.uuid <> r.annotator_uuid
  LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'revision % names "%" as its annotator, but is not under their uuid; a line names the person its uuid belongs to', bad.id, bad.name
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER revision_rules AFTER INSERT ON arbiter.revision
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION arbiter.revision_rules();

-- A cut's rule, as shared/cuts.ts (cutProblem) says it for the desktop. Letters: a text without JavaScript's
-- whitespace (\s), which is what a cut trims at its edges.
CREATE FUNCTION arbiter.letters(t text) RETURNS text LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT translate(t, E' \t\n\r\f\u000b\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff', '')
$$;
-- Without ASCII whitespace only: a few times quicker, and two texts equal this way are equal as letters too.
CREATE FUNCTION arbiter.ascii_letters(t text) RETURNS text LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT replace(replace(replace(replace(replace(replace(t, ' ', ''), E'\n', ''), E'\t', ''), E'\r', ''), E'\f', ''), E'\u000b', '')
$$;

-- A message's content as the app reads it (shared/choices.ts messageText): a text, or its parts' texts
-- with a placeholder naming each other part.
CREATE FUNCTION arbiter.message_text(c json) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE json_typeof(c)
    WHEN 'string' THEN c #>> '{}'
    WHEN 'array' THEN (
      SELECT coalesce(string_agg(
        CASE
          WHEN json_typeof(p) = 'object' AND p ->> 'type' = 'text' AND json_typeof(p -> 'text') = 'string' THEN p ->> 'text'
          WHEN json_typeof(p) = 'object' AND p ->> 'type' = 'image_url' THEN '[image]'
          WHEN json_typeof(p) = 'object' THEN '[' || coalesce(nullif(p ->> 'type', ''), 'part') || ']'
          ELSE '[part]'
        END, E'\n' ORDER BY n), '')
      FROM json_array_elements(c) WITH ORDINALITY AS x(p, n))
    ELSE '' END
$$;

-- A response's text (shared/choices.ts contentText): a text, or its messages' texts.
CREATE FUNCTION arbiter.content_text(c json) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE json_typeof(c)
    WHEN 'string' THEN c #>> '{}'
    WHEN 'array' THEN (SELECT coalesce(string_agg(arbiter.message_text(m -> 'content'), E'\n\n' ORDER BY n), '') FROM json_array_elements(c) WITH ORDINALITY AS x(m, n))
    ELSE NULL END
$$;

-- What a split inside a code block adds, and a merge takes out again (shared/segment.ts splitStep,
-- mergeSteps), is fence lines: runs of backticks or tildes, and copies of a fence's opening line, whose
-- info string ("py") is the only letters they bring. The info strings of every fence line of a text, as
-- letters, longest first.
CREATE FUNCTION arbiter.fence_words(t text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT coalesce(array_agg(w ORDER BY length(w) DESC, w), '{}') FROM (
    SELECT DISTINCT translate(arbiter.letters(m[1]), '`~', '') AS w
    FROM regexp_matches(t, '^ {0,3}(?:`{3,}|~{3,})([^\n]*)$', 'gn') AS m
  ) x WHERE w <> ''
$$;

-- The fence words a split may copy: the text's, and those of the steps' fence lines that begin one of the
-- text's (a split inside an opening line copies the part of it before the split).
CREATE FUNCTION arbiter.split_fence_words(t text, steps text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT coalesce(array_agg(w ORDER BY length(w) DESC, w), '{}')
  FROM (SELECT arbiter.fence_words(t) AS whole) f,
  LATERAL (SELECT DISTINCT w FROM unnest(f.whole || arbiter.fence_words(steps)) AS w WHERE EXISTS (SELECT 1 FROM unnest(f.whole) AS v WHERE left(v, length(w)) = w)) x
$$;

-- A text's letters without backticks, tildes and the given fence words (taken out again until none is
-- left, since taking one out can join the pieces of another); `ascii`: without ASCII whitespace only, the
-- quicker look that is enough when it finds two texts the same.
CREATE FUNCTION arbiter.unfenced(t text, words text[], ascii boolean) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  s text := translate(CASE WHEN ascii THEN arbiter.ascii_letters(t) ELSE arbiter.letters(t) END, '`~', '');
  before text;
  w text;
BEGIN
  LOOP
    before := s;
    FOREACH w IN ARRAY words LOOP
      s := replace(s, w, '');
    END LOOP;
    EXIT WHEN s = before;
  END LOOP;
  RETURN s;
END
$$;

-- Why `steps` is not a cut of `response` (an item line's response: its text, and the file's own steps when
-- it gave them), or NULL when it is: a non-empty list of texts, none blank, that put back together give the
-- text (or the file's steps), whitespace aside, and aside from the fence lines splits and merges inside a
-- code block add and take out (shared/cuts.ts says the same for the desktop, putting the halves back
-- together as mergeSteps does; the hub is the more lenient of the two, never the stricter: a cut the app
-- made must never stop a push).
CREATE FUNCTION arbiter.cut_problem(response json, steps jsonb) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  texts text[];
  inks text[];
  not_text bigint;
  text_itself text;
  file_steps text;
  joined text;
  words text[];
BEGIN
  IF jsonb_typeof(steps) IS DISTINCT FROM 'array' THEN
    RETURN format('the steps are %s, not a list of texts', coalesce('a JSON ' || jsonb_typeof(steps), 'missing'));
  END IF;
  SELECT array_agg(e #>> '{}' ORDER BY k), array_agg(CASE WHEN jsonb_typeof(e) = 'string' THEN arbiter.ascii_letters(e #>> '{}') END ORDER BY k),
         min(k) FILTER (WHERE jsonb_typeof(e) <> 'string')
    INTO texts, inks, not_text FROM jsonb_array_elements(steps) WITH ORDINALITY AS x(e, k);
  IF texts IS NULL THEN RETURN 'the steps are an empty list'; END IF;
  IF not_text IS NOT NULL THEN RETURN format('step %s is not a text', not_text); END IF;
  FOR i IN 1..array_length(texts, 1) LOOP
    -- Blank: nothing left, or only the other whitespace (then it starts with one of those).
    IF inks[i] = '' OR (arbiter.letters(left(inks[i], 1)) = '' AND arbiter.letters(inks[i]) = '') THEN RETURN format('step %s is blank', i); END IF;
  END LOOP;
  text_itself := coalesce(arbiter.content_text(response -> 'text'), '');
  IF json_typeof(response -> 'steps') = 'array' THEN
    SELECT string_agg(CASE WHEN json_typeof(s) = 'string' THEN s #>> '{}' ELSE '' END, E'\n' ORDER BY k) INTO file_steps
    FROM json_array_elements(response -> 'steps') WITH ORDINALITY AS x(s, k);
  END IF;
  joined := array_to_string(inks, '');
  IF joined = arbiter.ascii_letters(text_itself) OR joined = arbiter.ascii_letters(file_steps) THEN RETURN NULL; END IF;
  joined := arbiter.letters(joined);
  IF joined = arbiter.letters(text_itself) OR joined = arbiter.letters(file_steps) THEN RETURN NULL; END IF;
  joined := array_to_string(texts, E'\n');
  words := arbiter.split_fence_words(text_itself, joined);
  IF arbiter.unfenced(joined, words, true) = arbiter.unfenced(text_itself, words, true) OR arbiter.unfenced(joined, words, false) = arbiter.unfenced(text_itself, words, false) THEN
    RETURN NULL;
  END IF;
  IF file_steps IS NOT NULL THEN
    words := arbiter.split_fence_words(file_steps, joined);
    IF arbiter.unfenced(joined, words, false) = arbiter.unfenced(file_steps, words, false) THEN RETURN NULL; END IF;
  END IF;
  RETURN 'the steps put together are not the response''s text';
END
$$;

-- Cuts: the project joined, 'file' and 'auto' from a lead, the item held, the steps a cut of its response.
CREATE FUNCTION arbiter.segmentation_rules() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  why text;
  bad record;
BEGIN
  IF arbiter.writer_exempt() THEN RETURN NULL; END IF;
  why := arbiter.project_not_joined((SELECT array_agg(DISTINCT s.project_id) FROM inserted s));
  IF why IS NOT NULL THEN RAISE EXCEPTION '%', why USING ERRCODE = 'insufficient_privilege'; END IF;
  IF NOT arbiter.writer_is_owner() AND NOT EXISTS (SELECT 1 FROM arbiter.annotator a WHERE a.pg_role = current_user AND a.role = 'lead' AND a.revoked_at IS NULL) THEN
    SELECT s.origin, s.item_uid INTO bad FROM inserted s WHERE s.origin <> 'annotator' LIMIT 1;
    IF FOUND THEN
      RAISE EXCEPTION 'a cut of origin % (of the item with uid %) is placed only by a lead; an annotator''s split or merge goes up as origin annotator', bad.origin, bad.item_uid
        USING ERRCODE = 'insufficient_privilege';
    END IF;
  END IF;
  FOR bad IN
    SELECT s.item_uid, s.response, s.version, s.steps, p.name AS project, l.uid IS NOT NULL AS held, l.line -> 'responses' -> s.response AS answer
    FROM inserted s JOIN arbiter.project p ON p.id = s.project_id
    LEFT JOIN arbiter.item_line l ON l.project_id = s.project_id AND l.uid = s.item_uid
  LOOP
    IF NOT bad.held THEN
      RAISE EXCEPTION 'a cut is for the item with uid %, which the project "%" on this hub does not hold', bad.item_uid, bad.project USING ERRCODE = 'foreign_key_violation';
    END IF;
    IF json_typeof(bad.answer) IS DISTINCT FROM 'object' THEN
      RAISE EXCEPTION 'a cut is for response % of the item with uid % in the project "%", which has no such response', bad.response, bad.item_uid, bad.project
        USING ERRCODE = 'check_violation';
    END IF;
    IF octet_length(bad.steps::text) > 64 * 1024 * 1024 THEN
      RAISE EXCEPTION 'version % of the cut of response % of the item with uid % is over 64 MiB', bad.version, bad.response, bad.item_uid USING ERRCODE = 'check_violation';
    END IF;
    why := arbiter.cut_problem(bad.answer, bad.steps);
    IF why IS NOT NULL THEN
      RAISE EXCEPTION 'version % of the cut of response % of the item with uid % in the project "%" is refused: %', bad.version, bad.response, bad.item_uid, bad.project, why
        USING ERRCODE = 'check_violation';
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;
CREATE TRIGGER segmentation_rules AFTER INSERT ON arbiter.segmentation
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION arbiter.segmentation_rules();

-- Commit order on a lock only the owner can take: the trigger function runs as its owner, and nobody
-- else has any privilege on the table (an advisory lock is anyone's to take).
CREATE TABLE arbiter.commit_order (writes text PRIMARY KEY);
INSERT INTO arbiter.commit_order VALUES ('revision'), ('segmentation');
REVOKE ALL ON arbiter.commit_order FROM PUBLIC;
CREATE OR REPLACE FUNCTION arbiter.in_commit_order() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM 1 FROM arbiter.commit_order WHERE writes = TG_TABLE_NAME FOR UPDATE;
  RETURN NULL;
END
$$;

-- Privileges: members read who joined and join themselves; leads add and remove people.
REVOKE ALL ON arbiter.project_member FROM PUBLIC;
GRANT SELECT ON arbiter.project_member TO arbiter_hub_member;
GRANT INSERT (project_id, annotator_uuid) ON arbiter.project_member TO arbiter_hub_member;
GRANT DELETE ON arbiter.project_member TO arbiter_hub_lead;
