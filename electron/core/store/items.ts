// Items and their responses. An item's uid is a content hash, so importing the same data twice adds
// nothing. A project shows only the items below its visible_seq: rows of an import still under way (or
// left by a crash) stay out of sight until the import is marked complete (see ./imports.ts). This file
// reads items; ./itemInsert.ts writes them and ./nextItem.ts finds the one a screen shows next.
import type { Content, ItemRecord, ResponseRecord } from '../../../shared/domain';
import { statement } from './statements';
import type { Db } from './db';

export interface ItemRow {
  id: number;
  uid: string;
  external_id: string | null;
  seq: number;
  prompt: string;
  reference: string | null;
  metadata: string;
  criteria: string | null;
}

interface ResponseRow {
  item_id: number;
  idx: number;
  content: string;
  model: string | null;
}

/** The columns an ItemRow reads, for a query over items aliased `i`. */
export const ITEM_COLUMNS = 'i.id, i.uid, i.external_id, i.seq, i.prompt, i.reference, i.metadata, i.criteria';
/** The visibility rule, for a query over one project's items aliased `i` with the project as @project. */
export const VISIBLE = 'i.seq < (SELECT visible_seq FROM project WHERE id = @project)';

/** Responses (with their newest segmentation's steps) of the items whose ids lie in [low, high]. */
function responsesBetween(db: Db, low: number, high: number): Map<number, ResponseRecord[]> {
  const byItem = new Map<number, ResponseRecord[]>();
  const rows = statement(db, 'SELECT item_id, idx, content, model FROM response WHERE item_id BETWEEN ? AND ? ORDER BY item_id, idx').all(low, high) as ResponseRow[];
  for (const r of rows) {
    let list = byItem.get(r.item_id);
    if (!list) byItem.set(r.item_id, (list = []));
    list.push({ index: r.idx, content: JSON.parse(r.content) as Content, model: r.model, steps: null });
  }
  const segmentations = statement(
    db,
    `SELECT s.item_id, s.response_idx, s.steps FROM segmentation s
       WHERE s.item_id BETWEEN ? AND ?
         AND s.version = (SELECT MAX(version) FROM segmentation t WHERE t.item_id = s.item_id AND t.response_idx = s.response_idx)`,
  ).all(low, high) as { item_id: number; response_idx: number; steps: string }[];
  for (const s of segmentations) {
    const response = byItem.get(s.item_id)?.[s.response_idx];
    if (response) response.steps = JSON.parse(s.steps) as string[];
  }
  return byItem;
}

function toRecords(db: Db, rows: ItemRow[]): ItemRecord[] {
  if (rows.length === 0) return [];
  let low = rows[0]!.id;
  let high = low;
  for (const row of rows) {
    if (row.id < low) low = row.id;
    if (row.id > high) high = row.id;
  }
  const responses = responsesBetween(db, low, high);
  return rows.map((row) => ({
    id: row.id,
    uid: row.uid,
    externalId: row.external_id,
    seq: row.seq,
    prompt: JSON.parse(row.prompt) as Content,
    reference: row.reference,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    responses: responses.get(row.id) ?? [],
  }));
}

export function oneRecord(db: Db, row: ItemRow | undefined): ItemRecord | null {
  return row ? toRecords(db, [row])[0]! : null;
}

export function getItem(db: Db, projectId: number, itemId: number): ItemRecord | null {
  const row = statement(db, `SELECT ${ITEM_COLUMNS} FROM item i WHERE i.project_id = @project AND i.id = @id AND ${VISIBLE}`).get({ project: projectId, id: itemId });
  return oneRecord(db, row as ItemRow | undefined);
}

export function getItemBySeq(db: Db, projectId: number, seq: number): ItemRecord | null {
  const row = statement(db, `SELECT ${ITEM_COLUMNS} FROM item i WHERE i.project_id = @project AND i.seq = @seq AND ${VISIBLE}`).get({ project: projectId, seq });
  return oneRecord(db, row as ItemRow | undefined);
}

/** How many responses an item has (0 when it is not a visible item of the project). */
export function responseCount(db: Db, projectId: number, itemId: number): number {
  return responseCounter(db, projectId)(itemId);
}

/**
 * responseCount with its statement prepared once, for a loop over many items (a labels merge): each item
 * is asked once and remembered (an item's responses never change), since a merge meets an item once per
 * annotator and reads its file twice. It remembers at most the project's items, as itemResolver does.
 */
export function responseCounter(db: Db, projectId: number, resolver?: (ref: string) => number | null): (itemId: number) => number {
  const query = db.prepare(`SELECT i.response_count FROM item i WHERE i.project_id = ? AND i.id = ? AND i.seq < (SELECT visible_seq FROM project WHERE id = ?)`).pluck();
  // The counts the resolver read with its external ids (the same visible items), when it read them.
  const known = (resolver && scannedCounts.get(resolver)) || new Map<number, number>();
  return (itemId) => {
    let count = known.get(itemId);
    if (count === undefined) {
      count = (query.get(projectId, itemId, projectId) as number | undefined) ?? 0;
      // An item not (yet) visible is asked again next time: an import may complete meanwhile.
      if (count > 0) known.set(itemId, count);
    }
    return count;
  };
}

/**
 * Resolves a labels file's `item` field: an external id first, then an item uid. Built once per labels
 * import from one scan, so imports need not maintain an external-id index on every item row.
 */
