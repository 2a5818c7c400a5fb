// The labels' half of the full-text index (label_search, migrations/0012_search.sql) as a batch writer
// keeps it: while its transaction holds label_search_deferred's row (migrations/0019_label_search_batch.sql),
// the triggers on label_head stand aside, and the writer rewrites the row of every item it touched once,
// from all of the item's current heads, before it commits. What a trigger would have written last, and
// nothing else: a merge of three annotators' files rewrote each item's row three times. A save never
// defers: its trigger keeps the item's row current in the save's own transaction.
import type { Db } from './sqlite';

/**
 * Whether a revision body `body` (SQL) may hold searchable text: it names a rationale, a critique,
 * corrections or regions (the triggers' own test).
 */
export const MAY_HOLD_TEXT = (body: string) => `(instr(${body}, '"rationale"') OR instr(${body}, '"critique"') OR instr(${body}, '"corrections"') OR instr(${body}, '"regions"'))`;

/**
 * Starts deferring, inside the caller's write transaction: the triggers stand aside until
 * rewriteDeferredLabelSearch, which the caller runs in the same transaction. Returns `touch`, which
 * notes items (SQL that selects item ids) whose rows the rewrite is to make again.
 */
export function deferLabelSearch(db: Db): { touch: (itemIdsSql: string, ...params: unknown[]) => void } {
  if (!db.inTransaction) throw new Error('deferLabelSearch runs inside a write transaction');
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS label_search_dirty (item_id INTEGER PRIMARY KEY);
           CREATE TEMP TABLE IF NOT EXISTS label_search_text (item_id INTEGER PRIMARY KEY, rationale TEXT, critique TEXT, correction TEXT, note TEXT);
           INSERT OR IGNORE INTO label_search_deferred (id) VALUES (1);`);
  return {
    touch(itemIdsSql, ...params) {
      db.prepare(`INSERT OR IGNORE INTO temp.label_search_dirty (item_id) ${itemIdsSql}`).run(...params);
    },
  };
}

/**
 * The items a set of heads moves to touches, as the triggers decide: those whose new revision may hold
 * text, and those whose labels' text the index holds now (their row may have to go). `heads` names a
 * table of the moving heads with item_id and label_seq columns.
 */
export function touchedByHeads(heads: string): string {
  return `SELECT m.item_id FROM ${heads} m JOIN label l ON l.seq = m.label_seq
          WHERE ${MAY_HOLD_TEXT('l.body')} OR EXISTS (SELECT 1 FROM search_labeled s WHERE s.item_id = m.item_id)`;
}

/**
 * Rewrites the label_search row of every item noted since deferLabelSearch, once, from all its current
 * heads (label_head_text in their key order, as item_label_text gives a trigger), and stops deferring.
 */
export function rewriteDeferredLabelSearch(db: Db): number {
  db.exec(`DELETE FROM temp.label_search_text;
           INSERT INTO temp.label_search_text (item_id, rationale, critique, correction, note)
           SELECT d.item_id, COALESCE(group_concat(t.rationale, char(10)), ''), COALESCE(group_concat(t.critique, char(10)), ''),
                  COALESCE(group_concat(t.correction, char(10)), ''), COALESCE(group_concat(t.note, char(10)), '')
           FROM temp.label_search_dirty d CROSS JOIN label_head_text t ON t.item_id = d.item_id
           GROUP BY d.item_id;
           DELETE FROM temp.label_search_text WHERE rationale = '' AND critique = '' AND correction = '' AND note = '';
           DELETE FROM label_search WHERE rowid IN (SELECT item_id FROM temp.label_search_dirty);
           DELETE FROM search_labeled WHERE item_id IN (SELECT item_id FROM temp.label_search_dirty);
           INSERT INTO label_search (rowid, rationale, critique, correction, note)
             SELECT item_id, rationale, critique, correction, note FROM temp.label_search_text;
           INSERT INTO search_labeled (item_id) SELECT item_id FROM temp.label_search_text;
           DELETE FROM label_search_deferred;`);
  const rewritten = db.prepare('SELECT COUNT(*) FROM temp.label_search_dirty').pluck().get() as number;
  db.exec('DELETE FROM temp.label_search_dirty; DELETE FROM temp.label_search_text;');
  return rewritten;
}
