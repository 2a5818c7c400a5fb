-- Arbiter hub schema, version 2: hub_seq in commit order, so a pull watermark never skips a revision.
--
-- A desktop pulls "revisions with hub_seq > my watermark" and then moves its watermark to the largest
-- hub_seq it merged. A bigserial alone does not make that safe: hub_seq is drawn when a row is inserted,
-- not when its transaction commits, so a push that drew 101 and commits after another push's 102 became
-- visible would be skipped for good by a desktop that pulled in between (seen against PostgreSQL 15: a
-- reader saw 2 while 1 was still uncommitted, then 1 appeared below its watermark).
--
-- The remedy: every INSERT statement into revision (or segmentation) first takes a transaction-scoped
-- advisory lock, in a BEFORE … FOR EACH STATEMENT trigger, which runs before any row's default (nextval)
-- is drawn. Writers are serialised from their first row to their commit, so hub_seq order is commit
-- order and what any snapshot sees is a prefix of it. Held by one push batch at a time: a few ms to tens
-- of ms. No client cooperation is needed (a publish, a sync, psql all pass through it).
CREATE FUNCTION arbiter.in_commit_order() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- 0x41726273 "Arbs", and one lock per table.
  PERFORM pg_advisory_xact_lock(1098015347, CASE TG_TABLE_NAME WHEN 'revision' THEN 1 ELSE 2 END);
  RETURN NULL;
END
$$;
CREATE TRIGGER revision_in_commit_order BEFORE INSERT ON arbiter.revision
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter.in_commit_order();
CREATE TRIGGER segmentation_in_commit_order BEFORE INSERT ON arbiter.segmentation
  FOR EACH STATEMENT EXECUTE FUNCTION arbiter.in_commit_order();
