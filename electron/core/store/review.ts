// What review reads and writes: every current human judgement of a project (for agreement, consensus
// and the disagreement queue), the models' rewards for the first two responses, and adjudications.
// The reads are streamed in item order inside one read transaction by the caller (a stats job runs them
// on a task worker's connection, never on the thread an annotator is waiting on).
import type { Task } from '../../../shared/domain';
import { uuidv7 } from '../../../shared/ids';
import type { Db } from './db';
import { labelAppender, NEWEST_ADJUDICATION, type RevisionDraft } from './labels';
import { VISIBLE } from './items';
import { countLabeled } from './projects';

/** One current label of a person, as review needs it. */
/**
 * Runs a whole-project read with a large page cache (the labels and their heads are read by random rowid,
 * which a default 2 MiB cache turns into disk reads), then puts the connection's cache back.
 */
export function withReadCache<T>(db: Db, read: () => T, cacheKib = 256 * 1024): T {
  const saved = db.pragma('cache_size', { simple: true }) as number;
  db.pragma(`cache_size = -${cacheKib}`);
  try {
    return read();
  } finally {
    db.pragma(`cache_size = ${saved}`);
  }
}

/** The columns of a label revision that review reads, with the name of who made it. */
export interface LabelColumns {
  annotator: string;
  choice: string | null;
  strength: number | null;
  /** JSON text: best first, groups of tied response indexes. */
  ranking: string | null;
  /** JSON text: source indexes left to right as the annotator saw them. */
  shownOrder: string | null;
  /** JSON text of the revision body (rationale, time_ms, prelabel_visible, steps, first_error, ratings). */
  body: string;
  createdAt: string;
}

export interface ReviewLabelRow extends LabelColumns {
  itemId: number;
  seq: number;
  externalId: string | null;
  annotatorId: number;
  task: Task;
}

/**
 * Current labels of people (not models, not the file's source) of one task, by item id (no sort: review
 * indexes them as met). Read as raw rows of the few columns review needs (object rows and the joined
 * names cost twice the time on 300k labels); annotator names come from a small map, external ids are
 * left null (itemExternalIds fills them for the rows a queue shows).
 */
export function* humanLabels(db: Db, projectId: number, task: Task): Generator<ReviewLabelRow> {
  // The counters say when nobody judged this task: no need to walk the project to find nothing.
  if (countLabeled(db, projectId, task) === 0) return;
  const names = new Map(db.prepare("SELECT id, name FROM annotator WHERE kind = 'human'").raw().all() as [number, string][]);
  const rows = db
    .prepare(
      `SELECT h.item_id, i.seq, h.annotator_id, h.choice, l.strength, ${task === 'ranking' ? 'l.ranking' : 'NULL'}, l.shown_order, l.body, l.created_at
       FROM label_head h
       JOIN item i ON i.id = h.item_id
       JOIN label l ON l.seq = h.label_seq
       WHERE i.project_id = @project AND ${VISIBLE} AND h.task = @task AND h.done = 1`,
    )
    .raw()
    .iterate({ project: projectId, task }) as IterableIterator<[number, number, number, string | null, number | null, string | null, string | null, string, string]>;
  for (const [itemId, seq, annotatorId, choice, strength, ranking, shownOrder, body, createdAt] of rows) {
    const annotator = names.get(annotatorId);
    if (annotator === undefined) continue; // a model's or the file's own label
    yield { itemId, seq, externalId: null, annotatorId, annotator, task, choice, strength, ranking, shownOrder, body, createdAt };
  }
}

/**
 * The responses of the project's step-labeled items that are agent trajectories (a message list with a
 * tool call, a tool message or Arbiter's turn fields, as shared/trajectory.ts `isTrajectory` says), by
 * `itemId:responseIndex`, with their turns (the newest segmentation's steps). Looked for in the stored
 * JSON text, never parsed: a trajectory of 2 MB costs a scan, not a parse.
 */
