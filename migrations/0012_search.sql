-- Arbiter schema, version 12: search index (FTS5) — filled in by the search work.
SELECT 1;
