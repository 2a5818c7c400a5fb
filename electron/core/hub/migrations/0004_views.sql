-- Hub schema, version 4: saved views (reserved; filled in by that work).
SELECT 1;