export function trajectoryResponses(db: Db, projectId: number): Map<string, number | null> {
  if (countLabeled(db, projectId, 'steps') === 0) return new Map();
  const rows = db
    .prepare(
      `SELECT r.item_id, r.idx,
              (SELECT json_array_length(s.steps) FROM segmentation s WHERE s.item_id = r.item_id AND s.response_idx = r.idx ORDER BY s.version DESC LIMIT 1)
       FROM response r JOIN item i ON i.id = r.item_id
       WHERE i.project_id = @project AND ${VISIBLE}
         AND r.item_id IN (SELECT h.item_id FROM label_head h WHERE h.task = 'steps' AND h.done = 1)
         AND substr(r.content, 1, 1) = '['
         AND (instr(r.content, '"tool_calls":') > 0 OR instr(r.content, '"role":"tool"') > 0 OR instr(r.content, '"arbiter":') > 0)`,
    )
    .raw()
    .all({ project: projectId }) as [number, number, number | null][];
  return new Map(rows.map(([item, idx, turns]) => [`${item}:${idx}`, turns]));
}

/** External ids of some items (the ones a queue lists). */
export function itemExternalIds(db: Db, itemIds: number[]): Map<number, string | null> {
  const rows = db.prepare('SELECT id, external_id FROM item WHERE id IN (SELECT value FROM json_each(?))').raw().all(JSON.stringify(itemIds)) as [number, string | null][];
  return new Map(rows);
}

/** A model's rewards for the first two responses of an item. */
export interface ModelPairRow {
  itemId: number;
  model: string;
  rewardA: number;
  rewardB: number;
}

/**
 * Each outcome model's rewards for responses A and B of the project's items. A score remembers the item
 * and response it was first computed for; identical inputs elsewhere share it and are not listed again
 * (review reads the model's view of the items it scored).
 */
export function modelPairRewards(db: Db, projectId: number): ModelPairRow[] {
  return db
    .prepare(
      `SELECT a.item_id AS itemId, m.name AS model, a.reward AS rewardA, b.reward AS rewardB
       FROM score a
       JOIN score b ON b.model_id = a.model_id AND b.item_id = a.item_id AND b.response_index = 1
       JOIN model m ON m.id = a.model_id
       JOIN item i ON i.id = a.item_id
       WHERE a.response_index = 0 AND a.reward IS NOT NULL AND b.reward IS NOT NULL AND i.project_id = @project AND ${VISIBLE}`,
    )
    .all({ project: projectId }) as ModelPairRow[];
}

/** People with at least one current judgement in the project, from the progress counters. */
export function humanAnnotatorCount(db: Db, projectId: number): number {
  return db
    .prepare("SELECT COUNT(DISTINCT p.annotator_id) FROM progress p JOIN annotator a ON a.id = p.annotator_id WHERE p.project_id = ? AND p.done > 0 AND a.kind = 'human'")
    .pluck()
    .get(projectId) as number;
}

/**
 * The project's adjudicated items, by task: one read for every task (asked once a task, each ask walked
 * the project's items), none at all while nothing anywhere is adjudicated.
 */
export function adjudicatedByTask(db: Db, projectId: number): (task: Task) => Set<number> {
  const byTask = new Map<string, Set<number>>();
  if (db.prepare('SELECT EXISTS (SELECT 1 FROM adjudication)').pluck().get() === 1) {
    const rows = db.prepare('SELECT d.task, d.item_id FROM adjudication d JOIN item i ON i.id = d.item_id WHERE i.project_id = ?').raw().all(projectId) as [string, number][];
    for (const [task, itemId] of rows) {
      let items = byTask.get(task);
      if (!items) byTask.set(task, (items = new Set()));
      items.add(itemId);
    }
  }
  return (task) => byTask.get(task) ?? new Set();
}

/** Every label revision of an item and task that is someone's current one, people and models alike. */
export function itemCurrentLabels(db: Db, itemId: number, task: Task) {
  return db
    .prepare(
      `SELECT a.name AS annotator, a.kind, a.uuid, l.id, l.choice, l.strength, l.ranking, l.shown_order AS shownOrder, l.body, l.created_at AS createdAt
       FROM label_head h JOIN label l ON l.seq = h.label_seq JOIN annotator a ON a.id = h.annotator_id
       WHERE h.item_id = ? AND h.task = ? AND h.done = 1 ORDER BY a.kind, a.name`,
    )
    .all(itemId, task) as (LabelColumns & { kind: string; uuid: string; id: string })[];
}

export interface AdjudicationRow {
  id: string;
  labelId: string;
  by: string;
  note: string;
  createdAt: string;
  choice: string | null;
  strength: number | null;
  ranking: string | null;
  body: string;
}

