// The model and score tables (migrations/0002_scores.sql).
import type { Db } from './db';
import type { FileSignature, Manifest } from '../base/modelManifest';
import type { ModelDescription, ModelInfo, ModelKind, ModelSpec, ProviderReport } from '../../../shared/scoring';

/** What the model row's manifest column holds. */
export interface StoredModel {
  spec: ModelSpec;
  userManifest: Manifest | null;
  files: FileSignature[];
  description: Omit<ModelDescription, 'hash'>;
  /** The provider the last score job ran on, and why others were skipped. */
  lastProvider?: ProviderReport;
}

export interface ModelRow {
  id: number;
  name: string;
  hash: string;
  dir: string;
  kind: ModelKind;
  stored: StoredModel;
  addedAt: string;
}

interface RawModelRow {
  id: number;
  name: string;
  hash: string;
  dir: string;
  kind: ModelKind;
  manifest: string;
  added_at: string;
  scores?: number;
}

const toRow = (r: RawModelRow): ModelRow => ({
  id: r.id,
  name: r.name,
  hash: r.hash,
  dir: r.dir,
  kind: r.kind,
  stored: JSON.parse(r.manifest) as StoredModel,
  addedAt: r.added_at,
});

/**
 * Adds a model, or finds the one with the same hash (same files) and points it at `dir`, where its
 * files are now. One statement each, so a failed add leaves nothing behind.
 */
export function upsertModel(db: Db, model: { name: string; hash: string; dir: string; kind: ModelKind; stored: StoredModel }, rename: boolean): ModelRow {
  db.prepare(
    `INSERT INTO model (name, hash, dir, kind, manifest, added_at) VALUES (@name, @hash, @dir, @kind, @manifest, @added_at)
     ON CONFLICT (hash) DO UPDATE SET dir = excluded.dir, manifest = excluded.manifest${rename ? ', name = excluded.name' : ''}`,
  ).run({ ...model, manifest: JSON.stringify(model.stored), added_at: new Date().toISOString() });
  return findModelByHash(db, model.hash)!;
}

export function findModelByHash(db: Db, hash: string): ModelRow | undefined {
  const row = db.prepare('SELECT * FROM model WHERE hash = ?').get(hash) as RawModelRow | undefined;
  return row ? toRow(row) : undefined;
}

export function getModel(db: Db, id: number): ModelRow | undefined {
  const row = db.prepare('SELECT * FROM model WHERE id = ?').get(id) as RawModelRow | undefined;
  return row ? toRow(row) : undefined;
}

export function listModelRows(db: Db): ModelRow[] {
  return (db.prepare('SELECT * FROM model ORDER BY id').all() as RawModelRow[]).map(toRow);
}

export function listModels(db: Db): ModelInfo[] {
  const rows = db.prepare('SELECT m.*, (SELECT COUNT(*) FROM score s WHERE s.model_id = m.id) AS scores FROM model m ORDER BY m.id').all() as RawModelRow[];
  return rows.map((r) => {
    const row = toRow(r);
    const { spec, lastProvider } = row.stored;
    return { id: row.id, name: row.name, hash: row.hash, dir: row.dir, kind: row.kind, inputMode: spec.inputMode, addedAt: row.addedAt, scores: r.scores ?? 0, lastProvider: lastProvider ?? null };
  });
}

export function updateStoredModel(db: Db, id: number, patch: Partial<StoredModel>): void {
  const row = getModel(db, id);
  if (row) db.prepare('UPDATE model SET manifest = ? WHERE id = ?').run(JSON.stringify({ ...row.stored, ...patch }), id);
}

/** A lookup of which input hashes a model has already scored. */
export function scoreCache(db: Db, modelId: number): (hash: string) => boolean {
  const has = db.prepare('SELECT 1 FROM score WHERE model_id = ? AND content_hash = ?').pluck();
  return (hash) => has.get(modelId, hash) !== undefined;
}

export interface NewScore {
  contentHash: string;
  itemId: number;
  responseIndex: number;
  reward: number | null;
  stepScores: (number | null)[] | null;
}

/** Writes a batch of scores in one transaction. */
export function scoreWriter(db: Db, modelId: number, provider: string): (scores: NewScore[]) => void {
  const insert = db.prepare(
    `INSERT OR REPLACE INTO score (model_id, content_hash, item_id, response_index, reward, step_scores, provider, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return db.transaction((scores: NewScore[]) => {
    const now = new Date().toISOString();
    for (const s of scores) {
      insert.run(modelId, s.contentHash, s.itemId, s.responseIndex, s.reward, s.stepScores ? JSON.stringify(s.stepScores) : null, provider, now);
    }
  });
}

export interface StoredScore {
  reward: number | null;
  stepScores: (number | null)[] | null;
  provider: string;
}

export function getScore(db: Db, modelId: number, contentHash: string): StoredScore | null {
  const row = db.prepare('SELECT reward, step_scores, provider FROM score WHERE model_id = ? AND content_hash = ?').get(modelId, contentHash) as
    | { reward: number | null; step_scores: string | null; provider: string }
    | undefined;
  if (!row) return null;
  return { reward: row.reward, stepScores: row.step_scores ? (JSON.parse(row.step_scores) as (number | null)[]) : null, provider: row.provider };
}

/** Removes a model and, by cascade, its scores; says whether there was one. */
export function removeModel(db: Db, modelId: number): boolean {
  return db.prepare('DELETE FROM model WHERE id = ?').run(modelId).changes === 1;
}

/** A prepared lookup of a model's cached reward for one input (undefined: not scored; null: unusable). */
export function rewardLookup(db: Db): (modelId: number, contentHash: string) => number | null | undefined {
  const statement = db.prepare('SELECT reward FROM score WHERE model_id = ? AND content_hash = ?').pluck();
  return (modelId, contentHash) => statement.get(modelId, contentHash) as number | null | undefined;
}
