-- Arbiter schema, version 10: items a lead publishes after people joined come down with the sync.
-- pulled_item_seq is the hub's item_line.seq up to which this project has read the item lines (join and
-- sync set it, never back); NULL where the link was made before this version, until a sync finds out.
ALTER TABLE hub_link ADD COLUMN pulled_item_seq INTEGER;
