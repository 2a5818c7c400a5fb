-- Arbiter schema, version 9: revisions saved here that a sync could not push, held until one can.
-- The hub takes a revision only under the uuid of the login role that sends it (and an adjudication only
-- from a lead), so on a desktop shared by two people one person's sync cannot send the other's. The push
-- watermark (hub_link.pushed_label_seq) still moves past them, so they are never read again with the new
-- ones; each is kept here by its label.seq, offered first at every sync, and goes once the hub committed
-- it under a login role that may send it. Linking the project to another hub starts its push over from
-- the first revision, and empties this.
CREATE TABLE hub_held (
  project_id  INTEGER NOT NULL REFERENCES hub_link(project_id) ON DELETE CASCADE,
  seq         INTEGER NOT NULL,
  PRIMARY KEY (project_id, seq)
) WITHOUT ROWID;
