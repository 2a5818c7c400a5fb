-- Hub schema, version 5: gold, honeypots and qualification (reserved; filled in by that work).
SELECT 1;
