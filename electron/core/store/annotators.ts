// Annotators: people, models and the "source" of a file's own preferences. Every label has one. The
// uuid is the identity across machines (it travels in every exported label); the name is for people.
import { randomUUID } from 'node:crypto';
import type { AnnotatorKind } from '../../../shared/domain';
import { conflict } from '../errors';
import type { Db } from './db';

export interface AnnotatorRow {
  id: number;
  uuid: string;
  name: string;
  kind: AnnotatorKind;
}

/** The annotator that stands for preferences a dataset file already carried. */
export const SOURCE_ANNOTATOR = 'source';

const COLUMNS = 'id, uuid, name, kind';

export function ensureAnnotator(db: Db, name: string, kind: AnnotatorKind): AnnotatorRow {
  const found = findAnnotator(db, name);
  if (found) {
    if (found.kind !== kind) throw conflict(`"${name}" is already an annotator of kind ${found.kind}, not ${kind}.`);
    return found;
  }
  const uuid = randomUUID();
  const result = db.prepare('INSERT INTO annotator (uuid, name, kind, created_at) VALUES (?, ?, ?, ?)').run(uuid, name, kind, new Date().toISOString());
  return { id: Number(result.lastInsertRowid), uuid, name, kind };
}

/**
 * The annotator with this uuid (a label from another machine), made here if it is new. Its name is kept
 * when free; a different annotator already holding the name here gets the newcomer a suffixed name.
 */
export function ensureAnnotatorByUuid(db: Db, uuid: string, name: string, kind: AnnotatorKind): AnnotatorRow {
  const found = db.prepare(`SELECT ${COLUMNS} FROM annotator WHERE uuid = ?`).get(uuid) as AnnotatorRow | undefined;
  if (found) return found;
  const taken = findAnnotator(db, name);
  const localName = taken ? `${name}@${uuid.slice(0, 8)}` : name;
  db.prepare('INSERT INTO annotator (uuid, name, kind, created_at) VALUES (?, ?, ?, ?)').run(uuid, localName, kind, new Date().toISOString());
  return db.prepare(`SELECT ${COLUMNS} FROM annotator WHERE uuid = ?`).get(uuid) as AnnotatorRow;
}

export function findAnnotator(db: Db, name: string): AnnotatorRow | undefined {
  return db.prepare(`SELECT ${COLUMNS} FROM annotator WHERE name = ?`).get(name) as AnnotatorRow | undefined;
}
