// A project's link to a team hub (migration 0008 hub_link) and what the sync reads and moves here: the
// hub address (never a password), the hub's project id, and the two watermarks.
//
// "Own" revisions, the ones this machine pushes: label rows SAVED HERE, i.e. label.import_id IS NULL
// (every merged revision, from a labels file or from the hub, carries the id of its merge record, so
// nothing that arrived from elsewhere is ever pushed back as ours), by an annotator of kind 'human'
// (model pre-labels and a file's 'source' labels travel with the published items, not as revisions), on
// the project's items. Local saves take the next label.seq in commit order (one writer), and an own row
// is never deleted while the project lives, so the push watermark is the seq of the last own row the hub
// committed: any own row saved later has a larger seq and is never missed. The watermark is only ever
// set to the seq of an own row (never to a merged row's seq, which a removed merge could free for reuse).
import type { LabelRevision } from '../../../shared/domain';
import type { Db } from './db';
import { writeNow } from './write';

export interface HubLink {
  projectId: number;
  url: string;
  hubProjectId: number;
  joinedAt: string;
  pulledSeq: number;
  pushedLabelSeq: number;
  lastSyncAt: string | null;
  lastError: string | null;
}

interface LinkRow {
  project_id: number;
  url: string;
  hub_project_id: number;
  joined_at: string;
  pulled_seq: number;
  pushed_label_seq: number;
  last_sync_at: string | null;
  last_error: string | null;
}

const toLink = (r: LinkRow): HubLink => ({
  projectId: r.project_id,
  url: r.url,
  hubProjectId: r.hub_project_id,
  joinedAt: r.joined_at,
  pulledSeq: r.pulled_seq,
  pushedLabelSeq: r.pushed_label_seq,
  lastSyncAt: r.last_sync_at,
  lastError: r.last_error,
});

/**
 * Links a project to a hub (publish or join), in its own short write. Linking again to the same hub
 * project keeps the watermarks; linking to another hub or hub project starts them from 0 (a sync then
 * pushes every own revision again, which the hub's ON CONFLICT (id) DO NOTHING makes harmless).
 * `url` must hold no password (the caller strips it).
 */
export function linkProject(db: Db, projectId: number, url: string, hubProjectId: number, at = new Date().toISOString()): HubLink {
  return writeNow(db, () => {
    db.prepare(
      `INSERT INTO hub_link (project_id, url, hub_project_id, joined_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (project_id) DO UPDATE SET
         pulled_seq = CASE WHEN hub_link.url = excluded.url AND hub_link.hub_project_id = excluded.hub_project_id THEN hub_link.pulled_seq ELSE 0 END,
         pushed_label_seq = CASE WHEN hub_link.url = excluded.url AND hub_link.hub_project_id = excluded.hub_project_id THEN hub_link.pushed_label_seq ELSE 0 END,
         url = excluded.url, hub_project_id = excluded.hub_project_id, joined_at = excluded.joined_at, last_error = NULL`,
    ).run(projectId, url, hubProjectId, at);
    return hubLink(db, projectId)!;
  });
}

/** Removes a project's link (disconnect for good); its revisions stay. */
export function unlinkProject(db: Db, projectId: number): boolean {
  return writeNow(db, () => db.prepare('DELETE FROM hub_link WHERE project_id = ?').run(projectId).changes > 0);
}

export function hubLink(db: Db, projectId: number): HubLink | null {
  const row = db.prepare('SELECT * FROM hub_link WHERE project_id = ?').get(projectId) as LinkRow | undefined;
  return row ? toLink(row) : null;
}

/**
 * Moves the push watermark to `seq` (the last own revision the hub committed), never back: a sync that
 * raced another one finishing later cannot undo its progress.
 */
export function setPushedLabelSeq(db: Db, projectId: number, seq: number): void {
  writeNow(db, () => db.prepare('UPDATE hub_link SET pushed_label_seq = ? WHERE project_id = ? AND pushed_label_seq < ?').run(seq, projectId, seq));
}

/** Moves the pull watermark to hub_seq `seq` (everything up to it merged here), never back. */
export function setPulledSeq(db: Db, projectId: number, seq: number): void {
  writeNow(db, () => db.prepare('UPDATE hub_link SET pulled_seq = ? WHERE project_id = ? AND pulled_seq < ?').run(seq, projectId, seq));
}

/** Notes how a sync ended: its time, and the error as a sentence (null after a good one). */
export function recordSyncOutcome(db: Db, projectId: number, error: string | null, at = new Date().toISOString()): void {
  writeNow(db, () => db.prepare('UPDATE hub_link SET last_sync_at = ?, last_error = ? WHERE project_id = ?').run(at, error, projectId));
}

/** An own revision, with what the labels format needs (encodeLabel) and its local seq. */
export type OwnRevision = LabelRevision & { seq: number; itemExternalId: string | null; itemUid: string };

/**
 * The project's own revisions (see the top of this file) with label.seq > `after`, in seq order, at most
 * `limit`: one short read, its rows an index range of label's primary key.
 */
export function ownRevisionsAfter(db: Db, projectId: number, after: number, limit: number): OwnRevision[] {
  const rows = db
    .prepare(
      `SELECT l.seq, l.id, l.item_id, a.name AS annotator, a.uuid AS annotator_uuid, a.kind, l.task, l.created_at, l.choice,
              l.ranking, l.strength, l.shown_order, l.body, i.external_id, i.uid
       FROM label l JOIN annotator a ON a.id = l.annotator_id JOIN item i ON i.id = l.item_id
       WHERE l.seq > ? AND l.import_id IS NULL AND a.kind = 'human' AND i.project_id = ?
       ORDER BY l.seq LIMIT ?`,
    )
    .all(after, projectId, limit) as {
    seq: number;
    id: string;
    item_id: number;
    annotator: string;
    annotator_uuid: string;
    kind: LabelRevision['annotatorKind'];
    task: LabelRevision['task'];
    created_at: string;
    choice: LabelRevision['choice'];
    ranking: string | null;
    strength: LabelRevision['strength'];
    shown_order: string | null;
    body: string;
    external_id: string | null;
    uid: string;
  }[];
  return rows.map((r) => ({
    seq: r.seq,
    id: r.id,
    itemId: r.item_id,
    annotator: r.annotator,
    annotatorUuid: r.annotator_uuid,
    annotatorKind: r.kind,
    task: r.task,
    createdAt: r.created_at,
    choice: r.choice,
    ranking: r.ranking ? (JSON.parse(r.ranking) as number[][]) : null,
    strength: r.strength,
    shownOrder: r.shown_order ? (JSON.parse(r.shown_order) as number[]) : null,
    body: JSON.parse(r.body) as LabelRevision['body'],
    itemExternalId: r.external_id,
    itemUid: r.uid,
  }));
}

/** How many own revisions wait to go up (seq above the push watermark). */
export function ownRevisionsWaiting(db: Db, projectId: number): number {
  const link = hubLink(db, projectId);
  return db
    .prepare(
      `SELECT COUNT(*) FROM label l JOIN annotator a ON a.id = l.annotator_id JOIN item i ON i.id = l.item_id
       WHERE l.seq > ? AND l.import_id IS NULL AND a.kind = 'human' AND i.project_id = ?`,
    )
    .pluck()
    .get(link?.pushedLabelSeq ?? 0, projectId) as number;
}
