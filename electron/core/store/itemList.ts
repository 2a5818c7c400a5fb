// The items table's walk: a page of items in file order (first or last first), every item or those a
// filter matches. Every query walks the (project, seq) index from where the page starts, so a page deep
// in a 1M-item project costs what the first one does:
//  - all: by row number, which is the seq itself (a project's visible items hold seqs 0…n−1 without
//    gaps: imports close gaps as they write, and one that fails or is cut short removes its whole tail),
//    or keyset;
//  - a filter: keyset, WINDOW seqs per query, each item checked against the label_head primary key. It
//    answers once the page is full, the end is reached or BUDGET_MS have passed, and says where to go
//    on: a filter few items match answers in bounded time, and the table asks again as it scrolls.
// Sorting by another column would need an index per column and direction; the table offers file order.
// A search finds external ids (exactly, then by prefix) through the (project, external id) index, first on
// the first page, then prompt text by the same bounded walk as a filter (ASCII letters in any case).
import type { ItemFilter, ItemOrder } from '../../../shared/api';
import type { Db } from './db';
import { VISIBLE } from './items';

export interface ListRow {
  id: number;
  seq: number;
  external_id: string | null;
  prompt: string;
  responses: number;
  labels: number;
  my_choice: string | null;
  source_choice: string | null;
  /** 1 when a lead adjudicated the item (any task). */
  adjudicated: number;
}

export interface WalkRequest {
  filter: ItemFilter;
  order: ItemOrder;
  afterSeq?: number;
  offset: number;
  limit: number;
  /** The annotator the filters mean (null: one who has labeled nothing yet). */
  me: number | null;
  /** Text to find: an external id (exact or prefix) or a part of the prompt. */
  search?: string;
}

export interface Walked {
  rows: ListRow[];
  next: number | null;
  scanned: number;
}

/** Seqs per filtered query: 5-20 ms of label_head lookups on a 2-core machine, warm pages or busy cores. */
const WINDOW = 5_000;
/** How long one filtered page may look before it answers with what it has (checked between windows). */
const BUDGET_MS = 40;

const mine = (condition: string) =>
  `EXISTS (SELECT 1 FROM label_head h WHERE h.item_id = i.id AND h.annotator_id = @me AND h.task = 'pairwise' AND ${condition})`;
/** A current judgement of the annotator's of any task the screens make: a choice, a ranking, step labels, a verdict. */
export const JUDGED_TASKS = "('pairwise', 'ranking', 'steps', 'verdict')";
const judged = `EXISTS (SELECT 1 FROM label_head h WHERE h.item_id = i.id AND h.annotator_id = @me AND h.task IN ${JUDGED_TASKS} AND h.done = 1)`;

const CONDITIONS: Record<ItemFilter, string> = {
  all: '1',
  unlabeled: `NOT ${judged}`,
  labeled: judged,
  A: mine("h.choice = 'A'"),
  B: mine("h.choice = 'B'"),
  tie: mine("h.choice = 'tie'"),
  both_bad: mine("h.choice = 'both_bad'"),
  // Candidates only: somebody's A or B. Whether the models pick the other one is checked per item.
  disagrees: "EXISTS (SELECT 1 FROM label_head h WHERE h.item_id = i.id AND h.task = 'pairwise' AND h.choice IN ('A', 'B'))",
};

const COLUMNS = `i.id, i.seq, i.external_id, substr(i.prompt, 1, 600) AS prompt, i.response_count AS responses,
  (SELECT COUNT(*) FROM label_head h JOIN annotator a ON a.id = h.annotator_id
    WHERE h.item_id = i.id AND h.task = 'pairwise' AND h.done = 1 AND a.kind = 'human') AS labels,
  (SELECT h.choice FROM label_head h WHERE h.item_id = i.id AND h.annotator_id = @me AND h.task = 'pairwise') AS my_choice,
  (SELECT h.choice FROM label_head h JOIN annotator a ON a.id = h.annotator_id
    WHERE h.item_id = i.id AND h.task = 'pairwise' AND a.kind = 'source' LIMIT 1) AS source_choice,
  EXISTS (SELECT 1 FROM adjudication d WHERE d.item_id = i.id) AS adjudicated`;

/** External ids in [lo, hi) start with the search text (U+10FFFF sorts after every character that can follow). */
const idRange = (search: string) => ({ lo: search, hi: `${search}\u{10FFFF}` });
/** A prompt part, not an id the first page listed already. */
const TEXT_MATCH = `instr(lower(i.prompt), @needle) > 0 AND (i.external_id IS NULL OR NOT (i.external_id >= @lo AND i.external_id < @hi))`;

/** The search terms' parameters: the needle as the prompt's JSON holds it, lower-cased. */
function searchParams(search: string) {
  return { ...idRange(search), needle: JSON.stringify(search).slice(1, -1).toLowerCase() };
}

