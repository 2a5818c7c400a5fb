// What the items explorer's facts read from SQLite (electron/core/review/itemFacts.ts builds them): each
// visible item's shape, length and images in one pass of the (project, seq) index, the file's metadata
// fields, the responses' model names, the models' pair rewards, adjudications and the people's
// (item, task) heads. Every read streams in seq order; a project's visible items hold seqs 0…n−1.
import type { Db } from './db';
import { VISIBLE } from './items';

/** seq, id, responses, characters of the prompt and responses, images (0/1), steps stored (0/1), a trajectory (0/1). */
export type ItemShapeRow = [number, number, number, number, number, number, number];

const TRAJECTORY = `substr(r.content, 1, 1) = '[' AND (instr(r.content, '"tool_calls":') > 0 OR instr(r.content, '"role":"tool"') > 0 OR instr(r.content, '"arbiter":') > 0)`;

/** From seq `from` on (an import's new items are read alone). */
export function itemShapes(db: Db, projectId: number, from = 0): IterableIterator<ItemShapeRow> {
  // One pass over each item's responses: their characters, an image part, a trajectory (a single response).
  return db
    .prepare(
      `SELECT i.seq, i.id, i.response_count,
         length(i.prompt) + COALESCE(SUM(length(r.content)), 0),
         instr(i.prompt, '"type":"image') > 0 OR COALESCE(MAX(instr(r.content, '"type":"image') > 0), 0),
         EXISTS (SELECT 1 FROM segmentation s WHERE s.item_id = i.id),
         i.response_count = 1 AND COALESCE(MAX(${TRAJECTORY}), 0)
       FROM item i LEFT JOIN response r ON r.item_id = i.id
       WHERE i.project_id = @project AND ${VISIBLE} AND i.seq >= @from GROUP BY i.seq ORDER BY i.seq`,
    )
    .raw()
    .iterate({ project: projectId, from }) as IterableIterator<ItemShapeRow>;
}

/** The file's metadata of the items that have some, from seq `from` on: seq and the JSON text (parsed by the caller: faster than json_each). */
export function itemMetadata(db: Db, projectId: number, from = 0): IterableIterator<[number, string]> {
  return db
    .prepare(`SELECT i.seq, i.metadata FROM item i WHERE i.project_id = @project AND ${VISIBLE} AND i.seq >= @from AND i.metadata <> '{}'`)
    .raw()
    .iterate({ project: projectId, from }) as IterableIterator<[number, string]>;
}

/** seq and the model name of each response that names one, from seq `from` on. */
export function responseModels(db: Db, projectId: number, from = 0): IterableIterator<[number, string]> {
  return db
    .prepare(`SELECT i.seq, r.model FROM item i JOIN response r ON r.item_id = i.id WHERE i.project_id = @project AND ${VISIBLE} AND i.seq >= @from AND r.model IS NOT NULL`)
    .raw()
    .iterate({ project: projectId, from }) as IterableIterator<[number, string]>;
}

/**
 * Some seqs only (a label change refreshes its items' facts alone: ../review/itemFactsDelta.ts), else all:
 * the clause and its parameter.
 */
function onlySeqs(seqs: number[] | undefined): { clause: string; params: { seqs?: string } } {
  return seqs ? { clause: 'AND i.seq IN (SELECT value FROM json_each(@seqs))', params: { seqs: JSON.stringify(seqs) } } : { clause: '', params: {} };
}

/** Each model's rewards for responses A and B, by seq (as store/review.ts modelPairRewards reads them). */
export function modelPairRewardsBySeq(db: Db, projectId: number, seqs?: number[]): IterableIterator<[number, string, number, number]> {
  const only = onlySeqs(seqs);
  return db
    .prepare(
      `SELECT i.seq, m.name, a.reward, b.reward FROM score a
       JOIN score b ON b.model_id = a.model_id AND b.item_id = a.item_id AND b.response_index = 1
       JOIN model m ON m.id = a.model_id JOIN item i ON i.id = a.item_id
       WHERE a.response_index = 0 AND a.reward IS NOT NULL AND b.reward IS NOT NULL AND i.project_id = @project AND ${VISIBLE} ${only.clause}`,
    )
    .raw()
    .iterate({ project: projectId, ...only.params }) as IterableIterator<[number, string, number, number]>;
}

/** seq, task and the newest resolution's choice of every adjudicated item (of `seqs` when given). */
export function adjudicationsBySeq(db: Db, projectId: number, seqs?: number[]): [number, string, string | null][] {
  const only = onlySeqs(seqs);
  return db
    .prepare(
      `SELECT i.seq, d.task, l.choice FROM adjudication d JOIN label l ON l.seq = d.label_seq JOIN item i ON i.id = d.item_id
       WHERE i.project_id = @project AND ${VISIBLE} ${only.clause}
         AND d.id = (SELECT e.id FROM adjudication e WHERE e.item_id = d.item_id AND e.task = d.task ORDER BY e.created_at DESC, e.id DESC LIMIT 1)`,
    )
    .raw()
    .all({ project: projectId, ...only.params }) as [number, string, string | null][];
}

