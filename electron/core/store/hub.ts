// A project's link to a team hub (migration 0008 hub_link) and what the sync reads and moves here: the
// hub address (never a password), the hub's project id, and the watermarks.
//
// "Own" revisions, the ones this machine pushes: label rows SAVED HERE, i.e. label.import_id IS NULL
// (every merged revision, from a labels file or from the hub, carries the id of its merge record, so
// nothing that arrived from elsewhere is ever pushed back as ours), by an annotator of kind 'human'
// (model pre-labels and a file's 'source' labels travel with the published items, not as revisions), on
// the project's items. Local saves take the next label.seq in commit order (one writer), and an own row
// is never deleted while the project lives, so the push watermark is the seq of the last own row the hub
// committed: any own row saved later has a larger seq and is never missed. The watermark is only ever
// set to the seq of an own row (never to a merged row's seq, which a removed merge could free for reuse).
import { createHash } from 'node:crypto';
import { DEFAULT_PROJECT_SETTINGS, type LabelRevision, type ProjectSettings } from '../../../shared/domain';
import { canonicalJson, type Criterion } from '../../../shared/rubric';
import type { Db } from './db';
import { placeGuidelinesRevision, placeRubricVersion, placeSegmentation, pulledCutProblem, type GuidelinesRevisionRow } from './hubProject';
import { LABEL_COLUMNS, toRevision, type LabelRow } from './labels';
import { writeNow } from './write';

