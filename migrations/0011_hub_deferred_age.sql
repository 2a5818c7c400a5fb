-- Arbiter schema, version 11: a revision from the team hub that cannot merge here waits a bounded time.
-- deferred_at: when the sync first set it aside (an item or rubric version this project lacks, a line
-- that fails a check here). A sync drops, and counts, those that waited longer than hubDeferredMaxAgeMs
-- (electron/core/limits.ts), and keeps at most hubDeferredMax: revisions for items nobody publishes are
-- never read again at every sync forever. Rows from before this version start waiting now.
ALTER TABLE hub_deferred ADD COLUMN deferred_at TEXT;
UPDATE hub_deferred SET deferred_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now');
