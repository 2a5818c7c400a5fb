// What travels with the revisions in a sync: rubric versions (a rating names its version, so they go
// before the revisions on both sides), annotators' cuts of a response into steps (a step label names
// the segmentation version it rated), and the lead's guidelines revisions (a lead who edits the
// guidelines after publishing reaches every desktop at its next sync; the newest revision is the text
// people read), and the lead's project settings and rubric in force. PostgreSQL SQL only; SQLite work
// goes through store/hub.ts.
import type pg from 'pg';
import type { ProjectSettings } from '../../../shared/domain';
import { responseLetter } from '../../../shared/letters';
import type { Criterion } from '../../../shared/rubric';
import type { Db } from '../store/db';
import { adoptGuidelines, adoptRubricVersions, adoptSegmentations, adoptTeamSettings, agreeTeamSettings, teamSettings, teamSettingsHash, teamSettingsOf, annotatorSegmentationsAfter, projectRubricVersions, setSegmentationWatermarks, type HubLink, type PulledSegmentation } from '../store/hub';
import { guidelinesRevisionsOf } from '../store/hubProject';
import { criteriaHash } from '../store/rubrics';
import { formatBytes, limit } from '../base/limits';
import { checkedRubricVersion, checkedSettings } from './pullChecks';
import type { Refusals } from './refusals';

type Client = Pick<pg.ClientBase, 'query'>;

export interface PartCounts {
  pushed: number;
  pulled: number;
  /** The same number holding other content on the two sides: each side keeps its own (never overwritten). */
  conflicts: number;
}

/** Counts of what is checked as it comes down (rubric versions, cuts). */
export interface CheckedCounts extends PartCounts {
  /** Rows on the hub this desktop refused (they fail the checks a save here passes): left out, said in the summary's `refused`. */
  refused: number;
}

export const noCounts = (): PartCounts => ({ pushed: 0, pulled: 0, conflicts: 0 });
export const noCheckedCounts = (): CheckedCounts => ({ ...noCounts(), refused: 0 });

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

/** Every rubric version published on the hub that this project lacks, under its own number; one that fails saveRubric's checks is refused. */
export async function pullRubricVersions(db: Db, client: Client, link: HubLink, counts: CheckedCounts, refusals: Refusals): Promise<void> {
  const { rows } = await client.query<{ name: string; version: number; criteria: string }>(
    `SELECT name, version, criteria::text AS criteria FROM arbiter.rubric_version WHERE project_id = $1 AND name NOT LIKE 'item/%' ORDER BY name, version`,
    [link.hubProjectId],
  );
  if (rows.length === 0) return;
  const here = new Map(projectRubricVersions(db, link.projectId).map((v) => [`${v.name}\u0000${v.version}`, v.hash]));
  const hub: { name: string; version: number; criteria: Criterion[]; hash: string }[] = [];
  for (const r of rows) {
    const checked = checkedRubricVersion(r.name, r.version, JSON.parse(r.criteria));
    if (!checked.ok) {
      counts.refused++;
      refusals.note('rubricVersion', checked.problem);
      continue;
    }
    hub.push({ name: r.name, version: r.version, criteria: checked.criteria, hash: criteriaHash(checked.criteria) });
  }
  const missing = hub.filter((v) => here.get(`${v.name}\u0000${v.version}`) !== v.hash);
  const result = adoptRubricVersions(db, link.projectId, missing);
  counts.pulled += result.added;
  counts.conflicts += result.conflicts;
}

/** Annotators' cuts made (or adopted) here since the last push, in bounded batches. */
export async function pushSegmentations(db: Db, client: Client, link: HubLink, batch: number, counts: PartCounts, between: () => Promise<void>): Promise<void> {
  let after = link.pushedSegmentationId;
  // The hub takes a cut only for an item it holds (schema 3): a cut of an item only this desktop has is left
  // out, and the push mark stops before the first such cut, so it goes up at a sync after a lead publishes
  // the item (the cuts after it are offered again meanwhile; the hub keeps the first copy).
  let waitingFrom: number | null = null;
  for (;;) {
    const rows = annotatorSegmentationsAfter(db, link.projectId, after, batch);
    if (rows.length === 0) return;
    const uids = [...new Set(rows.map((r) => r.itemUid))];
    const onHub = new Set((await client.query<{ uid: string }>('SELECT uid FROM arbiter.item_line WHERE project_id = $1 AND uid = ANY($2::text[])', [link.hubProjectId, uids])).rows.map((r) => r.uid));
    const payload = rows
      .filter((r) => onHub.has(r.itemUid))
      .map((r) => ({ item_uid: r.itemUid, response: r.response, version: r.version, steps: r.steps, origin: r.origin, created_at: r.createdAt }));
    if (payload.length) {
      const result = await client.query(
        `INSERT INTO arbiter.segmentation (project_id, item_uid, response, version, steps, origin, created_at)
         SELECT $1, s->>'item_uid', (s->>'response')::int, (s->>'version')::int, s->'steps', s->>'origin', (s->>'created_at')::timestamptz
         FROM jsonb_array_elements($2::jsonb) s
         ON CONFLICT (project_id, item_uid, response, version) DO NOTHING`,
        [link.hubProjectId, JSON.stringify(payload)],
      );
      counts.pushed += result.rowCount ?? 0;
    }
    const firstWaiting = rows.find((r) => !onHub.has(r.itemUid));
    if (firstWaiting && waitingFrom === null) waitingFrom = firstWaiting.id;
    after = rows[rows.length - 1]!.id;
    setSegmentationWatermarks(db, link.projectId, { pushedId: waitingFrom === null ? after : Math.min(after, waitingFrom - 1) });
    await between();
  }
}

