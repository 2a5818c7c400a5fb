-- Arbiter schema, version 16: videos — filled in by the video work.
SELECT 1;
