-- Arbiter schema, version 13: saved views — filled in by the items explorer work.
SELECT 1;