/** Where the labels' facts were read: the newest label, adjudication and gold mark, and what else they depend on. */
export interface FactMarks {
  label: number;
  adjudication: number;
  gold: number;
  /** The gold rules and the reward models held: a change of either is read whole. */
  rules: string;
  /**
   * The project's labels imports not complete: applying one points people's current labels at revisions
   * written before (store/labelImports.ts applyBatch), which no newer seq shows, so their items are read
   * again until it is complete.
   */
  open: number[];
}

export function factMarks(db: Db, projectId: number): FactMarks {
  const row = db
    .prepare(
      `SELECT (SELECT MAX(seq) FROM label) AS label, (SELECT MAX(seq) FROM adjudication) AS adjudication, (SELECT MAX(seq) FROM gold_mark) AS gold,
              (SELECT COUNT(*) FROM model) || ':' || COALESCE((SELECT json_extract(settings, '$.gold') FROM project WHERE id = @project), '') AS rules,
              (SELECT json_group_array(id) FROM label_import WHERE state <> 'complete' AND project_id = @project) AS open`,
    )
    .get({ project: projectId }) as { label: number | null; adjudication: number | null; gold: number | null; rules: string; open: string };
  return { label: row.label ?? 0, adjudication: row.adjudication ?? 0, gold: row.gold ?? 0, rules: row.rules, open: JSON.parse(row.open) as number[] };
}

/**
 * The visible seqs below n whose labels, adjudications or gold marks changed after `since`, and those of
 * the labels imports open then or now (`now`), ascending.
 */
export function changedSeqs(db: Db, projectId: number, since: FactMarks, now: FactMarks, n: number): number[] {
  // From the newest rows (a range of each table's seq key) to their items: CROSS JOIN keeps that order (the
  // planner would otherwise walk the project's items: 150 ms at 200k where this takes well under one).
  const of = (table: string) => `SELECT i.seq FROM ${table} x CROSS JOIN item i ON i.id = x.item_id WHERE x.seq > @${table} AND i.project_id = @project AND i.seq < @n`;
  const imports = [...new Set([...since.open, ...now.open])];
  const merged = imports.length ? 'UNION SELECT i.seq FROM label x CROSS JOIN item i ON i.id = x.item_id WHERE x.import_id IN (SELECT value FROM json_each(@imports)) AND i.project_id = @project AND i.seq < @n' : '';
  return db
    .prepare(`${of('label')} UNION ${of('adjudication')} UNION ${of('gold_mark')} ${merged} ORDER BY 1`)
    .pluck()
    .all({ project: projectId, n, label: since.label, adjudication: since.adjudication, gold_mark: since.gold, ...(imports.length ? { imports: JSON.stringify(imports) } : {}) }) as number[];
}

/** The project's seqs in external id order (items without one last), for the external id sort. */
export function seqsByExternalId(db: Db, projectId: number): IterableIterator<number> {
  return db
    .prepare(`SELECT i.seq FROM item i WHERE i.project_id = @project AND ${VISIBLE} ORDER BY i.external_id IS NULL, i.external_id, i.seq`)
    .pluck()
    .iterate({ project: projectId }) as IterableIterator<number>;
}

/** seq, the person's name, their current choice, ranking (ranking task), body (steps, rubric, pairwise) and when the pair's label was made (pairwise). */
export type PersonHeadRow = [number, string, string | null, string | null, string | null, string | null];

/** People's current judgements of one task, in seq order (an item's rows together). */
export function personHeads(db: Db, projectId: number, task: string, seqs?: number[]): IterableIterator<PersonHeadRow> {
  // A pair's label: its body (whether the model's pre-label was shown) and when it was made (its week).
  const pairwise = task === 'pairwise';
  const withBody = task === 'steps' || task === 'rubric' || pairwise;
  const only = onlySeqs(seqs);
  return db
    .prepare(
      `SELECT i.seq, a.name, h.choice, ${task === 'ranking' ? 'l.ranking' : 'NULL'}, ${withBody ? 'l.body' : 'NULL'}, ${pairwise ? 'l.created_at' : 'NULL'}
       FROM item i JOIN label_head h ON h.item_id = i.id JOIN annotator a ON a.id = h.annotator_id
       ${task === 'ranking' || withBody ? 'JOIN label l ON l.seq = h.label_seq' : ''}
       WHERE i.project_id = @project AND ${VISIBLE} ${only.clause} AND h.task = @task AND h.done = 1 AND a.kind = 'human'
       ORDER BY i.seq`,
    )
    .raw()
    .iterate({ project: projectId, task, ...only.params }) as IterableIterator<PersonHeadRow>;
}

/** The seqs of the items in the search's match table (store/search.ts matchingItemIds fills it). */
export function searchMatchSeqs(db: Db, table: string): number[] {
  return db.prepare(`SELECT i.seq FROM ${table} m JOIN item i ON i.id = m.item_id`).pluck().all() as number[];
}

/** What besides labels changes the labels' facts: the reward models held, and the newest gold mark. */
export function modelsAndGoldMark(db: Db): string {
  const row = db.prepare('SELECT (SELECT COUNT(*) FROM model) AS models, (SELECT MAX(seq) FROM gold_mark) AS gold').get() as { models: number; gold: number | null };
  return `${row.models}:${row.gold ?? 0}`;
}
