// Items and their responses. An item's uid is a content hash, so importing the same data twice adds nothing.
import type { Content, ItemRecord, ResponseRecord } from '../../../shared/domain';
import { itemUid } from '../uid';
import type { Db } from './db';

export interface ResponseDraft {
  content: Content;
  model: string | null;
  steps: string[] | null;
}

export interface ItemDraft {
  externalId: string | null;
  prompt: Content;
  responses: ResponseDraft[];
  reference: string | null;
  metadata: Record<string, unknown>;
}

interface StoredResponse {
  content: Content;
  model: string | null;
  steps: string[] | null;
}

interface ItemRow {
  id: number;
  uid: string;
  external_id: string | null;
  seq: number;
  prompt: string;
  reference: string | null;
  metadata: string;
  responses: string;
}

export function draftUid(draft: ItemDraft): string {
  return itemUid(
    draft.prompt,
    draft.responses.map((r) => r.content),
  );
}

/** A prepared inserter for one project; call inside a transaction for bulk work. */
export function itemInserter(db: Db, projectId: number) {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO item (project_id, uid, external_id, seq, prompt, reference, metadata, responses)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const findByUid = db.prepare('SELECT id FROM item WHERE project_id = ? AND uid = ?').pluck();
  let nextSeq = (db.prepare('SELECT COALESCE(MAX(seq), -1) + 1 FROM item WHERE project_id = ?').pluck().get(projectId) as number);
  return {
    /** Returns the item's id and whether it was new. */
    insert(draft: ItemDraft, uid = draftUid(draft)): { id: number; inserted: boolean } {
      const responses: StoredResponse[] = draft.responses.map((r) => ({ content: r.content, model: r.model, steps: r.steps }));
      const result = insert.run(
        projectId,
        uid,
        draft.externalId,
        nextSeq,
        JSON.stringify(draft.prompt),
        draft.reference,
        JSON.stringify(draft.metadata),
        JSON.stringify(responses),
      );
      if (result.changes === 1) {
        nextSeq++;
        return { id: Number(result.lastInsertRowid), inserted: true };
      }
      return { id: findByUid.get(projectId, uid) as number, inserted: false };
    },
  };
}

/** Rows per multi-row INSERT of itemBatchInserter: one statement per 64 items instead of one per item. */
const ITEM_BATCH = 64;
const ITEM_PARAMS = 8;

/**
 * Bulk insert for imports, inside the caller's (write) transaction. Takes rows already in their stored
 * form (strings from a flat array, `stride` values per item starting with uid, external id, prompt JSON,
 * reference, metadata JSON, responses JSON), INSERT OR IGNOREs them 64 per statement, and writes each
 * item's id and whether it was new into `ids` and `inserted`. Same rows as itemInserter's insert one by
 * one: new items get the next id and seq in order, duplicates (also within the batch) keep the item that
 * is there. Ids are given explicitly (what SQLite would pick: one past the largest), so no RETURNING.
 */
export function itemBatchInserter(db: Db, projectId: number) {
  const statements = new Map<number, ReturnType<Db['prepare']>>();
  const statement = (k: number) => {
    let st = statements.get(k);
    if (!st) {
      const values = Array.from({ length: k }, () => `(?, ${Number(projectId)}, ?, ?, ?, ?, ?, ?, ?)`).join(', ');
      st = db.prepare(`INSERT OR IGNORE INTO item (id, project_id, uid, external_id, seq, prompt, reference, metadata, responses) VALUES ${values}`);
      statements.set(k, st);
    }
    return st;
  };
  const findByUid = db.prepare('SELECT id FROM item WHERE project_id = ? AND uid = ?').pluck();
  const move = db.prepare('UPDATE item SET id = ?, seq = ? WHERE id = ?');
  let nextId = db.prepare('SELECT COALESCE(MAX(id), 0) + 1 FROM item').pluck().get() as number;
  let nextSeq = db.prepare('SELECT COALESCE(MAX(seq), -1) + 1 FROM item WHERE project_id = ?').pluck().get(projectId) as number;
  const full: unknown[] = new Array(ITEM_BATCH * ITEM_PARAMS);
  return {
    insertMany(rows: readonly (string | null)[], start: number, count: number, stride: number, ids: number[], inserted: boolean[]): void {
      for (let g = 0; g < count; g += ITEM_BATCH) {
        const k = Math.min(ITEM_BATCH, count - g);
        const params = k === ITEM_BATCH ? full : new Array(k * ITEM_PARAMS);
        for (let j = 0, o = start + g * stride, p = 0; j < k; j++, o += stride, p += ITEM_PARAMS) {
          params[p] = nextId + j;
          params[p + 1] = rows[o];
          params[p + 2] = rows[o + 1];
          params[p + 3] = nextSeq + j;
          params[p + 4] = rows[o + 2];
          params[p + 5] = rows[o + 3];
          params[p + 6] = rows[o + 4];
          params[p + 7] = rows[o + 5];
        }
        const { changes } = statement(k).run(params);
        if (changes === k) {
          for (let j = 0; j < k; j++) {
            ids[g + j] = nextId + j;
            inserted[g + j] = true;
          }
          nextId += k;
          nextSeq += k;
          continue;
        }
        // Some were there already (or twice in the batch). The new ones hold the id and seq they were
        // given; close the gaps in order (each moves down to an id and seq that are free by then, so the
        // keys stay unique throughout), then look the others up.
        const uidAt = (j: number) => rows[start + (g + j) * stride];
        let added = 0;
        for (let j = 0; j < k; j++) {
          inserted[g + j] = findByUid.get(projectId, uidAt(j)) === nextId + j;
          if (!inserted[g + j]) continue;
          const id = nextId + added;
          if (added !== j) move.run(id, nextSeq + added, nextId + j);
          ids[g + j] = id;
          added++;
        }
        for (let j = 0; j < k; j++) if (!inserted[g + j]) ids[g + j] = findByUid.get(projectId, uidAt(j)) as number;
        nextId += added;
        nextSeq += added;
      }
    },
  };
}

