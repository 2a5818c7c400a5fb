// What travels with the revisions in a sync: rubric versions (a rating names its version, so they go
// before the revisions on both sides), annotators' cuts of a response into steps (a step label names
// the segmentation version it rated), and the lead's guidelines revisions (a lead who edits the
// guidelines after publishing reaches every desktop at its next sync; the newest revision is the text
// people read), and the lead's project settings and rubric in force. PostgreSQL SQL only; SQLite work
// goes through store/hub.ts.
import type pg from 'pg';
import type { ProjectSettings } from '../../../shared/domain';
import type { Criterion } from '../../../shared/rubric';
import type { Db } from '../store/db';
import { adoptGuidelines, adoptRubricVersions, adoptSegmentations, adoptTeamSettings, agreeTeamSettings, teamSettings, teamSettingsHash, teamSettingsOf, annotatorSegmentationsAfter, projectRubricVersions, setSegmentationWatermarks, type HubLink } from '../store/hub';
import { guidelinesRevisionsOf } from '../store/hubProject';
import { criteriaHash } from '../store/rubrics';

type Client = Pick<pg.ClientBase, 'query'>;

export interface PartCounts {
  pushed: number;
  pulled: number;
  /** The same number holding other content on the two sides: each side keeps its own (never overwritten). */
  conflicts: number;
}

export const noCounts = (): PartCounts => ({ pushed: 0, pulled: 0, conflicts: 0 });

/** A lead offers the project rubrics' versions the hub lacks (the policy lets only leads publish). */
export async function pushRubricVersions(db: Db, client: Client, link: HubLink, counts: PartCounts): Promise<void> {
  const local = projectRubricVersions(db, link.projectId);
  if (local.length === 0) return;
  const rows = local.map((v) => ({ name: v.name, version: v.version, criteria: v.criteria }));
  // A new version is in force where its rubric is on the hub; which rubric is in force is syncTeamSettings'
  // to send (this desktop's may be older than another lead's).
  const result = await client.query(
    `INSERT INTO arbiter.rubric_version (project_id, name, version, criteria, in_force)
     SELECT $1, r->>'name', (r->>'version')::int, r->'criteria',
            coalesce((SELECT bool_or(o.in_force) FROM arbiter.rubric_version o WHERE o.project_id = $1 AND o.name = r->>'name'), false)
     FROM jsonb_array_elements($2::jsonb) r
     ON CONFLICT (project_id, name, version) DO NOTHING`,
    [link.hubProjectId, JSON.stringify(rows)],
  );
  counts.pushed += result.rowCount ?? 0;
}

/** Every rubric version published on the hub that this project lacks, under its own number. */
export async function pullRubricVersions(db: Db, client: Client, link: HubLink, counts: PartCounts): Promise<void> {
  const { rows } = await client.query<{ name: string; version: number; criteria: string }>(
    `SELECT name, version, criteria::text AS criteria FROM arbiter.rubric_version WHERE project_id = $1 AND name NOT LIKE 'item/%' ORDER BY name, version`,
    [link.hubProjectId],
  );
  if (rows.length === 0) return;
  const here = new Map(projectRubricVersions(db, link.projectId).map((v) => [`${v.name}\u0000${v.version}`, v.hash]));
  const hub = rows.map((r) => {
    const criteria = JSON.parse(r.criteria) as Criterion[];
    return { name: r.name, version: r.version, criteria, hash: criteriaHash(criteria) };
  });
  const missing = hub.filter((v) => here.get(`${v.name}\u0000${v.version}`) !== v.hash);
  const result = adoptRubricVersions(db, link.projectId, missing);
  counts.pulled += result.added;
  counts.conflicts += result.conflicts;
}

/** Annotators' cuts made (or adopted) here since the last push, in bounded batches. */
export async function pushSegmentations(db: Db, client: Client, link: HubLink, batch: number, counts: PartCounts, between: () => Promise<void>): Promise<void> {
  let after = link.pushedSegmentationId;
  for (;;) {
    const rows = annotatorSegmentationsAfter(db, link.projectId, after, batch);
    if (rows.length === 0) return;
    const payload = rows.map((r) => ({ item_uid: r.itemUid, response: r.response, version: r.version, steps: r.steps, origin: r.origin, created_at: r.createdAt }));
    const result = await client.query(
      `INSERT INTO arbiter.segmentation (project_id, item_uid, response, version, steps, origin, created_at)
       SELECT $1, s->>'item_uid', (s->>'response')::int, (s->>'version')::int, s->'steps', s->>'origin', (s->>'created_at')::timestamptz
       FROM jsonb_array_elements($2::jsonb) s
       ON CONFLICT (project_id, item_uid, response, version) DO NOTHING`,
      [link.hubProjectId, JSON.stringify(payload)],
    );
    counts.pushed += result.rowCount ?? 0;
    after = rows[rows.length - 1]!.id;
    setSegmentationWatermarks(db, link.projectId, { pushedId: after });
    await between();
  }
}