export function itemResolver(db: Db, projectId: number): (ref: string) => number | null {
  let byExternal: Map<string, number> | null = null;
  const counts = new Map<number, number>();
  const byUid = db.prepare(`SELECT i.id FROM item i WHERE i.project_id = @project AND i.uid = @uid AND ${VISIBLE}`).pluck();
  const resolve = (ref: string) => {
    if (!byExternal) {
      byExternal = new Map();
      const rows = db
        .prepare(`SELECT i.external_id, i.id, i.response_count FROM item i WHERE i.project_id = @project AND i.external_id IS NOT NULL AND ${VISIBLE} ORDER BY i.seq DESC`)
        .raw()
        .iterate({ project: projectId });
      // Descending, so that with repeated external ids the first item in file order wins.
      for (const [externalId, id, responses] of rows as Iterable<[string, number, number]>) {
        byExternal.set(externalId, id);
        // The same scan's response counts, for a merge's responseCounter (a query per item otherwise).
        if (responses > 0) counts.set(id, responses);
      }
    }
    const found = byExternal.get(ref);
    if (found !== undefined) return found;
    const viaUid = byUid.get({ project: projectId, uid: ref });
    return viaUid === undefined ? null : (viaUid as number);
  };
  scannedCounts.set(resolve, counts);
  return resolve;
}

/** Response counts an itemResolver read in its scan, by item id: filled on its first use. */
const scannedCounts = new WeakMap<(ref: string) => number | null, Map<number, number>>();

/**
 * One item resolver for many merges in a row (a hub sync's slices): its external-id map is read once and
 * read again only when the project's visible items changed (an import completed and moved visible_seq;
 * visible items go only with their project). Call it before each merge for the resolver that merge uses.
 */
export function lastingItemResolver(db: Db, projectId: number): () => (ref: string) => number | null {
  const visibleSeq = db.prepare('SELECT visible_seq FROM project WHERE id = ?').pluck();
  let seen: unknown;
  let resolve: ((ref: string) => number | null) | null = null;
  return () => {
    const now = visibleSeq.get(projectId);
    if (!resolve || now !== seen) {
      resolve = itemResolver(db, projectId);
      seen = now;
    }
    return resolve;
  };
}

/** The project's visible item count, from its counter. */
export function countItems(db: Db, projectId: number): number {
  return (db.prepare('SELECT item_count FROM project WHERE id = ?').pluck().get(projectId) as number | undefined) ?? 0;
}

/** How many visible items have one, two, and three or more responses: each screen's own total. */
export interface ShapeCounts {
  single: number;
  pairs: number;
  ranked: number;
}

/** Counts the project's items by shape (reads every item's row: a job's work on a large project). */
export function shapeCounts(db: Db, projectId: number): ShapeCounts {
  const rows = db
    .prepare(`SELECT MIN(i.response_count, 3) AS shape, COUNT(*) AS n FROM item i WHERE i.project_id = @project AND ${VISIBLE} GROUP BY shape`)
    .all({ project: projectId }) as { shape: number; n: number }[];
  const n = (shape: number) => rows.find((r) => r.shape === shape)?.n ?? 0;
  return { single: n(1), pairs: n(2), ranked: n(3) };
}

/** The project's visibility watermark: it moves when an import completes (a cached order is then stale). */
export function visibleSeqOf(db: Db, projectId: number): number {
  return (statement(db, 'SELECT visible_seq FROM project WHERE id = ?', true).get(projectId) as number | undefined) ?? 0;
}

/** The ids of a project's visible items in seq order (a labeling order's tail; read on a task worker). */
export function visibleItemIds(db: Db, projectId: number): Int32Array {
  const ids = db.prepare(`SELECT i.id FROM item i WHERE i.project_id = @project AND ${VISIBLE} ORDER BY i.seq`).pluck().all({ project: projectId }) as number[];
  return Int32Array.from(ids);
}

/**
 * Streams a project's visible items in seq order, a page at a time, so exports run in constant memory;
 * `only`: just these item ids (a saved view's or a selection's export), the others never read whole.
 */
export function* iterateItems(db: Db, projectId: number, pageSize = 1000, only?: ReadonlySet<number>): Generator<ItemRecord> {
  const page = db.prepare(`SELECT ${ITEM_COLUMNS} FROM item i WHERE i.project_id = @project AND i.seq > @after AND ${VISIBLE} ORDER BY i.seq LIMIT @limit`);
  let after = -1;
  for (;;) {
    const rows = page.all({ project: projectId, after, limit: pageSize }) as ItemRow[];
    if (rows.length === 0) return;
    yield* toRecords(db, only ? rows.filter((r) => only.has(r.id)) : rows);
    after = rows[rows.length - 1]!.seq;
  }
}

/** Total responses of a project's visible items. */
export function countResponses(db: Db, projectId: number): number {
  return db.prepare(`SELECT COALESCE(SUM(i.response_count), 0) FROM item i WHERE i.project_id = @project AND ${VISIBLE}`).pluck().get({ project: projectId }) as number;
}

/** The name of the project an item belongs to (for saying where an item is when it is not where asked). */
export function itemProjectName(db: Db, itemId: number): string | undefined {
  return db.prepare("SELECT p.name FROM item i JOIN project p ON p.id = i.project_id WHERE i.id = ? AND p.state = 'active'").pluck().get(itemId) as string | undefined;
}
