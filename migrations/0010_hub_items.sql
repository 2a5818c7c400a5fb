-- Arbiter schema, version 10: items a lead publishes after people joined, and the team's settings, come
-- down with the sync.
-- pulled_item_seq is the hub's item_line.seq up to which this project has read the item lines (join and
-- sync set it, never back); NULL where the link was made before this version, until a sync finds out.
ALTER TABLE hub_link ADD COLUMN pulled_item_seq INTEGER;

-- settings_hash: the project's settings and rubric in force as this desktop and the hub last agreed on
-- them (sha256 of their canonical JSON). A lead's sync sends its own where they changed since; everyone
-- else's takes the hub's. NULL until a sync or a join agrees.
ALTER TABLE hub_link ADD COLUMN settings_hash TEXT;
