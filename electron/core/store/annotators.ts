// Annotators: people, models and the "source" of a file's own preferences. Every label has one. The
// uuid is the identity across machines (it travels in every exported label); the name is for people.
import { randomUUID } from 'node:crypto';
import type { AnnotatorKind } from '../../../shared/domain';
import { conflict } from '../base/errors';
import type { Db } from './db';
import { statement } from './statements';
import { writeNow } from './write';

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

/**
 * People named as the team hub names them (a sync: the hub's annotator row of each uuid it pulled lines
 * of, never the name a line carries): a person here under another name (one a line said, before a sync
 * read the hub's rows) takes the hub's, where no one here has that name already. How many were renamed.
 */
export function nameAfterHub(db: Db, people: ReadonlyMap<string, string>): number {
  if (people.size === 0) return 0;
  const byUuid = db.prepare(`SELECT ${COLUMNS} FROM annotator WHERE uuid = ? COLLATE NOCASE`);
  const rename = db.prepare('UPDATE annotator SET name = ? WHERE id = ?');
  const due = (uuid: string, name: string) => {
    const row = byUuid.get(uuid) as AnnotatorRow | undefined;
    return row && row.kind === 'human' && row.name !== name && !findAnnotator(db, name) ? row : null;
  };
  // Read first: almost always everyone has the hub's name already, and no write is needed.
  if (![...people].some(([uuid, name]) => due(uuid, name))) return 0;
  return writeNow(db, () => {
    let renamed = 0;
    for (const [uuid, name] of people) {
      const row = due(uuid, name);
      if (!row) continue;
      rename.run(name, row.id);
      renamed++;
    }
    return renamed;
  });
}

export function findAnnotator(db: Db, name: string): AnnotatorRow | undefined {
  return statement(db, `SELECT ${COLUMNS} FROM annotator WHERE name = ?`).get(name) as AnnotatorRow | undefined;
}

export type UuidAdoption =
  | { outcome: 'same' | 'adopted' | 'made' | 'renamed'; annotator: AnnotatorRow }
  /** The name has revisions here under `localUuid`: its uuid cannot change (their labels would change owner). */
  | { outcome: 'has-revisions'; localUuid: string; revisions: number }
  /** The name, or the uuid, is held here by an annotator that is not a person (a model, a file's source). */
  | { outcome: 'not-human'; holder: AnnotatorRow };

/**
 * Gives the person `name` the uuid the team hub knows them by (`hub join`): made with it when new here;
 * changed to it while they have no revisions here; renamed to `name` when the uuid is here already under
 * another name (pulled from the hub while `name` was taken by an annotator with no revisions, which goes).
 * Revisions under another uuid keep it: the caller says what to do. One transaction.
 */
export function adoptAnnotatorUuid(db: Db, name: string, uuid: string): UuidAdoption {
  return writeNow(db, (): UuidAdoption => {
    const named = findAnnotator(db, name);
    const holder = db.prepare(`SELECT ${COLUMNS} FROM annotator WHERE uuid = ? COLLATE NOCASE`).get(uuid) as AnnotatorRow | undefined;
    if (named && named.id === holder?.id) return named.kind === 'human' ? { outcome: 'same', annotator: named } : { outcome: 'not-human', holder: named };
    if (named && named.kind !== 'human') return { outcome: 'not-human', holder: named };
    if (holder && holder.kind !== 'human') return { outcome: 'not-human', holder };
    if (named) {
      const revisions = (db.prepare('SELECT count(*) AS n FROM label WHERE annotator_id = ?').get(named.id) as { n: number }).n;
      if (revisions > 0) return { outcome: 'has-revisions', localUuid: named.uuid, revisions };
    }
    if (holder) {
      if (named) db.prepare('DELETE FROM annotator WHERE id = ?').run(named.id);
      db.prepare('UPDATE annotator SET name = ? WHERE id = ?').run(name, holder.id);
      return { outcome: 'renamed', annotator: { ...holder, name } };
    }
    if (named) {
      db.prepare('UPDATE annotator SET uuid = ? WHERE id = ?').run(uuid, named.id);
      return { outcome: 'adopted', annotator: { ...named, uuid } };
    }
    const result = db.prepare('INSERT INTO annotator (uuid, name, kind, created_at) VALUES (?, ?, ?, ?)').run(uuid, name, 'human', new Date().toISOString());
    return { outcome: 'made', annotator: { id: Number(result.lastInsertRowid), uuid, name, kind: 'human' } };
  });
}