/** A cut as read from the hub: its steps parsed (null when longer than a record may be: never read), and whether a lead pushed it. */
export type HubCut = Omit<PulledSegmentation, 'steps'> & { hubSeq: number; steps: unknown; bytes: number };

/**
 * Cuts after hub_seq `after`, at most `rows` and no more steps text than hubPullBatchBytes (at least
 * one cut: the caller reads on from the last one). A cut's steps longer than a labels line may be
 * (recordMaxBytes) are left on the hub (steps null, `bytes` says how long). byLead: pushed by a lead's
 * login role or by the hub's owner (a member of the role that owns the table), who may place the file's
 * own steps and Arbiter's.
 */
export async function readCuts(client: Client, hubProjectId: number, after: number, rows: number): Promise<HubCut[]> {
  const result = await client.query<{ hub_seq: string; item_uid: string; response: number; version: number; bytes: number; steps: string | null; origin: 'file' | 'auto' | 'annotator'; created_at: Date; by_lead: boolean }>(
    `SELECT g.hub_seq, g.item_uid, g.response, g.version, g.origin, g.created_at, s.bytes, CASE WHEN s.bytes <= $4 THEN g.steps::text END AS steps,
            (EXISTS (SELECT 1 FROM arbiter.annotator a WHERE a.pg_role = g.pushed_by AND a.role = 'lead')
             OR EXISTS (SELECT 1 FROM pg_roles o WHERE o.rolname = g.pushed_by
                          AND pg_has_role(o.oid, (SELECT c.relowner FROM pg_class c WHERE c.oid = 'arbiter.segmentation'::regclass), 'MEMBER'))) AS by_lead
     FROM (SELECT hub_seq, bytes, sum(CASE WHEN bytes <= $4 THEN bytes ELSE 0 END) OVER (ORDER BY hub_seq) AS upto
           FROM (SELECT hub_seq, octet_length(steps::text) AS bytes FROM arbiter.segmentation WHERE project_id = $1 AND hub_seq > $2 ORDER BY hub_seq LIMIT $3) x) s
     JOIN arbiter.segmentation g ON g.hub_seq = s.hub_seq
     WHERE s.upto - CASE WHEN s.bytes <= $4 THEN s.bytes ELSE 0 END < $5
     ORDER BY s.hub_seq`,
    [hubProjectId, after, rows, limit('recordMaxBytes'), limit('hubPullBatchBytes')],
  );
  return result.rows.map((r) => ({
    hubSeq: Number(r.hub_seq),
    itemUid: r.item_uid,
    response: r.response,
    version: r.version,
    steps: r.steps === null ? null : (JSON.parse(r.steps) as unknown),
    bytes: r.bytes,
    origin: r.origin,
    byLead: r.by_lead,
    createdAt: r.created_at.toISOString(),
  }));
}

/** Why a cut read from the hub is refused before anything reads its steps (too long), or null. */
export function unreadCutProblem(cut: HubCut): string | null {
  return cut.steps === null ? `version ${cut.version} of the steps of response ${responseLetter(cut.response)} of item ${cut.itemUid}: ${formatBytes(cut.bytes)}, longer than ${formatBytes(limit('recordMaxBytes'))}` : null;
}

/** Cuts pushed by others since the last pull, in bounded batches, each stored in one short write; one that is not a cut of its response, or a file or auto cut not by a lead, is refused. */
export async function pullSegmentations(db: Db, client: Client, link: HubLink, batch: number, counts: CheckedCounts, refusals: Refusals, between: () => Promise<void>): Promise<void> {
  let after = link.pulledSegmentationSeq;
  for (;;) {
    const rows = await readCuts(client, link.hubProjectId, after, batch);
    if (rows.length === 0) return;
    const readable: HubCut[] = [];
    for (const cut of rows) {
      const problem = unreadCutProblem(cut);
      if (problem) {
        counts.refused++;
        refusals.note('cut', problem);
      } else readable.push(cut);
    }
    const result = adoptSegmentations(db, link.projectId, readable);
    counts.pulled += result.added;
    counts.conflicts += result.conflicts;
    counts.refused += result.refused.length;
    refusals.note('cut', result.refused[0] ?? '', result.refused.length);
    after = rows[rows.length - 1]!.hubSeq;
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
export async function syncTeamSettings(db: Db, client: Client, link: HubLink, lead: boolean, refusals: Refusals): Promise<'sent' | 'taken' | 'same' | 'refused'> {
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
    // The hub's are checked as updateProjectSettings checks a change, and the rubric in force must be one
    // this desktop took (pullRubricVersions refuses malformed versions): else this desktop keeps its own,
    // says so, and a lead's sends its own.
    const checked = checkedSettings(row.settings ?? {});
    let problem = checked.ok ? null : checked.problem;
    if (problem === null && row.in_force !== null && !projectRubricVersions(db, link.projectId).some((v) => v.name === row.in_force))
      problem = `the rubric in force, "${row.in_force}", has no version this desktop took`;
    if (problem !== null) refusals.note('settings', problem);
    const hub = teamSettings(checked.ok ? checked.value : null, row.in_force);
    const here = teamSettingsOf(db, link.projectId);
    const [hubHash, hereHash] = [teamSettingsHash(hub), teamSettingsHash(here)];
    const agreed = link.settingsHash ?? hubHash;
    if (problem !== null && !lead) {
      await client.query('COMMIT');
      return 'refused';
    }
    // (Bad settings on the hub may read as this desktop's once the defaults fill in: a lead sends its own anyway.)
    if (lead && (problem !== null || (hubHash !== hereHash && hereHash !== agreed))) {
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
