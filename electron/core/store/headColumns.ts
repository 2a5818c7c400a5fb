// The columns kept beside label_head for `arbiter stats` (migration 17: strength, the response shown on
// the left, the save time in ms, time spent, pre-label visibility, region marks), so the review of a
// project reads label_head alone instead of every current revision's row (store/reviewHeads.ts pairwiseHeads).
// The save time is kept for a created_at in the canonical form every write stores (a real date written
// YYYY-MM-DDTHH:MM:SS.sssZ, store/labels.ts normalizeTimestamp: strftime gives it back unchanged), where
// unixepoch and its milliseconds are exactly Date.parse's value; any other text leaves it NULL, and the
// reader parses the revision's created_at as before.

/**
 * The columns, and their values as expressions over the head's revision row `l`: every statement that
 * writes label_head writes them from the revision it now points at (store/labels.ts labelAppender and
 * newItemLabels, the labels merge in store/labelImports.ts). A body is valid JSON (serializeBody wrote it);
 * json_valid keeps a stray one from failing a save.
 *
 * Each value equals what the upgrade backfilled with (migration 17, kept as HEAD_VALUES_MIGRATION_17 and
 * compared over odd values in test/integration/head-columns-values.test.ts), with the common cases found
 * without their costly part (a labels merge computes these for every head it applies: 300k in the bench):
 * - shown_left: the two orders a pair is shown in, as JSON.stringify writes them, without parsing JSON;
 * - saved_ms: a created_at datetime(…, '+0 days', 'subsec') gives back to the millisecond is canonical,
 *   at ~0.35 µs a row less than strftime's format; strftime is asked only when that test fails (it also
 *   gives back a few that datetime rolls over, as an hour 24, so it stays the rule);
 * - prelabel_visible: a body whose text names no such key and holds no escape (a key spelt with \u
 *   escapes would still name it) has none, without parsing it.
 */
export const HEAD_COLUMNS = 'strength, shown_left, saved_ms, time_ms, prelabel_visible, regions';
export const HEAD_VALUES = `l.strength,
  CASE l.shown_order WHEN '[0,1]' THEN 0 WHEN '[1,0]' THEN 1
    ELSE CASE WHEN json_valid(l.shown_order) AND json_type(l.shown_order, '$[0]') = 'integer' THEN json_extract(l.shown_order, '$[0]') END END,
  CASE WHEN (length(l.created_at) = 24 AND substr(l.created_at, 11, 1) = 'T' AND substr(l.created_at, 24) = 'Z'
          AND datetime(l.created_at, '+0 days', 'subsec') = substr(l.created_at, 1, 10) || ' ' || substr(l.created_at, 12, 12))
        OR strftime('%Y-%m-%dT%H:%M:%fZ', l.created_at) = l.created_at
    THEN unixepoch(l.created_at) * 1000 + CAST(substr(l.created_at, 21, 3) AS INTEGER) END,
  CASE WHEN json_valid(l.body) AND json_type(l.body, '$.time_ms') IN ('integer', 'real') THEN json_extract(l.body, '$.time_ms') END,
  CASE WHEN instr(l.body, 'prelabel_visible') = 0 AND instr(l.body, '\\') = 0 THEN NULL
    WHEN json_valid(l.body) THEN CASE json_type(l.body, '$.prelabel_visible') WHEN 'true' THEN 1 WHEN 'false' THEN 0 END END,
  instr(l.body, '"regions"') > 0`;
/** The values as migration 17 backfilled them: HEAD_VALUES must give the same for every row. */
export const HEAD_VALUES_MIGRATION_17 = `l.strength,
  CASE WHEN json_valid(l.shown_order) AND json_type(l.shown_order, '$[0]') = 'integer' THEN json_extract(l.shown_order, '$[0]') END,
  CASE WHEN strftime('%Y-%m-%dT%H:%M:%fZ', l.created_at) = l.created_at THEN unixepoch(l.created_at) * 1000 + CAST(substr(l.created_at, 21, 3) AS INTEGER) END,
  CASE WHEN json_valid(l.body) AND json_type(l.body, '$.time_ms') IN ('integer', 'real') THEN json_extract(l.body, '$.time_ms') END,
  CASE WHEN json_valid(l.body) THEN CASE json_type(l.body, '$.prelabel_visible') WHEN 'true' THEN 1 WHEN 'false' THEN 0 END END,
  instr(l.body, '"regions"') > 0`;
/** The upsert's SET clause for those columns. */
export const HEAD_UPDATES = HEAD_COLUMNS.split(', ')
  .map((c) => `${c} = excluded.${c}`)
  .join(', ');
