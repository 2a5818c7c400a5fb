-- Arbiter schema, version 17: label columns kept beside label_head — filled in by the stats work (issue 20).
SELECT 1;
