// Segmentations: versions of a response's steps. Version 1 is the file's own (origin 'file') or the one
// Arbiter made when the first step was rated (origin 'auto'); a split or a merge adds the next version.
// Versions are never changed, so a step label always knows which steps it rated.
import type { Db } from './db';

export interface SegmentationRow {
  id: number;
  version: number;
  steps: string[];
  origin: 'file' | 'auto' | 'annotator';
}

interface Raw {
  id: number;
  response_idx: number;
  version: number;
  steps: string;
  origin: SegmentationRow['origin'];
}

const toRow = (r: Raw): SegmentationRow => ({ id: r.id, version: r.version, steps: JSON.parse(r.steps) as string[], origin: r.origin });

/** The newest segmentation of each of an item's responses that has one, by response index. */
export function currentSegmentations(db: Db, itemId: number): Map<number, SegmentationRow> {
  const rows = db
    .prepare(
      `SELECT s.id, s.response_idx, s.version, s.steps, s.origin FROM segmentation s
       WHERE s.item_id = ? AND s.version = (SELECT MAX(version) FROM segmentation t WHERE t.item_id = s.item_id AND t.response_idx = s.response_idx)`,
    )
    .all(itemId) as Raw[];
  return new Map(rows.map((r) => [r.response_idx, toRow(r)]));
}

export function segmentationVersion(db: Db, itemId: number, responseIdx: number, version: number): SegmentationRow | null {
  const row = db.prepare('SELECT id, response_idx, version, steps, origin FROM segmentation WHERE item_id = ? AND response_idx = ? AND version = ?').get(itemId, responseIdx, version) as Raw | undefined;
  return row ? toRow(row) : null;
}

/** Adds the next version of a response's steps (call inside a write transaction). */
export function addSegmentation(db: Db, itemId: number, responseIdx: number, steps: string[], origin: SegmentationRow['origin']): SegmentationRow {
  const next = (db.prepare('SELECT COALESCE(MAX(version), 0) + 1 FROM segmentation WHERE item_id = ? AND response_idx = ?').pluck().get(itemId, responseIdx) as number);
  const result = db
    .prepare('INSERT INTO segmentation (item_id, response_idx, version, steps, origin, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(itemId, responseIdx, next, JSON.stringify(steps), origin, new Date().toISOString());
  return { id: Number(result.lastInsertRowid), version: next, steps, origin };
}

/** The key segmentationsBetween files a version under. */
export const segmentationKey = (itemId: number, responseIdx: number, version: number) => `${itemId}:${responseIdx}:${version}`;

/**
 * Every version of the steps of the responses of the items whose ids lie in [low, high] (a page of an
 * export), by segmentationKey, and the newest version of each response by `${itemId}:${responseIdx}`.
 */
export function segmentationsBetween(db: Db, low: number, high: number): { steps: Map<string, string[]>; newest: Map<string, number> } {
  const rows = db.prepare('SELECT item_id, response_idx, version, steps FROM segmentation WHERE item_id BETWEEN ? AND ?').all(low, high) as {
    item_id: number;
    response_idx: number;
    version: number;
    steps: string;
  }[];
  const steps = new Map<string, string[]>();
  const newest = new Map<string, number>();
  for (const r of rows) {
    steps.set(segmentationKey(r.item_id, r.response_idx, r.version), JSON.parse(r.steps) as string[]);
    const key = `${r.item_id}:${r.response_idx}`;
    if ((newest.get(key) ?? 0) < r.version) newest.set(key, r.version);
  }
  return { steps, newest };
}
