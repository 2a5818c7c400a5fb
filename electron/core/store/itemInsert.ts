// Writing items: one at a time (seeds and tests) or in batches of 64 rows per statement (imports). An
// item's uid is a content hash, so the same item twice is stored once; new items take the next seqs.
import type { Content } from '../../../shared/domain';
import { itemUid } from '../base/uid';
import type { Db } from './db';
import { itemSearchText, searchRowWriter } from './searchIndex';

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
  const search = searchRowWriter(db);
  return {
    insert(draft: ItemDraft, uid = draftUid(draft)): { id: number; inserted: boolean } {
      const result = insert.run(projectId, uid, draft.externalId, projectId, JSON.stringify(draft.prompt), draft.reference, JSON.stringify(draft.metadata), draft.responses.length);
      if (result.changes === 0) return { id: findByUid.get(projectId, uid) as number, inserted: false };
      const id = Number(result.lastInsertRowid);
      draft.responses.forEach((r, idx) => {
        insertResponse.run(id, idx, JSON.stringify(r.content), r.model);
        if (r.steps) insertSegmentation.run(id, idx, JSON.stringify(r.steps), new Date().toISOString());
      });
      const contents = draft.responses.map((r) => JSON.stringify(r.content));
      search.add(id, itemSearchText(JSON.stringify(draft.prompt), contents, draft.reference));
      search.flush();
      show.run(projectId, projectId);
      return { id, inserted: true };
    },
  };
}

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
 * transaction, since other projects' imports may have written since), so no RETURNING. Each new item's
 * row of the search index is written with it: its prompt, response and tool text at `searchField`,
 * `searchField + 1`, `searchField + 2` of its row (formats/import/prepare.ts makes them), its reference.
 */
export function itemBatchInserter(db: Db, projectId: number, firstSeq: number, searchField: number) {
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
  const search = searchRowWriter(db);
  const searchText: (string | null)[] = ['', '', '', ''];
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
      // The index rows of the items that are new, in the same transaction (a cut import leaves none).
      for (let i = 0, o = 0; i < count; i++, o += stride) {
        if (!inserted[i]) continue;
        searchText[0] = rows[o + searchField]!;
        searchText[1] = rows[o + searchField + 1]!;
        searchText[2] = rows[o + searchField + 2]!;
        searchText[3] = rows[o + 3]!;
        search.add(ids[i]!, searchText);
      }
      search.flush();
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