function toRecord(row: ItemRow): ItemRecord {
  const responses = (JSON.parse(row.responses) as StoredResponse[]).map(
    (r, index): ResponseRecord => ({ index, content: r.content, model: r.model, steps: r.steps }),
  );
  return {
    id: row.id,
    uid: row.uid,
    externalId: row.external_id,
    seq: row.seq,
    prompt: JSON.parse(row.prompt) as Content,
    reference: row.reference,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    responses,
  };
}

const ITEM_COLUMNS = 'id, uid, external_id, seq, prompt, reference, metadata, responses';

export function getItem(db: Db, projectId: number, itemId: number): ItemRecord | null {
  const row = db.prepare(`SELECT ${ITEM_COLUMNS} FROM item WHERE project_id = ? AND id = ?`).get(projectId, itemId) as ItemRow | undefined;
  return row ? toRecord(row) : null;
}

export function getItemBySeq(db: Db, projectId: number, seq: number): ItemRecord | null {
  const row = db.prepare(`SELECT ${ITEM_COLUMNS} FROM item WHERE project_id = ? AND seq = ?`).get(projectId, seq) as ItemRow | undefined;
  return row ? toRecord(row) : null;
}

/**
 * Resolves a labels file's `item` field: an external id first, then an item uid. Built once per labels
 * import from one scan, so imports need not maintain an external-id index on every item row.
 */
export function itemResolver(db: Db, projectId: number): (ref: string) => number | null {
  let byExternal: Map<string, number> | null = null;
  const byUid = db.prepare('SELECT id FROM item WHERE project_id = ? AND uid = ?').pluck();
  return (ref) => {
    if (!byExternal) {
      byExternal = new Map();
      const rows = db.prepare('SELECT external_id, id FROM item WHERE project_id = ? AND external_id IS NOT NULL ORDER BY seq DESC').raw().iterate(projectId);
      // Descending, so that with repeated external ids the first item in file order wins.
      for (const [externalId, id] of rows as Iterable<[string, number]>) byExternal.set(externalId, id);
    }
    const found = byExternal.get(ref);
    if (found !== undefined) return found;
    const viaUid = byUid.get(projectId, ref);
    return viaUid === undefined ? null : (viaUid as number);
  };
}

export function countItems(db: Db, projectId: number): number {
  return db.prepare('SELECT COUNT(*) FROM item WHERE project_id = ?').pluck().get(projectId) as number;
}

/**
 * The next item in seq order after `afterSeq` (or before it, going back). With `unlabeledBy`, items
 * that annotator already labeled are skipped; it wraps around once so skipped-over gaps are found.
 */
export function neighbourItem(
  db: Db,
  projectId: number,
  afterSeq: number,
  direction: 'next' | 'previous',
  unlabeledBy: number | null,
): ItemRecord | null {
  const unlabeled = unlabeledBy
    ? `AND NOT EXISTS (SELECT 1 FROM label_head h WHERE h.item_id = item.id AND h.annotator_id = @annotator AND h.choice IS NOT NULL)`
    : '';
  const [cmp, order] = direction === 'next' ? ['>', 'ASC'] : ['<', 'DESC'];
  const sql = (bound: string) =>
    `SELECT ${ITEM_COLUMNS} FROM item WHERE project_id = @project ${bound} ${unlabeled} ORDER BY seq ${order} LIMIT 1`;
  const params = { project: projectId, after: afterSeq, annotator: unlabeledBy };
  let row = db.prepare(sql(`AND seq ${cmp} @after`)).get(params) as ItemRow | undefined;
  if (!row && unlabeledBy) row = db.prepare(sql('')).get(params) as ItemRow | undefined;
  return row ? toRecord(row) : null;
}

/** Streams a project's items in seq order, a page at a time, so exports run in constant memory. */
export function* iterateItems(db: Db, projectId: number, pageSize = 1000): Generator<ItemRecord> {
  const page = db.prepare(`SELECT ${ITEM_COLUMNS} FROM item WHERE project_id = ? AND seq > ? ORDER BY seq LIMIT ?`);
  let after = -1;
  for (;;) {
    const rows = page.all(projectId, after, pageSize) as ItemRow[];
    if (rows.length === 0) return;
    for (const row of rows) yield toRecord(row);
    after = rows[rows.length - 1]!.seq;
  }
}
