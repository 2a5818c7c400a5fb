// Annotators: people, models and the "source" of a file's own preferences. Every label has one.
import { randomUUID } from 'node:crypto';
import type { AnnotatorKind } from '../../../shared/domain';
import { conflict } from '../errors';
import type { Db } from './db';

export interface AnnotatorRow {
  id: number;
  name: string;
  kind: AnnotatorKind;
}

/** The annotator that stands for preferences a dataset file already carried. */
export const SOURCE_ANNOTATOR = 'source';

export function ensureAnnotator(db: Db, name: string, kind: AnnotatorKind): AnnotatorRow {
  const found = db.prepare('SELECT id, name, kind FROM annotator WHERE name = ?').get(name) as AnnotatorRow | undefined;
  if (found) {
    if (found.kind !== kind) throw conflict(`"${name}" is already an annotator of kind ${found.kind}, not ${kind}.`);
    return found;
  }
  const result = db.prepare('INSERT INTO annotator (uuid, name, kind, created_at) VALUES (?, ?, ?, ?)').run(randomUUID(), name, kind, new Date().toISOString());
  return { id: Number(result.lastInsertRowid), name, kind };
}

export function findAnnotator(db: Db, name: string): AnnotatorRow | undefined {
  return db.prepare('SELECT id, name, kind FROM annotator WHERE name = ?').get(name) as AnnotatorRow | undefined;
}