/** The newest adjudication of an item and task, with the label it chose. */
export function latestAdjudication(db: Db, itemId: number, task: Task): AdjudicationRow | null {
  const row = db
    .prepare(
      `SELECT d.id, l.id AS labelId, a.name AS by, d.note, d.created_at AS createdAt, l.choice, l.strength, l.ranking, l.body
       FROM adjudication d JOIN label l ON l.seq = d.label_seq JOIN annotator a ON a.id = d.annotator_id
       WHERE d.item_id = ? AND d.task = ? ORDER BY d.created_at DESC, d.id DESC LIMIT 1`,
    )
    .get(itemId, task) as AdjudicationRow | undefined;
  return row ?? null;
}

/**
 * Records a lead's resolution (call inside a write transaction): the resolved judgement is stored as a
 * revision by the lead that is nobody's current label (it must not count as one more vote), and the
 * adjudication points at it. A later adjudication of the same item and task supersedes it.
 */
export function recordAdjudication(db: Db, draft: Omit<RevisionDraft, 'id'>, note: string): { id: string; labelId: string } {
  const labelId = uuidv7();
  labelAppender(db, { head: false })({ ...draft, id: labelId });
  return { id: linkAdjudication(db, labelId, note), labelId };
}

/**
 * Makes a stored revision the adjudication of its item and task (a merged teammate's adjudication
 * arrives as a revision marked `adjudicated`); the adjudication's time is the revision's.
 */
export function linkAdjudication(db: Db, labelId: string, note: string): string {
  const id = uuidv7();
  db.prepare(
    `INSERT INTO adjudication (id, item_id, task, label_seq, annotator_id, note, created_at)
     SELECT ?, item_id, task, seq, annotator_id, ?, created_at FROM label WHERE id = ?`,
  ).run(id, note, labelId);
  return id;
}

/**
 * Changes whenever a label, an adjudication, a gold mark, the lead's gold rules or the project's visible items change: a cached review is
 * still right while this stays the same (new model scores are announced by their job instead). Each part
 * is a primary-key lookup, never a scan.
 */
export function reviewWatermark(db: Db, projectId: number): string {
  // The gold marks and the lead's gold rules too: the report holds each person's accuracy and qualification.
  const row = db
    .prepare(
      `SELECT (SELECT MAX(seq) FROM label) AS label, (SELECT MAX(seq) FROM adjudication) AS adjudication,
              (SELECT visible_seq FROM project WHERE id = @project) AS visible, (SELECT MAX(seq) FROM gold_mark) AS gold,
              (SELECT json_extract(settings, '$.gold') FROM project WHERE id = @project) AS rules,
              (SELECT json_array_length(settings, '$.${SENT_KEY}') || '/' || json_extract(settings, '$.${SENT_KEY}[#-1].at') FROM project WHERE id = @project) AS sent`,
    )
    .get({ project: projectId }) as { label: number | null; adjudication: number | null; visible: number | null; gold: number | null; rules: string | null; sent: string | null };
  return `${row.label ?? 0}:${row.adjudication ?? 0}:${row.visible ?? 0}:${row.gold ?? 0}:${row.rules ?? ''}:${row.sent ?? ''}`;
}

/** Each model's reward per response of one item (null where it gave none or has not scored it). */
export function itemModelRewards(db: Db, itemId: number): { model: string; rewards: (number | null)[] }[] {
  const rows = db
    .prepare(`SELECT m.name AS model, s.response_index AS idx, s.reward FROM score s JOIN model m ON m.id = s.model_id WHERE s.item_id = ? ORDER BY m.name, s.response_index`)
    .all(itemId) as { model: string; idx: number; reward: number | null }[];
  const byModel = new Map<string, (number | null)[]>();
  for (const r of rows) {
    const list = byModel.get(r.model) ?? [];
    list[r.idx] = r.reward;
    byModel.set(r.model, list);
  }
  return [...byModel].map(([model, rewards]) => ({ model, rewards: Array.from(rewards, (x) => x ?? null) }));
}

/** People by annotator id: their names and uuids (for exports that list who said what). */
export function humanAnnotators(db: Db): Map<number, { name: string; uuid: string }> {
  const rows = db.prepare("SELECT id, name, uuid FROM annotator WHERE kind = 'human'").all() as { id: number; name: string; uuid: string }[];
  return new Map(rows.map((r) => [r.id, { name: r.name, uuid: r.uuid }]));
}

