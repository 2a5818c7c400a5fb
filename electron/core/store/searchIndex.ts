// Writing the full-text index (migrations/0012_search.sql): an item's own text, with the item, inside the
// writer's transaction; the labels' text is kept by triggers on label_head; the build after the upgrade
// indexes the items a database held before, in short batches, resumable. docs/data.md, "Search".
import { responsesSearchText, searchText } from '../../../shared/searchText';
import type { Db } from './sqlite';

/** The columns of an item's own text, as the index takes them. */
export interface ItemSearchText {
  prompt: string;
  response: string;
  tool: string;
  reference: string;
}

/** An item's own searchable text, from its stored JSON (the prompt's, each response's content) and reference. */
export function itemSearchText(promptJson: string, responseJsons: readonly string[], reference: string | null): ItemSearchText {
  const prompt = searchText(JSON.parse(promptJson) as unknown);
  const responses = responsesSearchText(responseJsons.map((r) => JSON.parse(r) as unknown));
  const tool = [prompt.tool, responses.tool].filter(Boolean).join('\n\n');
  return { prompt: prompt.text, response: responses.text, tool, reference: searchText(reference ?? '').text };
}

/**
 * Adds new items' rows to the index, inside the caller's write transaction: an ItemSearchText, or its
 * four values in the same order (prompt, response, tool, reference). One row a statement: a multi-row
 * INSERT into an FTS5 table costs more, not less (100k pairs: 3.2 s CPU at 64 rows a statement, 1.9 s at one).
 */
export function searchRowWriter(db: Db) {
  const insert = db.prepare('INSERT INTO item_search (rowid, prompt, response, tool, reference) VALUES (?, ?, ?, ?, ?)');
  return {
    add(id: number, text: ItemSearchText | readonly (string | null)[]): void {
      if (Array.isArray(text)) insert.run(id, text[0] ?? '', text[1] ?? '', text[2] ?? '', text[3] ?? '');
      else {
        const t = text as ItemSearchText;
        insert.run(id, t.prompt, t.response, t.tool, t.reference);
      }
    },
    /** Nothing is buffered: kept for the callers' symmetry with the item writers. */
    flush(): void {},
  };
}

/** How far the build after the upgrade has come: null once every item is indexed. */
export interface SearchBuildState {
  done: number;
  total: number;
}

export function searchBuildState(db: Db): SearchBuildState | null {
  const row = db.prepare('SELECT done, total FROM search_build WHERE id = 1').get() as SearchBuildState | undefined;
  return row ?? null;
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

/**
 * Indexes the next items of those a database held before the index existed, in one short write
 * transaction (`maxItems`, or `maxMs` of work, whichever comes first) that also records how far it came:
 * a kill loses nothing but the batch in flight. The write lock is tried, never waited for: 'busy' when
 * another writer holds it (an import's batch, a save), so the caller's thread never blocks. The items'
 * rows are replaced, not added: an id below the build's end may have been given again to an item written
 * since (the index has its row already). Returns the state after the batch, null when the build is done.
 */
export function buildSearchIndex(db: Db, options: { maxItems?: number; maxMs?: number } = {}): SearchBuildState | null | 'busy' {
  const maxItems = options.maxItems ?? 500;
  const maxMs = options.maxMs ?? 20;
  if (!db.prepare('SELECT 1 FROM search_build WHERE id = 1').get()) return null;
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    db.exec('BEGIN IMMEDIATE');
  } catch (error) {
    if (isBusy(error)) return 'busy';
    throw error;
  } finally {
    db.pragma(`busy_timeout = ${timeout}`);
  }
  try {
    const result = buildBatch(db, maxItems, maxMs);
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

function buildBatch(db: Db, maxItems: number, maxMs: number): SearchBuildState | null {
  const state = db.prepare('SELECT next_id AS nextId, end_id AS endId, done, total FROM search_build WHERE id = 1').get() as
    | { nextId: number; endId: number; done: number; total: number }
    | undefined;
  if (!state) return null;
  const started = performance.now();
  const items = db.prepare('SELECT id, prompt, reference FROM item WHERE id >= ? AND id < ? ORDER BY id LIMIT ?');
  const responses = db.prepare('SELECT content FROM response WHERE item_id = ? ORDER BY idx').pluck();
  const write = db.prepare('INSERT OR REPLACE INTO item_search (rowid, prompt, response, tool, reference) VALUES (@id, @prompt, @response, @tool, @reference)');
  // The labels' half, as the label_head triggers write it (an item written since has it already: replaced).
  const labels = db.prepare(
    `INSERT OR REPLACE INTO label_search (rowid, rationale, critique, correction, note)
     SELECT item_id, rationale, critique, correction, note FROM item_label_text
     WHERE item_id = ? AND (rationale <> '' OR critique <> '' OR correction <> '' OR note <> '')`,
  );
  const labeled = db.prepare('INSERT OR IGNORE INTO search_labeled (item_id) SELECT ? WHERE EXISTS (SELECT 1 FROM label_search WHERE rowid = ?)');
  const rows = items.all(state.nextId, state.endId, maxItems) as { id: number; prompt: string; reference: string | null }[];
  let nextId = state.nextId;
  let written = 0;
  for (const item of rows) {
    write.run({ id: item.id, ...itemSearchText(item.prompt, responses.all(item.id) as string[], item.reference) });
    labels.run(item.id);
    labeled.run(item.id, item.id);
    nextId = item.id + 1;
    written++;
    if (performance.now() - started > maxMs) break;
  }
  // Fewer items than asked for, all written: none is left below the end.
  if (nextId >= state.endId || (rows.length < maxItems && written === rows.length)) {
    db.prepare('DELETE FROM search_build WHERE id = 1').run();
    return null;
  }
  const done = Math.min(state.total, state.done + written);
  db.prepare('UPDATE search_build SET next_id = ?, done = ? WHERE id = 1').run(nextId, done);
  return { done, total: state.total };
}
