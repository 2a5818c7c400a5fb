-- Arbiter schema, version 6: the items table finds an item by its external id (exactly, or by prefix)
-- through an index, at any project size.
CREATE INDEX item_by_external_id ON item(project_id, external_id) WHERE external_id IS NOT NULL;
