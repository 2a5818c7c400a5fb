// Items and their responses. An item's uid is a content hash, so importing the same data twice adds
// nothing. A project shows only the items below its visible_seq: rows of an import still under way (or
// left by a crash) stay out of sight until the import is marked complete (see ./imports.ts).
import type { Content, ItemRecord, ResponseRecord } from '../../../shared/domain';
import { itemUid } from '../uid';
import { seededPermutation } from '../../../shared/order';
import type { Db } from './db';

export interface ResponseDraft {
  content: Content;
  model: string | null;
  /** The file's own segmentation of the response into steps, when it has one. */
  steps: string[] | null;
}

/** An item as a parser makes it, before it has an id. */
export interface ItemDraft {
  externalId: string | null;
  prompt: Content;
  responses: ResponseDraft[];
  reference: string | null;
  metadata: Record<string, unknown>;
}

export function draftUid(draft: ItemDraft): string {
  return itemUid(
    draft.prompt,
    draft.responses.map((r) => r.content),
  );
}

/**
 * Adds items one at a time, visible at once (small seeds and tests; imports use itemBatchInserter).
 * Call inside a write transaction.
 */
export function itemInserter(db: Db, projectId: number) {
  const insert = db.prepare(
    `INSERT OR IGNORE INTO item (project_id, uid, external_id, seq, prompt, reference, metadata, response_count)
     VALUES (?, ?, ?, (SELECT COALESCE(MAX(seq), -1) + 1 FROM item WHERE project_id = ?), ?, ?, ?, ?)`,
  );
  const insertResponse = db.prepare('INSERT INTO response (item_id, idx, content, model) VALUES (?, ?, ?, ?)');
  const insertSegmentation = db.prepare("INSERT INTO segmentation (item_id, response_idx, version, steps, origin, created_at) VALUES (?, ?, 1, ?, 'file', ?)");
  const show = db.prepare('UPDATE project SET visible_seq = (SELECT MAX(seq) + 1 FROM item WHERE project_id = ?), item_count = item_count + 1 WHERE id = ?');
  const findByUid = db.prepare('SELECT id FROM item WHERE project_id = ? AND uid = ?').pluck();
  return {
    insert(draft: ItemDraft, uid = draftUid(draft)): { id: number; inserted: boolean } {
      const result = insert.run(projectId, uid, draft.externalId, projectId, JSON.stringify(draft.prompt), draft.reference, JSON.stringify(draft.metadata), draft.responses.length);
      if (result.changes === 0) return { id: findByUid.get(projectId, uid) as number, inserted: false };
      const id = Number(result.lastInsertRowid);
      draft.responses.forEach((r, idx) => {
        insertResponse.run(id, idx, JSON.stringify(r.content), r.model);
        if (r.steps) insertSegmentation.run(id, idx, JSON.stringify(r.steps), new Date().toISOString());
      });
      show.run(projectId, projectId);
      return { id, inserted: true };
    },
  };
}

