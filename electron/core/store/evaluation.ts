// What the evaluation engine reads besides gold and people's labels (store/gold.ts, store/review.ts): each
// visible item's facets (category, source, length) and the stored model scores per response. Nothing is
// scored here: evaluation reads what scoring and judging stored.
import type { Db } from './sqlite';
import { VISIBLE } from './items';

export interface ItemFacts {
  itemId: number;
  seq: number;
  externalId: string | null;
  responses: number;
  /** metadata.category, else metadata.subset; null when the file gave neither. */
  category: string | null;
  /** metadata.subset (RewardBench's subsets), metadata.domain (RM-Bench's) as the file gave them. */
  subset: string | null;
  domain: string | null;
  /** metadata.source, else the name of the file the item came from. */
  source: string | null;
  /** Characters of the prompt and every response. */
  length: number;
  /** metadata.style_variants: response indexes of the chosen and the rejected in RM-Bench's style order. */
  styleVariants: string | null;
}

/** Every visible item's facts, in order. */
export function* itemFacts(db: Db, projectId: number): Generator<ItemFacts> {
  const rows = db
    .prepare(
      `SELECT i.id, i.seq, i.external_id, i.response_count,
              COALESCE(i.metadata ->> '$.category', i.metadata ->> '$.subset'), i.metadata ->> '$.subset', i.metadata ->> '$.domain',
              COALESCE(i.metadata ->> '$.source',
                (SELECT f.file_name FROM import_file f WHERE f.project_id = i.project_id AND f.state = 'complete' AND f.first_seq <= i.seq ORDER BY f.first_seq DESC LIMIT 1)),
              length(i.prompt) + (SELECT COALESCE(SUM(length(r.content)), 0) FROM response r WHERE r.item_id = i.id),
              i.metadata -> '$.style_variants'
       FROM item i WHERE i.project_id = @project AND ${VISIBLE} ORDER BY i.seq`,
    )
    .raw()
    .iterate({ project: projectId }) as IterableIterator<[number, number, string | null, number, unknown, unknown, unknown, unknown, number, string | null]>;
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
  for (const [itemId, seq, externalId, responses, category, subset, domain, source, length, styleVariants] of rows)
    yield { itemId, seq, externalId, responses, category: text(category), subset: text(subset), domain: text(domain), source: text(source), length, styleVariants };
}

export interface ScoreRow {
  itemId: number;
  model: string;
  kind: 'outcome' | 'process';
  responseIndex: number;
  reward: number | null;
  /** JSON text: P(step good) per step (process models). */
  stepScores: string | null;
}

/** The stored scores of the project's visible items, by item (a score shared by equal inputs is listed under the item it was first computed for). */
export function* scoreRows(db: Db, projectId: number): Generator<ScoreRow> {
  const rows = db
    .prepare(
      `SELECT s.item_id, m.name, m.kind, s.response_index, s.reward, s.step_scores FROM score s
       JOIN model m ON m.id = s.model_id JOIN item i ON i.id = s.item_id
       WHERE i.project_id = @project AND ${VISIBLE} ORDER BY s.item_id, m.name, s.response_index`,
    )
    .raw()
    .iterate({ project: projectId }) as IterableIterator<[number, string, 'outcome' | 'process', number, number | null, string | null]>;
  for (const [itemId, model, kind, responseIndex, reward, stepScores] of rows) yield { itemId, model, kind, responseIndex, reward, stepScores };
}

/** People's current choices of a task on some items (the ones a judge gave a verdict on), with each item's seq. */
export function humanChoicesOn(db: Db, itemIds: readonly number[], task: 'pairwise' | 'verdict'): Map<number, { seq: number; choices: string[] }> {
  const out = new Map<number, { seq: number; choices: string[] }>();
  const rows = db
    .prepare(
      `SELECT i.id, i.seq, h.choice FROM item i
       LEFT JOIN label_head h ON h.item_id = i.id AND h.task = @task AND h.done = 1 AND h.annotator_id IN (SELECT id FROM annotator WHERE kind = 'human')
       WHERE i.id IN (SELECT value FROM json_each(@ids))`,
    )
    .raw()
    .all({ ids: JSON.stringify(itemIds), task }) as [number, number, string | null][];
  for (const [itemId, seq, choice] of rows) {
    const entry = out.get(itemId) ?? { seq, choices: [] };
    if (choice !== null) entry.choices.push(choice);
    out.set(itemId, entry);
  }
  return out;
}
