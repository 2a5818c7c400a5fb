-- Arbiter schema, version 15: local judges and prompt templates — filled in by the judge work.
SELECT 1;
