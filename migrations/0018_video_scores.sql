-- Arbiter schema, version 18: no change. Reserved for video pre-labels, which needed no table of their own:
-- a video model's rewards are kept in the score table as every model's are (core/scorer/videoJob.ts).
SELECT 1;