/** Cuts pushed by others since the last pull, in bounded batches, each stored in one short write. */
export async function pullSegmentations(db: Db, client: Client, link: HubLink, batch: number, counts: PartCounts, between: () => Promise<void>): Promise<void> {
  let after = link.pulledSegmentationSeq;
  for (;;) {
    const { rows } = await client.query<{ hub_seq: string; item_uid: string; response: number; version: number; steps: string; origin: 'file' | 'auto' | 'annotator'; created_at: Date }>(
      `SELECT hub_seq, item_uid, response, version, steps::text AS steps, origin, created_at FROM arbiter.segmentation
       WHERE project_id = $1 AND hub_seq > $2 ORDER BY hub_seq LIMIT $3`,
      [link.hubProjectId, after, batch],
    );
    if (rows.length === 0) return;
    const result = adoptSegmentations(
      db,
      link.projectId,
      rows.map((r) => ({ itemUid: r.item_uid, response: r.response, version: r.version, steps: JSON.parse(r.steps) as string[], origin: r.origin, createdAt: r.created_at.toISOString() })),
    );
    counts.pulled += result.added;
    counts.conflicts += result.conflicts;
    after = Number(rows[rows.length - 1]!.hub_seq);
    setSegmentationWatermarks(db, link.projectId, { pulledSeq: after });
    await between();
  }
}

/** A lead offers the guidelines revisions the hub lacks (the policy lets only leads write guidelines). */
export async function pushGuidelines(db: Db, client: Client, link: HubLink, counts: PartCounts): Promise<void> {
  const local = guidelinesRevisionsOf(db, link.projectId);
  if (local.length === 0) return;
  const result = await client.query(
    `INSERT INTO arbiter.guidelines (project_id, revision, text, author, created_at)
     SELECT $1, (g->>'revision')::int, g->>'text', g->>'author', (g->>'createdAt')::timestamptz FROM jsonb_array_elements($2::jsonb) g
     ON CONFLICT (project_id, revision) DO NOTHING`,
    [link.hubProjectId, JSON.stringify(local)],
  );
  counts.pushed += result.rowCount ?? 0;
}

/**
 * Every guidelines revision on the hub that this project lacks, under its own number; the newest becomes
 * the current text. Revision 0 (a text published with no revision) came down with join and is not read again.
 */
export async function pullGuidelines(db: Db, client: Client, link: HubLink, counts: PartCounts): Promise<void> {
  const { rows } = await client.query<{ revision: number; text: string; author: string | null; created_at: Date }>(
    'SELECT revision, text, author, created_at FROM arbiter.guidelines WHERE project_id = $1 AND revision > 0 ORDER BY revision',
    [link.hubProjectId],
  );
  if (rows.length === 0) return;
  const here = new Map(guidelinesRevisionsOf(db, link.projectId).map((g) => [g.revision, g.text]));
  const missing = rows.filter((r) => here.get(r.revision) !== r.text).map((r) => ({ revision: r.revision, text: r.text, author: r.author, createdAt: r.created_at.toISOString() }));
  const result = adoptGuidelines(db, link.projectId, missing);
  counts.pulled += result.added;
  counts.conflicts += result.conflicts;
}

/** Puts rubric `name` in force on the hub (every version row of it says so, no other does), or none. */
export async function setHubRubricInForce(client: Client, hubProjectId: number, name: string | null): Promise<void> {
  await client.query('UPDATE arbiter.rubric_version SET in_force = (name IS NOT DISTINCT FROM $2) WHERE project_id = $1 AND in_force IS DISTINCT FROM (name IS NOT DISTINCT FROM $2)', [hubProjectId, name]);
}

/**
 * The project's settings (overlap, team, order, prelabels, segmentation, error tags) and the rubric in
 * force are the team's, and the lead's call: a lead's sync sends its own where they changed here since
 * this desktop and the hub last agreed (link.settingsHash, set by join, publish and each sync; a link
 * from before it agrees with the hub); every other sync that finds the hub's different takes them (so
 * every desktop splits the work and orders it the same way). A lead reads and sends in one transaction
 * holding the project row, so two leads' sends take turns. Call after the rubric versions went both ways
 * (the rubric in force must be there). 'sent', 'taken' or 'same'.
 */
export async function syncTeamSettings(db: Db, client: Client, link: HubLink, lead: boolean): Promise<'sent' | 'taken' | 'same'> {
  await client.query('BEGIN');
  try {
    const row = (
      await client.query<{ settings: Partial<ProjectSettings> | null; in_force: string | null }>(
        `SELECT p.settings, (SELECT name FROM arbiter.rubric_version v WHERE v.project_id = p.id AND v.in_force ORDER BY name LIMIT 1) AS in_force
         FROM arbiter.project p WHERE p.id = $1${lead ? ' FOR UPDATE OF p' : ''}`,
        [link.hubProjectId],
      )
    ).rows[0];
    if (!row) {
      await client.query('COMMIT');
      return 'same';
    }
    const hub = teamSettings(row.settings, row.in_force);
    const here = teamSettingsOf(db, link.projectId);
    const [hubHash, hereHash] = [teamSettingsHash(hub), teamSettingsHash(here)];
    const agreed = link.settingsHash ?? hubHash;
    if (hubHash !== hereHash && lead && hereHash !== agreed) {
      await client.query('UPDATE arbiter.project SET settings = $2::jsonb WHERE id = $1', [link.hubProjectId, JSON.stringify(here.settings)]);
      await setHubRubricInForce(client, link.hubProjectId, here.inForce);
      await client.query('COMMIT');
      agreeTeamSettings(db, link.projectId, hereHash);
      return 'sent';
    }
    await client.query('COMMIT');
    if (hubHash === hereHash) {
      if (link.settingsHash !== hereHash) agreeTeamSettings(db, link.projectId, hereHash);
      return 'same';
    }
    // (A change made here meanwhile is kept: adoptTeamSettings takes the hub's only over what was read.)
    return adoptTeamSettings(db, link.projectId, hub, hereHash) ? 'taken' : 'same';
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
