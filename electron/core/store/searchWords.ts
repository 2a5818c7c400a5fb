// How many rows of a half of the search index hold a word: fts5vocab's count over the word's list,
// remembered per connection until the database changes (another connection's commit moves data_version,
// this one's writes total_changes). What a pass over a query word's hits costs, for ./searchBoth.ts to
// choose between seeking ids and one pass; never which items match, only how they are read.
import type { Db } from './sqlite';
import { statement } from './statements';

export type SearchHalf = 'item_search' | 'label_search';

const VOCAB: Record<SearchHalf, string> = { item_search: 'temp.item_search_words', label_search: 'temp.label_search_words' };
const made = new WeakMap<Db, Set<SearchHalf>>();
/** Connections that may not create the counts' tables (`PRAGMA query_only`: not even in temp). */
const unable = new WeakSet<Db>();
const counts = new WeakMap<Db, { version: string; rows: Map<string, number> }>();
/** The most counts a connection remembers (a word's count is a few bytes; a query holds at most 64 words). */
const HELD = 4096;

/** A term's words as the index's tokenizer (unicode61, diacritics removed) makes them, near enough to look them up. */
export function termWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * How many rows of the half hold the word (0: none, or a word the tokenizer would cut otherwise; NaN: not
 * known on this connection, which may not write even its temp schema: the callers then read as if the
 * word were common).
 */
export function wordRows(db: Db, half: SearchHalf, word: string): number {
  if (unable.has(db)) return Number.NaN;
  const version = statement(db, "SELECT (SELECT data_version FROM pragma_data_version()) || ':' || total_changes()", true).get() as string;
  let held = counts.get(db);
  if (!held || held.version !== version) counts.set(db, (held = { version, rows: new Map() }));
  const key = `${half}\0${word}`;
  const known = held.rows.get(key);
  if (known !== undefined) return known;
  let halves = made.get(db);
  if (!halves) made.set(db, (halves = new Set()));
  if (!halves.has(half)) {
    try {
      db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${VOCAB[half]} USING fts5vocab(main, ${half}, row)`);
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_READONLY') throw error;
      unable.add(db);
      return Number.NaN;
    }
    halves.add(half);
  }
  const rows = (statement(db, `SELECT doc FROM ${VOCAB[half]} WHERE term = ?`, true).get(word) as number | undefined) ?? 0;
  if (held.rows.size >= HELD) held.rows.clear();
  held.rows.set(key, rows);
  return rows;
}