/** Items whose external id is the search text, then those it starts, in id order: two index range reads. */
function idMatches(db: Db, projectId: number, filter: ItemFilter, search: string, me: number | null, limit: number): number[] {
  const params = { project: projectId, me, s: search, limit, ...idRange(search) };
  const base = `SELECT i.id FROM item i WHERE i.project_id = @project AND ${VISIBLE} AND ${CONDITIONS[filter]}`;
  const exact = db.prepare(`${base} AND i.external_id = @s LIMIT @limit`).pluck().all(params) as number[];
  const prefix = db.prepare(`${base} AND i.external_id > @s AND i.external_id >= @lo AND i.external_id < @hi ORDER BY i.external_id LIMIT @limit`).pluck().all(params) as number[];
  return [...exact, ...prefix].slice(0, limit);
}

/** The table's rows of some items, in the order given (the items explorer's page: electron/core/service/items.ts). */
export function listRowsByIds(db: Db, ids: readonly number[], me: number | null): ListRow[] {
  const rowQuery = db.prepare(`SELECT ${COLUMNS} FROM item i WHERE i.id = @id`);
  return ids.map((id) => rowQuery.get({ id, me }) as ListRow);
}

// Seqs only, so the walk reads the covering (project, seq) index and never the item rows it skips.
function pageQuery(db: Db, filter: ItemFilter, order: ItemOrder, search: boolean) {
  const [after, upTo, direction] = order === 'first' ? ['>', '<=', 'ASC'] : ['<', '>=', 'DESC'];
  return db.prepare(
    `SELECT i.id FROM item i
     WHERE i.project_id = @project AND ${VISIBLE} AND i.seq ${after} @from AND i.seq ${upTo} @to AND ${CONDITIONS[filter]} ${search ? `AND ${TEXT_MATCH}` : ''}
     ORDER BY i.seq ${direction} LIMIT @limit`,
  );
}

/**
 * One page of the walk. `keep` (for filters SQL cannot decide) is asked for each row SQL found; the page
 * ends at the row that fills it, so `next` never skips a row that was looked at but not returned.
 */
export function walkItems(db: Db, projectId: number, request: WalkRequest, keep?: (row: ListRow) => boolean): Walked {
  const visible = db.prepare('SELECT visible_seq FROM project WHERE id = ?').pluck().get(projectId) as number;
  const first = request.order === 'first';
  const end = first ? visible - 1 : 0;
  const scannedTo = (next: number | null) => (next === null ? visible : first ? next + 1 : visible - next);
  const search = request.search?.trim() || undefined;
  const query = pageQuery(db, request.filter, request.order, search !== undefined).pluck();
  const rowQuery = db.prepare(`SELECT ${COLUMNS} FROM item i WHERE i.id = @id`);
  const base = { project: projectId, me: request.me, ...(search ? searchParams(search) : {}) };
  const rowsOf = (ids: number[]) => ids.map((id) => rowQuery.get({ id, me: request.me }) as ListRow);
  const byRowNumber = request.filter === 'all' && !search;
  // Where the page starts, exclusive: after a seq (keyset), at a row number (all only), or at the start.
  let from = request.afterSeq ?? (byRowNumber ? (first ? request.offset - 1 : visible - request.offset) : first ? -1 : visible);
  if (byRowNumber) {
    const rows = rowsOf(query.all({ ...base, from, to: end, limit: request.limit }) as number[]);
    const next = rows.length === request.limit ? rows[rows.length - 1]!.seq : null;
    return { rows, next, scanned: scannedTo(next) };
  }
  if (request.me === null && request.filter !== 'all' && request.filter !== 'unlabeled' && request.filter !== 'disagrees') return { rows: [], next: null, scanned: visible };
  const deadline = performance.now() + BUDGET_MS;
  // The first page of a search starts with the items whose external id matches.
  const rows: ListRow[] = search && request.afterSeq === undefined ? rowsOf(idMatches(db, projectId, request.filter, search, request.me, request.limit)).filter((r) => !keep || keep(r)) : [];
  if (rows.length === request.limit) return { rows, next: from, scanned: 0 };
  while (first ? from < end : from > end) {
    const to = first ? Math.min(from + WINDOW, end) : Math.max(from - WINDOW, end);
    const wanted = request.limit - rows.length;
    const found = rowsOf(query.all({ ...base, from, to, limit: keep ? Math.max(wanted, 256) : wanted }) as number[]);
    for (const row of found) {
      from = row.seq;
      if (!keep || keep(row)) rows.push(row);
      if (rows.length === request.limit) return { rows, next: from, scanned: scannedTo(from) };
    }
    // The window is done unless the query stopped at its limit inside it.
    if (found.length < (keep ? Math.max(wanted, 256) : wanted)) from = to;
    if (performance.now() > deadline) break;
  }
  const next = (first ? from < end : from > end) ? from : null;
  return { rows, next, scanned: scannedTo(next) };
}
