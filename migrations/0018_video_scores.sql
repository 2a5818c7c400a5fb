-- Arbiter schema, version 18: video pre-labels — filled in by the video work (issue 24).
SELECT 1;