/** The newest adjudicated choice of each pairwise item of the project that has one. */
export function adjudicatedChoices(db: Db, projectId: number): Map<number, string | null> {
  const rows = db
    .prepare(
      `SELECT d.item_id, l.choice FROM adjudication d JOIN label l ON l.seq = d.label_seq JOIN item i ON i.id = d.item_id
       WHERE i.project_id = ? AND d.task = 'pairwise' AND ${NEWEST_ADJUDICATION}`,
    )
    .raw()
    .all(projectId) as [number, string | null][];
  return new Map(rows);
}

/**
 * Items a lead sent to review (the queue's reason "sent"), kept in the project's settings under this key
 * as `{ uid, by, at }`, oldest first: by the item's uid, so the list means the same items on every desktop
 * that takes the team's settings. No table: the schema numbers are all spoken for (docs/annotating.md, the review section, says so).
 */
const SENT_KEY = 'reviewSent';
interface SentEntry {
  uid: string;
  by: string;
  at: string;
}

function sentEntries(settings: string): SentEntry[] {
  const list = (JSON.parse(settings) as Record<string, unknown>)[SENT_KEY];
  return Array.isArray(list) ? (list as SentEntry[]).filter((e) => e && typeof e.uid === 'string' && typeof e.by === 'string' && typeof e.at === 'string') : [];
}

/**
 * Adds the project's items to the sent list (call inside a write transaction): an item sent again moves
 * to now; past `keep` the oldest sends go. Items not in the project are not sent. How many were, and dropped.
 */
export function sendItemsToReview(db: Db, projectId: number, itemIds: readonly number[], by: string, keep: number): { sent: number; dropped: number } {
  const uids = db
    .prepare('SELECT uid FROM item WHERE project_id = ? AND id IN (SELECT value FROM json_each(?))')
    .pluck()
    .all(projectId, JSON.stringify(itemIds)) as string[];
  const settings = JSON.parse(db.prepare('SELECT settings FROM project WHERE id = ?').pluck().get(projectId) as string) as Record<string, unknown>;
  const at = new Date().toISOString();
  const fresh = new Set(uids);
  const merged = [...sentEntries(JSON.stringify(settings)).filter((e) => !fresh.has(e.uid)), ...uids.map((uid) => ({ uid, by, at }))];
  const dropped = Math.max(0, merged.length - keep);
  db.prepare('UPDATE project SET settings = ? WHERE id = ?').run(JSON.stringify({ ...settings, [SENT_KEY]: merged.slice(dropped) }), projectId);
  return { sent: uids.length, dropped };
}

/** The project's visible items a lead sent to review, with who sent each and when, and what review needs to queue them. */
export function sentToReview(db: Db, projectId: number): { itemId: number; seq: number; responses: number; steps: boolean; tasks: Task[]; by: string; at: string }[] {
  const settings = db.prepare('SELECT settings FROM project WHERE id = ?').pluck().get(projectId) as string | undefined;
  const entries = settings ? sentEntries(settings) : [];
  if (!entries.length) return [];
  const byUid = new Map(entries.map((e) => [e.uid, e]));
  const rows = db
    .prepare(
      `SELECT i.id, i.uid, i.seq, i.response_count,
              EXISTS (SELECT 1 FROM segmentation s WHERE s.item_id = i.id) OR EXISTS (SELECT 1 FROM response r WHERE r.item_id = i.id AND substr(r.content, 1, 1) = '['
                AND (instr(r.content, '"tool_calls":') > 0 OR instr(r.content, '"role":"tool"') > 0 OR instr(r.content, '"arbiter":') > 0)) AS steps,
              (SELECT json_group_array(DISTINCT h.task) FROM label_head h JOIN annotator a ON a.id = h.annotator_id
                WHERE h.item_id = i.id AND h.done = 1 AND a.kind = 'human') AS tasks
       FROM item i WHERE i.project_id = @project AND ${VISIBLE} AND i.uid IN (SELECT value FROM json_each(@uids))`,
    )
    .raw()
    .all({ project: projectId, uids: JSON.stringify([...byUid.keys()]) }) as [number, string, number, number, number, string][];
  return rows.map(([itemId, uid, seq, responses, steps, tasks]) => ({ itemId, seq, responses, steps: steps === 1, tasks: JSON.parse(tasks) as Task[], by: byUid.get(uid)!.by, at: byUid.get(uid)!.at }));
}