interface ItemRow {
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

const ITEM_COLUMNS = 'i.id, i.uid, i.external_id, i.seq, i.prompt, i.reference, i.metadata, i.criteria';
/** The visibility rule, for a query over one project's items aliased `i` with the project as @project. */
export const VISIBLE = 'i.seq < (SELECT visible_seq FROM project WHERE id = @project)';

/** Rows per multi-row INSERT: one statement per 64 items (or responses) instead of one each. */
const BATCH = 64;

function multiRowInsert(db: Db, head: string, row: string) {
  const statements = new Map<number, ReturnType<Db['prepare']>>();
  return (k: number) => {
    let st = statements.get(k);
    if (!st) {
      st = db.prepare(`${head} VALUES ${Array.from({ length: k }, () => row).join(', ')}`);
      statements.set(k, st);
    }
    return st;
  };
}

/**
 * Bulk insert for imports, called inside the caller's short write transactions. Takes rows already in
 * their stored form (flat arrays: `stride` values per item starting with uid, external id, prompt JSON,
 * reference, metadata JSON, response count; 3 per response: content JSON, model, steps JSON), INSERT OR
 * IGNOREs them 64 per statement, and writes each item's id and whether it was new into `ids` and
 * `inserted`. New items take seqs from `firstSeq` on, in order; duplicates (also within the batch) keep
 * the item that is there. Ids are given explicitly (one past the largest, read in each call's
 * transaction, since other projects' imports may have written since), so no RETURNING.
 */
export function itemBatchInserter(db: Db, projectId: number, firstSeq: number) {
  const itemStatement = multiRowInsert(
    db,
    'INSERT OR IGNORE INTO item (id, project_id, uid, external_id, seq, prompt, reference, metadata, response_count)',
    `(?, ${Number(projectId)}, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const responseStatement = multiRowInsert(db, 'INSERT INTO response (item_id, idx, content, model)', '(?, ?, ?, ?)');
  const insertSegmentation = db.prepare(
    "INSERT INTO segmentation (item_id, response_idx, version, steps, origin, created_at) VALUES (?, ?, 1, ?, 'file', ?)",
  );
  const findByUid = db.prepare('SELECT id FROM item WHERE project_id = ? AND uid = ?').pluck();
  const move = db.prepare('UPDATE item SET id = ?, seq = ? WHERE id = ?');
  const maxId = db.prepare('SELECT COALESCE(MAX(id), 0) FROM item').pluck();
  let nextSeq = firstSeq;
  const ITEM_PARAMS = 8;
  const fullItems: unknown[] = new Array(BATCH * ITEM_PARAMS);
  let responseParams: unknown[] = [];
  let bufferedResponses = 0;
  const flushResponses = () => {
    if (bufferedResponses) responseStatement(bufferedResponses).run(responseParams);
    responseParams = [];
    bufferedResponses = 0;
  };
  return {
    /** The seq the next new item gets. */
    get nextSeq() {
      return nextSeq;
    },
    insertMany(
      rows: readonly (string | null)[],
      responses: readonly (string | null)[],
      count: number,
      stride: number,
      ids: number[],
      inserted: boolean[],
    ): void {
      let nextId = (maxId.get() as number) + 1;
      const uidAt = (j: number) => rows[j * stride];
      for (let g = 0; g < count; g += BATCH) {
        const k = Math.min(BATCH, count - g);
        const params = k === BATCH ? fullItems : new Array(k * ITEM_PARAMS);
        for (let j = 0, o = g * stride, p = 0; j < k; j++, o += stride, p += ITEM_PARAMS) {
          params[p] = nextId + j;
          params[p + 1] = rows[o];
          params[p + 2] = rows[o + 1];
          params[p + 3] = nextSeq + j;
          params[p + 4] = rows[o + 2];
          params[p + 5] = rows[o + 3];
          params[p + 6] = rows[o + 4];
          params[p + 7] = Number(rows[o + 5]);
        }
        const { changes } = itemStatement(k).run(params);
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
        let added = 0;
        for (let j = 0; j < k; j++) {
          inserted[g + j] = findByUid.get(projectId, uidAt(g + j)) === nextId + j;
          if (!inserted[g + j]) continue;
          const id = nextId + added;
          if (added !== j) move.run(id, nextSeq + added, nextId + j);
          ids[g + j] = id;
          added++;
        }
        for (let j = 0; j < k; j++) if (!inserted[g + j]) ids[g + j] = findByUid.get(projectId, uidAt(g + j)) as number;
        nextId += added;
        nextSeq += added;
      }
      // The responses of the items that are new, in the same batched way.
      const now = new Date().toISOString();
      for (let i = 0, r = 0; i < count; i++) {
        const n = Number(rows[i * stride + 5]);
        if (inserted[i]) {
          for (let idx = 0; idx < n; idx++, r += 3) {
            responseParams.push(ids[i], idx, responses[r], responses[r + 1]);
            if (++bufferedResponses === BATCH) flushResponses();
          }
        } else r += n * 3;
      }
      flushResponses();
      for (let i = 0, r = 0; i < count; i++) {
        const n = Number(rows[i * stride + 5]);
        for (let idx = 0; idx < n; idx++, r += 3) {
          if (inserted[i] && responses[r + 2] !== null) insertSegmentation.run(ids[i], idx, responses[r + 2], now);
        }
      }
    },
  };
}

/** Responses (with their newest segmentation's steps) of the items whose ids lie in [low, high]. */
function responsesBetween(db: Db, low: number, high: number): Map<number, ResponseRecord[]> {
  const byItem = new Map<number, ResponseRecord[]>();
  const rows = db.prepare('SELECT item_id, idx, content, model FROM response WHERE item_id BETWEEN ? AND ? ORDER BY item_id, idx').all(low, high) as ResponseRow[];
  for (const r of rows) {
    let list = byItem.get(r.item_id);
    if (!list) byItem.set(r.item_id, (list = []));
    list.push({ index: r.idx, content: JSON.parse(r.content) as Content, model: r.model, steps: null });
  }
  const segmentations = db
    .prepare(
      `SELECT s.item_id, s.response_idx, s.steps FROM segmentation s
       WHERE s.item_id BETWEEN ? AND ?
         AND s.version = (SELECT MAX(version) FROM segmentation t WHERE t.item_id = s.item_id AND t.response_idx = s.response_idx)`,
    )
    .all(low, high) as { item_id: number; response_idx: number; steps: string }[];
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

function oneRecord(db: Db, row: ItemRow | undefined): ItemRecord | null {
  return row ? toRecords(db, [row])[0]! : null;
}

export function getItem(db: Db, projectId: number, itemId: number): ItemRecord | null {
  const row = db.prepare(`SELECT ${ITEM_COLUMNS} FROM item i WHERE i.project_id = @project AND i.id = @id AND ${VISIBLE}`).get({ project: projectId, id: itemId });
  return oneRecord(db, row as ItemRow | undefined);
}

export function getItemBySeq(db: Db, projectId: number, seq: number): ItemRecord | null {
  const row = db.prepare(`SELECT ${ITEM_COLUMNS} FROM item i WHERE i.project_id = @project AND i.seq = @seq AND ${VISIBLE}`).get({ project: projectId, seq });
  return oneRecord(db, row as ItemRow | undefined);
}

/** How many responses an item has (0 when it is not a visible item of the project). */
export function responseCount(db: Db, projectId: number, itemId: number): number {
  return responseCounter(db, projectId)(itemId);
}

/** responseCount with its statement prepared once, for a loop over many items (a labels merge). */
export function responseCounter(db: Db, projectId: number): (itemId: number) => number {
  const query = db.prepare(`SELECT i.response_count FROM item i WHERE i.project_id = @project AND i.id = @id AND ${VISIBLE}`).pluck();
  return (itemId) => (query.get({ project: projectId, id: itemId }) as number | undefined) ?? 0;
}

/**
 * Resolves a labels file's `item` field: an external id first, then an item uid. Built once per labels
 * import from one scan, so imports need not maintain an external-id index on every item row.
 */
export function itemResolver(db: Db, projectId: number): (ref: string) => number | null {
  let byExternal: Map<string, number> | null = null;
  const byUid = db.prepare(`SELECT i.id FROM item i WHERE i.project_id = @project AND i.uid = @uid AND ${VISIBLE}`).pluck();
  return (ref) => {
    if (!byExternal) {
      byExternal = new Map();
      const rows = db
        .prepare(`SELECT i.external_id, i.id FROM item i WHERE i.project_id = @project AND i.external_id IS NOT NULL AND ${VISIBLE} ORDER BY i.seq DESC`)
        .raw()
        .iterate({ project: projectId });
      // Descending, so that with repeated external ids the first item in file order wins.
      for (const [externalId, id] of rows as Iterable<[string, number]>) byExternal.set(externalId, id);
    }
    const found = byExternal.get(ref);
    if (found !== undefined) return found;
    const viaUid = byUid.get({ project: projectId, uid: ref });
    return viaUid === undefined ? null : (viaUid as number);
  };
}

/** The project's visible item count, from its counter. */
export function countItems(db: Db, projectId: number): number {
  return (db.prepare('SELECT item_count FROM project WHERE id = ?').pluck().get(projectId) as number | undefined) ?? 0;
}

const RESPONSES_FOR_TASK: Record<string, string> = {
  pairwise: 'AND i.response_count = 2',
  ranking: 'AND i.response_count >= 3',
  verdict: 'AND i.response_count = 1',
  steps: 'AND i.response_count = 1',
};

/**
 * The next item in seq order after `afterSeq` (or before it, going back). With `unlabeledBy`, items
 * that annotator already has a current `task` label on are skipped; it wraps around once so skipped-over
 * gaps are found.
 */
export function neighbourItem(
  db: Db,
  projectId: number,
  afterSeq: number,
  direction: 'next' | 'previous',
  unlabeledBy: number | null,
  task = 'pairwise',
): ItemRecord | null {
  const unlabeled = unlabeledBy
    ? 'AND NOT EXISTS (SELECT 1 FROM label_head h WHERE h.item_id = i.id AND h.annotator_id = @annotator AND h.task = @task AND h.done = 1)'
    : '';
  // Each screen walks the items it judges: pairs, rankings of three or more, single responses (verdicts
  // and chains). A pair's steps are opened from the compare screen, not walked here.
  const shape = RESPONSES_FOR_TASK[task] ?? '';
  const [cmp, order] = direction === 'next' ? ['>', 'ASC'] : ['<', 'DESC'];
  const sql = (bound: string) =>
    `SELECT ${ITEM_COLUMNS} FROM item i WHERE i.project_id = @project AND ${VISIBLE} ${bound} ${shape} ${unlabeled} ORDER BY i.seq ${order} LIMIT 1`;
  const params = { project: projectId, after: afterSeq, annotator: unlabeledBy, task };
  let row = db.prepare(sql(`AND i.seq ${cmp} @after`)).get(params) as ItemRow | undefined;
  if (!row && unlabeledBy) row = db.prepare(sql('')).get(params) as ItemRow | undefined;
  return oneRecord(db, row);
}

/** How the labeling loop walks a project for one annotator (see shared/order.ts). */
export interface Walk {
  /** Source order; a seeded permutation of seqs; or a list of item ids, most uncertain first, then the rest in source order. */
  order: { kind: 'source' } | { kind: 'random'; seed: number } | { kind: 'list'; itemIds: Int32Array; position: Map<number, number> };
  /** Overlap: whether an item (by uid) is this annotator's. */
  assigned: (uid: string) => boolean;
}

const WALK_BATCH = 256;

/**
 * neighbourItem in a labeling order: candidates are read a batch at a time (by seq range, by a batch of
 * permuted seqs, or by a batch of listed ids) with the SQL filters, then taken in walk order if they
 * are the annotator's. Each batch is an indexed lookup, so finding the next item never scans the project.
 */
export function walkItem(
  db: Db,
  projectId: number,
  afterSeq: number,
  direction: 'next' | 'previous',
  unlabeledBy: number | null,
  task: string,
  walk: Walk,
): ItemRecord | null {
  const unlabeled = unlabeledBy
    ? 'AND NOT EXISTS (SELECT 1 FROM label_head h WHERE h.item_id = i.id AND h.annotator_id = @annotator AND h.task = @task AND h.done = 1)'
    : '';
  const filters = `i.project_id = @project AND ${VISIBLE} ${RESPONSES_FOR_TASK[task] ?? ''} ${unlabeled}`;
  const params = { project: projectId, annotator: unlabeledBy, task };
  const bySeqs = db.prepare(`SELECT ${ITEM_COLUMNS} FROM item i WHERE i.seq IN (SELECT value FROM json_each(@keys)) AND ${filters}`);
  const byIds = db.prepare(`SELECT ${ITEM_COLUMNS} FROM item i WHERE i.id IN (SELECT value FROM json_each(@keys)) AND ${filters}`);
  const step = direction === 'next' ? 1 : -1;
  /** Takes, from a batch of keys in walk order, the first row that is the annotator's. */
  const firstOf = (keys: number[], statement: typeof bySeqs, key: (row: ItemRow) => number): ItemRow | undefined => {
    if (!keys.length) return undefined;
    const rows = new Map((statement.all({ ...params, keys: JSON.stringify(keys) }) as ItemRow[]).map((r) => [key(r), r]));
    for (const k of keys) {
      const row = rows.get(k);
      if (row && walk.assigned(row.uid)) return row;
    }
    return undefined;
  };
  const order = walk.order;
  if (order.kind === 'source') {
    const page = db.prepare(
      `SELECT ${ITEM_COLUMNS} FROM item i WHERE ${filters} AND i.seq ${step > 0 ? '>' : '<'} @after ORDER BY i.seq ${step > 0 ? 'ASC' : 'DESC'} LIMIT ${WALK_BATCH}`,
    );
    const scan = (from: number) => {
      for (let after = from; ; ) {
        const rows = page.all({ ...params, after }) as ItemRow[];
        const found = rows.find((r) => walk.assigned(r.uid));
        if (found || rows.length < WALK_BATCH) return found;
        after = rows[rows.length - 1]!.seq;
      }
    };
    const found = scan(afterSeq) ?? (unlabeledBy ? scan(step > 0 ? -1 : Number.MAX_SAFE_INTEGER) : undefined);
    return oneRecord(db, found);
  }
  // A permuted or listed order: positions 0 … length − 1, walked from where the current item stands.
  const length = order.kind === 'random' ? visibleSeqOf(db, projectId) : order.itemIds.length;
  if (length <= 0) return null;
  const permutation = order.kind === 'random' ? seededPermutation(length, order.seed) : null;
  const keyAt = (position: number) => (permutation ? permutation.at(position) : (order as { itemIds: Int32Array }).itemIds[position]!);
  const positionOfSeq = (seq: number): number => {
    if (permutation) return seq >= 0 && seq < length ? permutation.positionOf(seq) : -1;
    const id = db.prepare(`SELECT id FROM item WHERE project_id = ? AND seq = ?`).pluck().get(projectId, seq) as number | undefined;
    return id === undefined ? -1 : ((order as { position: Map<number, number> }).position.get(id) ?? -1);
  };
  const statement = permutation ? bySeqs : byIds;
  const key = permutation ? (r: ItemRow) => r.seq : (r: ItemRow) => r.id;
  const scan = (from: number, to: number) => {
    for (let p = from; step > 0 ? p < to : p > to; p += step * WALK_BATCH) {
      const keys: number[] = [];
      for (let q = p; keys.length < WALK_BATCH && (step > 0 ? q < to : q > to); q += step) keys.push(keyAt(q));
      const found = firstOf(keys, statement, key);
      if (found) return found;
    }
    return undefined;
  };
  const here = afterSeq < 0 || afterSeq === Number.MAX_SAFE_INTEGER ? (step > 0 ? -1 : length) : positionOfSeq(afterSeq);
  let found = scan(here + step, step > 0 ? length : -1);
  if (!found && unlabeledBy) found = step > 0 ? scan(0, Math.max(0, here)) : scan(length - 1, here);
  return oneRecord(db, found);
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
  return (db.prepare('SELECT visible_seq FROM project WHERE id = ?').pluck().get(projectId) as number | undefined) ?? 0;
}

/** The ids of a project's visible items in seq order (a labeling order's tail; read on a task worker). */
export function visibleItemIds(db: Db, projectId: number): Int32Array {
  const ids = db.prepare(`SELECT i.id FROM item i WHERE i.project_id = @project AND ${VISIBLE} ORDER BY i.seq`).pluck().all({ project: projectId }) as number[];
  return Int32Array.from(ids);
}

/** Streams a project's visible items in seq order, a page at a time, so exports run in constant memory. */
export function* iterateItems(db: Db, projectId: number, pageSize = 1000): Generator<ItemRecord> {
  const page = db.prepare(`SELECT ${ITEM_COLUMNS} FROM item i WHERE i.project_id = @project AND i.seq > @after AND ${VISIBLE} ORDER BY i.seq LIMIT @limit`);
  let after = -1;
  for (;;) {
    const rows = page.all({ project: projectId, after, limit: pageSize }) as ItemRow[];
    if (rows.length === 0) return;
    yield* toRecords(db, rows);
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
