-- Arbiter schema, version 14: gold, honeypots and qualification — filled in by the gold work.
SELECT 1;