export interface HubLink {
  projectId: number;
  url: string;
  hubProjectId: number;
  joinedAt: string;
  pulledSeq: number;
  pushedLabelSeq: number;
  pulledSegmentationSeq: number;
  pushedSegmentationId: number;
  /** The hub's item_line.seq read up to (join, then sync); null on a link made before migration 0010. */
  pulledItemSeq: number | null;
  /** The settings and rubric in force as this desktop and the hub last agreed on them (teamSettingsHash), or null. */
  settingsHash: string | null;
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
  pulled_segmentation_seq: number;
  pushed_segmentation_id: number;
  pulled_item_seq: number | null;
  settings_hash: string | null;
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
  pulledSegmentationSeq: r.pulled_segmentation_seq,
  pushedSegmentationId: r.pushed_segmentation_id,
  pulledItemSeq: r.pulled_item_seq,
  settingsHash: r.settings_hash,
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
    const before = hubLink(db, projectId);
    if (before && before.url === url && before.hubProjectId === hubProjectId) {
      db.prepare('UPDATE hub_link SET joined_at = ?, last_error = NULL WHERE project_id = ?').run(at, projectId);
    } else {
      // Another hub, or another project on it: a new link, every mark at its start (what was deferred or
      // held for the old one goes with it: ON DELETE CASCADE).
      db.prepare('DELETE FROM hub_link WHERE project_id = ?').run(projectId);
      db.prepare('INSERT INTO hub_link (project_id, url, hub_project_id, joined_at) VALUES (?, ?, ?, ?)').run(projectId, url, hubProjectId, at);
    }
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
 * Moves the pull watermark to hub_seq `seq` (everything up to it merged here, or deferred), never back,
 * and in the same transaction notes the revisions of the batch that could not merge yet (hub_deferred),
 * while fewer than `cap` wait: the rest are dropped, and returned (how many, and the first one's reason).
 */
export function setPulledSeq(db: Db, projectId: number, seq: number, deferred: { hubSeq: number; reason: string }[] = [], cap = Infinity): { dropped: number; first: string | null } {
  const defer = db.prepare('INSERT INTO hub_deferred (project_id, hub_seq, reason, deferred_at) VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET reason = excluded.reason');
  return writeNow(db, () => {
    const room = deferred.length ? Math.max(0, cap - deferredCount(db, projectId)) : 0;
    const now = new Date().toISOString();
    for (const d of deferred.slice(0, room)) defer.run(projectId, d.hubSeq, d.reason, now);
    db.prepare('UPDATE hub_link SET pulled_seq = ? WHERE project_id = ? AND pulled_seq < ?').run(seq, projectId, seq);
    const dropped = deferred.slice(room);
    return { dropped: dropped.length, first: dropped[0]?.reason ?? null };
  });
}

/** Drops the deferred revisions set aside before `before` (an ISO time); how many, and the first one's reason. */
export function dropDeferredBefore(db: Db, projectId: number, before: string): { dropped: number; first: string | null } {
  return writeNow(db, () => {
    const first = db.prepare('SELECT reason FROM hub_deferred WHERE project_id = ? AND deferred_at < ? ORDER BY hub_seq LIMIT 1').pluck().get(projectId, before) as string | undefined;
    if (first === undefined) return { dropped: 0, first: null };
    return { dropped: db.prepare('DELETE FROM hub_deferred WHERE project_id = ? AND deferred_at < ?').run(projectId, before).changes, first };
  });
}

/** The hub's item_line.seq that the project's item lines were read up to (join, sync). Never back. */
export function setPulledItemSeq(db: Db, projectId: number, seq: number): void {
  writeNow(db, () => {
    db.prepare('UPDATE hub_link SET pulled_item_seq = ? WHERE project_id = ? AND (pulled_item_seq IS NULL OR pulled_item_seq < ?)').run(seq, projectId, seq);
  });
}

/** The project's settings and the rubric in force: what a team shares (the lead's call). */
export interface TeamSettings {
  settings: ProjectSettings;
  inForce: string | null;
}

/** Team settings from stored settings (the defaults where a key is missing, as every side reads them) and the rubric in force. */
export function teamSettings(settings: Partial<ProjectSettings> | null, inForce: string | null): TeamSettings {
  return { settings: { ...DEFAULT_PROJECT_SETTINGS, ...(settings ?? {}) }, inForce };
}

export function teamSettingsOf(db: Db, projectId: number): TeamSettings {
  const row = db.prepare('SELECT settings, rubric FROM project WHERE id = ?').get(projectId) as { settings: string; rubric: string | null };
  return teamSettings(JSON.parse(row.settings) as Partial<ProjectSettings>, row.rubric);
}

/** What tells two sides' team settings apart: sha256 of their canonical JSON. */
export function teamSettingsHash(team: TeamSettings): string {
  return createHash('sha256').update(canonicalJson({ settings: team.settings, inForce: team.inForce })).digest('hex');
}

/** Notes the team settings this desktop and the hub agree on (after a sync sent or took them, or found them the same). */
export function agreeTeamSettings(db: Db, projectId: number, hash: string): void {
  writeNow(db, () => db.prepare('UPDATE hub_link SET settings_hash = ? WHERE project_id = ?').run(hash, projectId));
}

/**
 * Takes the hub's team settings here, and notes them as agreed, in one short write; only over the
 * settings whose hash is `over` (what the sync read): a change made here meanwhile is kept. Whether it took them.
 */
export function adoptTeamSettings(db: Db, projectId: number, team: TeamSettings, over: string): boolean {
  return writeNow(db, () => {
    if (teamSettingsHash(teamSettingsOf(db, projectId)) !== over) return false;
    db.prepare('UPDATE project SET settings = ?, rubric = ? WHERE id = ?').run(JSON.stringify(team.settings), team.inForce, projectId);
    db.prepare('UPDATE hub_link SET settings_hash = ? WHERE project_id = ?').run(teamSettingsHash(team), projectId);
    return true;
  });
}

/** The watermarks of segmentations: the hub's segmentation.hub_seq pulled, the local id offered. Never back. */
export function setSegmentationWatermarks(db: Db, projectId: number, marks: { pulledSeq?: number; pushedId?: number }): void {
  writeNow(db, () => {
    if (marks.pulledSeq !== undefined)
      db.prepare('UPDATE hub_link SET pulled_segmentation_seq = ? WHERE project_id = ? AND pulled_segmentation_seq < ?').run(marks.pulledSeq, projectId, marks.pulledSeq);
    if (marks.pushedId !== undefined)
      db.prepare('UPDATE hub_link SET pushed_segmentation_id = ? WHERE project_id = ? AND pushed_segmentation_id < ?').run(marks.pushedId, projectId, marks.pushedId);
  });
}

/** Deferred revisions (hub_seq and why), oldest first, after `after`, at most `limit`. */
export function deferredRevisions(db: Db, projectId: number, after: number, limit: number): { hubSeq: number; reason: string }[] {
  return (db.prepare('SELECT hub_seq, reason FROM hub_deferred WHERE project_id = ? AND hub_seq > ? ORDER BY hub_seq LIMIT ?').all(projectId, after, limit) as { hub_seq: number; reason: string }[]).map(
    (r) => ({ hubSeq: r.hub_seq, reason: r.reason }),
  );
}

export function deferredCount(db: Db, projectId: number): number {
  return db.prepare('SELECT COUNT(*) FROM hub_deferred WHERE project_id = ?').pluck().get(projectId) as number;
}

/** Forgets deferred revisions that merged (or were stored here already); notes a new reason for the rest. */
export function settleDeferred(db: Db, projectId: number, merged: number[], still: { hubSeq: number; reason: string }[]): void {
  const remove = db.prepare('DELETE FROM hub_deferred WHERE project_id = ? AND hub_seq = ?');
  const update = db.prepare('UPDATE hub_deferred SET reason = ? WHERE project_id = ? AND hub_seq = ? AND reason IS NOT ?');
  writeNow(db, () => {
    for (const seq of merged) remove.run(projectId, seq);
    for (const d of still) update.run(d.reason, projectId, d.hubSeq, d.reason);
  });
}

/** Which of these revision ids are stored here already (merged or saved, shown or not). */
export function knownLabelIds(db: Db, ids: string[]): Set<string> {
  if (ids.length === 0) return new Set();
  const rows = db.prepare('SELECT id FROM label WHERE id IN (SELECT value FROM json_each(?))').pluck().all(JSON.stringify(ids)) as string[];
  return new Set(rows);
}

/** Notes how a sync ended: its time, and the error as a sentence (null after a good one). */
export function recordSyncOutcome(db: Db, projectId: number, error: string | null, at = new Date().toISOString()): void {
  writeNow(db, () => db.prepare('UPDATE hub_link SET last_sync_at = ?, last_error = ? WHERE project_id = ?').run(at, error, projectId));
}

/** An own revision, with what the labels format needs (encodeLabel) and its local seq. */
export type OwnRevision = LabelRevision & { seq: number; itemExternalId: string | null; itemUid: string };

/**
 * The project's own revisions (see the top of this file) with label.seq > `after`, in seq order, at most
 * `limit`: one short read along the index of revisions saved here (label_saved_here, migration 0008),
 * never past the revisions merges brought in (CROSS JOIN keeps SQLite on that index, label first).
 */
export function ownRevisionsAfter(db: Db, projectId: number, after: number, limit: number): OwnRevision[] {
  const rows = db
    .prepare(
      `SELECT ${OWN_REVISION_COLUMNS}
       FROM label l CROSS JOIN item i ON i.id = l.item_id CROSS JOIN annotator a ON a.id = l.annotator_id
       WHERE l.seq > ? AND l.import_id IS NULL AND a.kind = 'human' AND i.project_id = ?
       ORDER BY l.seq LIMIT ?`,
    )
    .all(after, projectId, limit) as OwnRevisionRow[];
  return rows.map(toOwnRevision);
}

/** What an own revision is read with: label l, item i, annotator a. */
export const OWN_REVISION_COLUMNS = `l.seq, ${LABEL_COLUMNS}, i.external_id, i.uid`;

export type OwnRevisionRow = LabelRow & { seq: number; external_id: string | null; uid: string };

export const toOwnRevision = (r: OwnRevisionRow): OwnRevision => ({ ...toRevision(r), seq: r.seq, itemExternalId: r.external_id, itemUid: r.uid });

/** How many own revisions wait to go up: those above the push watermark, and those held (hubHeld.ts). */
export function ownRevisionsWaiting(db: Db, projectId: number): number {
  const link = hubLink(db, projectId);
  const after = db
    .prepare(
      `SELECT COUNT(*) FROM label l CROSS JOIN item i ON i.id = l.item_id CROSS JOIN annotator a ON a.id = l.annotator_id
       WHERE l.seq > ? AND l.import_id IS NULL AND a.kind = 'human' AND i.project_id = ?`,
    )
    .pluck()
    .get(link?.pushedLabelSeq ?? 0, projectId) as number;
  const held = db.prepare('SELECT COUNT(*) FROM hub_held WHERE project_id = ?').pluck().get(projectId) as number;
  return after + held;
}

/** A version of a response's steps as the hub keeps it (by item uid and response index). */
export interface HubSegmentation {
  itemUid: string;
  response: number;
  version: number;
  steps: string[];
  origin: 'file' | 'auto' | 'annotator';
  createdAt: string;
}

/**
 * Cuts made by annotators (a split or a merge: origin 'annotator') on the project's items with a local
 * segmentation.id > `after`, oldest first, at most `limit`. Version 1 (the file's own, or Arbiter's rule)
 * is the same on every machine and never travels.
 */
export function annotatorSegmentationsAfter(db: Db, projectId: number, after: number, limit: number): (HubSegmentation & { id: number })[] {
  const rows = db
    .prepare(
      `SELECT s.id, i.uid, s.response_idx, s.version, s.steps, s.origin, s.created_at FROM segmentation s JOIN item i ON i.id = s.item_id
       WHERE s.id > ? AND s.origin = 'annotator' AND i.project_id = ? ORDER BY s.id LIMIT ?`,
    )
    .all(after, projectId, limit) as { id: number; uid: string; response_idx: number; version: number; steps: string; origin: HubSegmentation['origin']; created_at: string }[];
  return rows.map((r) => ({ id: r.id, itemUid: r.uid, response: r.response_idx, version: r.version, steps: JSON.parse(r.steps) as string[], origin: r.origin, createdAt: r.created_at }));
}

/** A cut as a sync reads it from the hub: its steps as parsed (unchecked), and whether a lead (or the hub's owner) pushed it. */
export type PulledSegmentation = Omit<HubSegmentation, 'steps'> & { steps: unknown; byLead: boolean };

/**
 * Stores segmentations pulled from the hub under their own version numbers (a step label names the
 * version it rated), in one short write (hubProject.ts placeSegmentation, as join does). Each is checked
 * first (hubProject.ts pulledCutProblem): one refused is counted, with why, and never stored. A version already
 * here with the same steps adds nothing; one here with other steps (two machines numbered their own cuts
 * alike) is kept as it is and counted as a conflict; an item this project lacks is counted as unmatched.
 */
export function adoptSegmentations(db: Db, projectId: number, rows: PulledSegmentation[]): { added: number; same: number; conflicts: number; unmatched: number; refused: string[] } {
  const item = db.prepare('SELECT id FROM item WHERE project_id = ? AND uid = ?').pluck();
  const responses = db.prepare('SELECT 1 FROM response WHERE item_id = ? AND idx = ?');
  const out = { added: 0, same: 0, conflicts: 0, unmatched: 0, refused: [] as string[] };
  writeNow(db, () => {
    for (const r of rows) {
      const itemId = item.get(projectId, r.itemUid) as number | undefined;
      if (itemId === undefined || !responses.get(itemId, r.response)) {
        out.unmatched++;
        continue;
      }
      const problem = pulledCutProblem(db, itemId, r);
      if (problem) {
        out.refused.push(problem);
        continue;
      }
      const placed = placeSegmentation(db, itemId, { response: r.response, version: r.version, steps: JSON.stringify(r.steps), origin: r.origin, createdAt: r.createdAt });
      if (placed === 'added') out.added++;
      else if (placed === 'kept') out.same++;
      else out.conflicts++;
    }
  });
  return out;
}

/** A project rubric's version as the hub keeps it (items' own criteria travel with the items). */
export interface HubRubricVersion {
  name: string;
  version: number;
  criteria: unknown[];
}

/** Every version of the project's rubrics (not items' own criteria), by name and version. */
export function projectRubricVersions(db: Db, projectId: number): (HubRubricVersion & { hash: string })[] {
  const rows = db
    .prepare(
      `SELECT r.name, v.version, v.criteria, v.hash FROM rubric_version v JOIN rubric r ON r.id = v.rubric_id
       WHERE r.project_id = ? AND r.name NOT LIKE 'item/%' ORDER BY r.name, v.version`,
    )
    .all(projectId) as { name: string; version: number; criteria: string; hash: string }[];
  return rows.map((r) => ({ name: r.name, version: r.version, criteria: JSON.parse(r.criteria) as unknown[], hash: r.hash }));
}

/**
 * Stores rubric versions published on the hub under their own numbers (a rating names its version), in
 * one short write (hubProject.ts placeRubricVersion, as join does). A version here with other criteria is
 * kept (versions are immutable) and counted as a conflict.
 */
export function adoptRubricVersions(db: Db, projectId: number, rows: HubRubricVersion[]): { added: number; conflicts: number } {
  const out = { added: 0, conflicts: 0 };
  if (rows.length === 0) return out;
  const now = new Date().toISOString();
  writeNow(db, () => {
    for (const r of rows) {
      const placed = placeRubricVersion(db, projectId, { name: r.name, version: r.version, criteria: r.criteria as Criterion[], createdAt: now });
      if (placed === 'added') out.added++;
      else if (placed === 'conflict') out.conflicts++;
    }
  });
  return out;
}

/**
 * Stores guidelines revisions from the hub under their own numbers, in one short write; the newest
 * revision becomes the text people read (hubProject.ts placeGuidelinesRevision, as join does). A number
 * here with another text is kept as it is and counted as a conflict.
 */
export function adoptGuidelines(db: Db, projectId: number, rows: GuidelinesRevisionRow[]): { added: number; conflicts: number } {
  const out = { added: 0, conflicts: 0 };
  if (rows.length === 0) return out;
  writeNow(db, () => {
    for (const g of rows) {
      const placed = placeGuidelinesRevision(db, projectId, g);
      if (placed === 'added') out.added++;
      else if (placed === 'conflict') out.conflicts++;
    }
  });
  return out;
}
