// Publishing a project to the team hub: in ONE hub transaction (all or nothing), the project's row and
// settings, its items as the `arbiter` items format writes them (exchange/arbiter.ts encodeArbiter, the
// writer of `arbiter export --format arbiter`) in seq order, every image they hold, rubric versions and
// which rubric is in force, guidelines revisions, items' own criteria, the segmentations made after the
// file (Arbiter's cut and people's splits and merges: every version but the file's own, which travels in
// the item line as `steps`), and the labels no person made here: the file's own preferences and judgements
// (annotator kind 'source') and models' (kind 'model'), as the exact lines the labels format writes.
// People's revisions go up with `arbiter sync`, each under its own hub role. The lead publishing takes
// the uuid the hub knows them by, as a join does (join.ts adoptHubUuid), before anything is published.
//
// Publishing again (the same project, the same hub) adds what the hub lacks and changes nothing there:
// items whose uid the hub has are skipped and new ones are appended after its last seq; images, rubric
// versions, guidelines revisions, criteria, segmentations and revisions already there are left as they
// are. The project's settings and the rubric in force are set to the publisher's current ones, unless
// this project is linked to that hub project already: then they travel by sync, which knows whose are
// newer (the summary says "same" where they were left). A rubric version or guidelines revision that the
// hub holds under the same number with other content is a conflict: nothing is published, and the
// sentence names it. Items go up with the local image store's bytes, so a join stores the same images
// and makes byte-identical items with the same uids.
import { readFileSync } from 'node:fs';
import type pg from 'pg';
import type { Content } from '../../../shared/domain';
import { imagesOf } from '../../../shared/images';
import { conflict, invalidInput } from '../base/errors';
import { encodeArbiter } from '../formats/exchange/arbiter';
import { encodeLabel } from '../formats/exchange/labels';
import { imageFile, imageStoreOf } from '../images/store';
import type { Db } from '../store/db';
import { agreeTeamSettings, hubLink, linkProject, setPulledItemSeq, teamSettingsHash } from '../store/hub';
import { setHubRubricInForce } from './syncParts';
import { fileStepsBetween, guidelinesRevisionsOf, madeSegmentations, ownCriteria, rubricVersionsOf } from '../store/hubProject';
import { iterateItems } from '../store/items';
import { iterateRevisions } from '../store/labels';
import { projectSettings, requireProject } from '../store/projects';
import { criteriaHash, rubricInForce } from '../store/rubrics';
import { readGuidelines } from '../store/guidelines';
import { canonicalJson } from '../../../shared/rubric';
import { HubError } from './connect';
import { adoptHubUuid } from './join';
import type { HubProjectCounts } from './summary';
import { whoAmI } from './roles';
import { requireHubSchema } from './schema';

type Client = Pick<pg.ClientBase, 'query'>;

export interface PublishSummary extends HubProjectCounts {
  /** Segmentation versions the hub holds under the same number with other steps (someone's cut went up first): left as they are. */
  segmentationsDiffering: number;
  /** The file's own and models' label revisions. */
  revisions: number;
  settings: 'new' | 'changed' | 'same';
  /** Whether the local project is linked to this hub project (for `arbiter sync`); false when it was linked to another. */
  linked: boolean;
}

export interface PublishOptions {
  /** host:port (or any words naming the hub) for sentences. */
  where?: string;
  /** The hub URL without password: recorded as the project's link after the publish commits. */
  url?: string;
  /** After each batch written to the hub: what was sent so far. */
  onProgress?: (what: string, count: number) => void;
}

/** Rows per multi-row INSERT, and bytes of item lines or images per statement. */
const ROWS = 1000;
const BYTES = 8 * 1024 * 1024;
/** Items read from SQLite per page (their file steps are read for the page at once). */
const PAGE = 500;

export async function publishProject(db: Db, client: Client, project: string, options: PublishOptions = {}): Promise<PublishSummary> {
  const where = options.where ?? 'the hub';
  const local = requireProject(db, project);
  await requireHubSchema(client, where);
  // The publishing lead's labels go up under the hub's uuid for them: taken here, or refused before anything is published.
  const me = await whoAmI(client);
  const annotator = me && adoptHubUuid(db, me, where, { done: 'published', again: 'publish' });
  const settings = projectSettings(local);
  const inForce = rubricInForce(db, local.id);
  const summary: PublishSummary = {
    project,
    hubProject: 0,
    created: false,
    items: 0,
    itemsOnHub: 0,
    images: 0,
    rubricVersions: 0,
    rubricInForce: inForce,
    guidelines: 0,
    criteria: 0,
    segmentations: 0,
    segmentationsDiffering: 0,
    revisions: 0,
    settings: 'same',
    linked: false,
    annotator,
  };
  // The hub's last item line, where this project holds every item the hub does (its sync reads from there).
  let pulledItemSeq: number | null = null;
  let linkedHere = false;
  await client.query('BEGIN');
  try {
    // The project row, locked for the rest of the transaction: two publishes of one project take turns.
    const made = await client.query<{ id: string }>('INSERT INTO arbiter.project (name, settings) VALUES ($1, $2::jsonb) ON CONFLICT (name) DO NOTHING RETURNING id', [project, JSON.stringify(settings)]);
    summary.created = made.rows.length === 1;
    const row = (await client.query<{ id: string; settings: unknown }>('SELECT id, settings FROM arbiter.project WHERE name = $1 FOR UPDATE', [project])).rows[0]!;
    const hubId = Number(row.id);
    summary.hubProject = hubId;
    // A project linked to this hub project already: its settings and rubric in force travel by sync, which
    // knows whose are newer (syncParts.ts syncTeamSettings); publishing again must not undo another lead's.
    const before = hubLink(db, local.id);
    linkedHere = options.url !== undefined && before !== null && before.url === options.url && before.hubProjectId === hubId;
    if (summary.created) summary.settings = 'new';
    else if (!linkedHere && canonicalJson(row.settings) !== canonicalJson(settings)) {
      await client.query('UPDATE arbiter.project SET settings = $2::jsonb WHERE id = $1', [hubId, JSON.stringify(settings)]);
      summary.settings = 'changed';
    }

    const { images, itemSeq } = await publishItems(db, client, local.id, hubId, summary, options);
    pulledItemSeq = itemSeq;
    summary.images = await publishImages(db, client, images, where, options);
    await publishRubrics(db, client, local.id, hubId, linkedHere ? undefined : inForce, summary, where);
    summary.guidelines = await publishGuidelines(db, client, local.id, hubId, where);
    await publishSegmentations(db, client, local.id, hubId, summary);
    summary.revisions = await publishFileLabels(db, client, local.id, hubId, options);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw explainPublishError(error, where, project);
  }
  // Linked after the commit: a sync needs the project on the hub. A project linked to another hub stays so.
  if (options.url !== undefined) {
    const link = hubLink(db, local.id);
    if (link === null || (link.url === options.url && link.hubProjectId === summary.hubProject)) {
      linkProject(db, local.id, options.url, summary.hubProject);
      if (pulledItemSeq !== null) setPulledItemSeq(db, local.id, pulledItemSeq);
      // What the hub holds now is this desktop's: the settings and rubric in force agreed on.
      if (!linkedHere) agreeTeamSettings(db, local.id, teamSettingsHash({ settings, inForce }));
      summary.linked = true;
    }
  }
  return summary;
}

/**
 * Items the hub lacks, as item lines in seq order. Returns every image the project's items hold (sha256 →
 * mime), and the hub's last item seq where this project now holds every item the hub does (else null).
 */
async function publishItems(db: Db, client: Client, projectId: number, hubId: number, summary: PublishSummary, options: PublishOptions): Promise<{ images: Map<string, string>; itemSeq: number | null }> {
  const onHub = new Set((await client.query<{ uid: string }>('SELECT uid FROM arbiter.item_line WHERE project_id = $1', [hubId])).rows.map((r) => r.uid));
  let seq = Number((await client.query<{ s: number | null }>('SELECT max(seq) AS s FROM arbiter.item_line WHERE project_id = $1', [hubId])).rows[0]?.s ?? 0);
  const criteria = new Map<string, string>();
  for (const c of ownCriteria(db, projectId)) criteria.set(c.itemUid, c.criteria);
  const images = new Map<string, string>();
  const noteImages = (content: Content) => {
    for (const placed of imagesOf(content, 'prompt')) if (placed.image.image) images.set(placed.image.image.sha256, placed.image.image.mime);
  };
  let batch: { seq: number; uid: string; line: string; criteria: string | null }[] = [];
  let bytes = 0;
  const flush = async () => {
    if (!batch.length) return;
    await client.query(
      `INSERT INTO arbiter.item_line (project_id, seq, uid, line, criteria)
       SELECT $1, s, u, l::json, c::json FROM unnest($2::int[], $3::text[], $4::text[], $5::text[]) AS t(s, u, l, c)`,
      [hubId, batch.map((b) => b.seq), batch.map((b) => b.uid), batch.map((b) => b.line), batch.map((b) => b.criteria)],
    );
    summary.items += batch.length;
    options.onProgress?.('items', summary.items);
    batch = [];
    bytes = 0;
  };
  let page: ReturnType<typeof iterateItems> extends Generator<infer T> ? T[] : never = [];
  const writePage = async () => {
    if (!page.length) return;
    const ids = page.map((i) => i.id);
    const steps = fileStepsBetween(db, Math.min(...ids), Math.max(...ids));
    for (const item of page) {
      noteImages(item.prompt);
      for (const r of item.responses) noteImages(r.content);
      if (onHub.has(item.uid)) continue;
      // The file's own steps go in the line (the importer makes them version 1 again); later cuts go apart.
      const responses = item.responses.map((r) => ({ ...r, steps: steps.get(`${item.id}:${r.index}`) ?? null }));
      const line = JSON.stringify(encodeArbiter({ ...item, responses }));
      batch.push({ seq: ++seq, uid: item.uid, line, criteria: criteria.get(item.uid) ?? null });
      onHub.add(item.uid);
      bytes += line.length;
      if (batch.length >= ROWS || bytes >= BYTES) await flush();
    }
    page = [];
  };
  let here = 0;
  for (const item of iterateItems(db, projectId, PAGE)) {
    here++;
    page.push(item);
    if (page.length >= PAGE) await writePage();
  }
  await writePage();
  await flush();
  summary.itemsOnHub = onHub.size;
  return { images, itemSeq: onHub.size === here ? seq : null };
}

/** Images the hub lacks, with the local store's bytes. Returns how many went up. */
async function publishImages(db: Db, client: Client, images: Map<string, string>, where: string, options: PublishOptions): Promise<number> {
  const store = imageStoreOf(db);
  const all = [...images.keys()].sort();
  const missing: string[] = [];
  for (let at = 0; at < all.length; at += ROWS) {
    const chunk = all.slice(at, at + ROWS);
    const there = new Set((await client.query<{ sha256: string }>('SELECT sha256 FROM arbiter.image WHERE sha256 = ANY($1::text[])', [chunk])).rows.map((r) => r.sha256));
    for (const sha of chunk) if (!there.has(sha)) missing.push(sha);
  }
  let added = 0;
  let batch: { sha: string; bytes: Buffer }[] = [];
  let size = 0;
  const flush = async () => {
    if (!batch.length) return;
    const result = await client.query('INSERT INTO arbiter.image (sha256, bytes, mime) SELECT * FROM unnest($1::text[], $2::bytea[], $3::text[]) ON CONFLICT (sha256) DO NOTHING', [
      batch.map((b) => b.sha),
      batch.map((b) => b.bytes),
      batch.map((b) => images.get(b.sha)!),
    ]);
    added += result.rowCount ?? 0;
    options.onProgress?.('images', added);
    batch = [];
    size = 0;
  };
  for (const sha of missing) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(imageFile(store, sha));
    } catch (error) {
      throw invalidInput(
        `The image ${sha} is not in this database's image store (${imageFile(store, sha)}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}), so it cannot go to ${where}; nothing was published. Import the items that hold it again with their images, then publish.`,
      );
    }
    batch.push({ sha, bytes });
    size += bytes.byteLength;
    if (batch.length >= ROWS || size >= BYTES) await flush();
  }
  await flush();
  return added;
}

/** `inForce` undefined: the rubric in force is left as the hub has it (a sync sets it). */
async function publishRubrics(db: Db, client: Client, projectId: number, hubId: number, inForce: string | null | undefined, summary: PublishSummary, where: string): Promise<void> {
  const there = new Map<string, string>();
  for (const r of (await client.query<{ name: string; version: number; criteria: unknown }>('SELECT name, version, criteria FROM arbiter.rubric_version WHERE project_id = $1', [hubId])).rows)
    there.set(`${r.name}\u0000${r.version}`, criteriaHash(r.criteria as never));
  const fresh = [];
  for (const v of rubricVersionsOf(db, projectId)) {
    const hash = there.get(`${v.name}\u0000${v.version}`);
    if (hash === undefined) fresh.push(v);
    else if (hash !== criteriaHash(v.criteria))
      throw conflict(
        `${where} holds version ${v.version} of the rubric "${v.name}" of "${summary.project}" with other criteria than this machine's; nothing was published. The project on the hub was published from another history: publish under another name (arbiter projects rename), or join it instead.`,
      );
  }
  for (let at = 0; at < fresh.length; at += ROWS) {
    const chunk = fresh.slice(at, at + ROWS);
    await client.query(
      `INSERT INTO arbiter.rubric_version (project_id, name, version, criteria, published_at)
       SELECT $1, n, v, c::jsonb, t::timestamptz FROM unnest($2::text[], $3::int[], $4::text[], $5::text[]) AS x(n, v, c, t)`,
      [hubId, chunk.map((v) => v.name), chunk.map((v) => v.version), chunk.map((v) => JSON.stringify(v.criteria)), chunk.map((v) => v.createdAt)],
    );
  }
  summary.rubricVersions = fresh.length;
  // Which rubric is in force (left to sync where undefined).
  if (inForce !== undefined) await setHubRubricInForce(client, hubId, inForce);
}

async function publishGuidelines(db: Db, client: Client, projectId: number, hubId: number, where: string): Promise<number> {
  const there = new Map((await client.query<{ revision: number; text: string }>('SELECT revision, text FROM arbiter.guidelines WHERE project_id = $1', [hubId])).rows.map((r) => [r.revision, r.text]));
  const revisions = guidelinesRevisionsOf(db, projectId);
  // A text saved with the project and never edited has no revision: it goes up as revision 0.
  if (!revisions.length) {
    const text = readGuidelines(db, projectId).text;
    if (text !== '') revisions.push({ revision: 0, text, author: null, createdAt: new Date().toISOString() });
  }
  let added = 0;
  for (const g of revisions) {
    const text = there.get(g.revision);
    if (text === g.text) continue;
    if (text !== undefined)
      throw conflict(`${where} holds revision ${g.revision} of the guidelines with another text than this machine's; nothing was published. Publish under another name, or join the project on the hub instead.`);
    await client.query('INSERT INTO arbiter.guidelines (project_id, revision, text, author, created_at) VALUES ($1, $2, $3, $4, $5)', [hubId, g.revision, g.text, g.author, g.createdAt]);
    added++;
  }
  return added;
}

async function publishSegmentations(db: Db, client: Client, projectId: number, hubId: number, summary: PublishSummary): Promise<void> {
  const there = new Map<string, string>();
  for (const r of (await client.query<{ item_uid: string; response: number; version: number; steps: unknown }>('SELECT item_uid, response, version, steps FROM arbiter.segmentation WHERE project_id = $1', [hubId])).rows)
    there.set(`${r.item_uid}:${r.response}:${r.version}`, JSON.stringify(r.steps));
  let batch: ReturnType<typeof madeSegmentations> extends Generator<infer T> ? T[] : never = [];
  const flush = async () => {
    if (!batch.length) return;
    const result = await client.query(
      `INSERT INTO arbiter.segmentation (project_id, item_uid, response, version, steps, origin, created_at)
       SELECT $1, u, r, v, s::jsonb, o, t::timestamptz FROM unnest($2::text[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[]) AS x(u, r, v, s, o, t)
       ON CONFLICT (project_id, item_uid, response, version) DO NOTHING`,
      [hubId, batch.map((s) => s.itemUid), batch.map((s) => s.response), batch.map((s) => s.version), batch.map((s) => s.steps), batch.map((s) => s.origin), batch.map((s) => s.createdAt)],
    );
    summary.segmentations += result.rowCount ?? 0;
    batch = [];
  };
  for (const s of madeSegmentations(db, projectId)) {
    const steps = there.get(`${s.itemUid}:${s.response}:${s.version}`);
    if (steps !== undefined) {
      if (steps !== JSON.stringify(JSON.parse(s.steps))) summary.segmentationsDiffering++;
      continue;
    }
    batch.push(s);
    if (batch.length >= ROWS) await flush();
  }
  await flush();
}

/** The labels no person made here (a file's own, a model's), as label lines; those on the hub are skipped by id. */
async function publishFileLabels(db: Db, client: Client, projectId: number, hubId: number, options: PublishOptions): Promise<number> {
  let added = 0;
  let batch: { id: string; uuid: string; line: string }[] = [];
  const flush = async () => {
    if (!batch.length) return;
    const result = await client.query(
      `INSERT INTO arbiter.revision (id, project_id, annotator_uuid, adjudicated, line)
       SELECT i, $1, u::uuid, false, l::jsonb FROM unnest($2::text[], $3::text[], $4::text[]) AS x(i, u, l)
       ON CONFLICT (id) DO NOTHING`,
      [hubId, batch.map((b) => b.id), batch.map((b) => b.uuid), batch.map((b) => b.line)],
    );
    added += result.rowCount ?? 0;
    options.onProgress?.('revisions', added);
    batch = [];
  };
  for (const revision of iterateRevisions(db, projectId)) {
    if (revision.annotatorKind === 'human' || revision.body.adjudicated === true) continue;
    batch.push({ id: revision.id, uuid: revision.annotatorUuid.toLowerCase(), line: JSON.stringify(encodeLabel(revision)) });
    if (batch.length >= ROWS) await flush();
  }
  await flush();
  return added;
}

/** A refusal by the hub in a sentence: publishing needs the lead role (or the hub's owner). */
function explainPublishError(error: unknown, where: string, project: string): unknown {
  const e = error as { code?: string; message?: string };
  if (e.code === '42501' && /row-level security/.test(e.message ?? ''))
    return new HubError(
      'refused',
      `${where} refused the file's own labels of "${project}" (its row security lets only a lead or the hub's owner put up labels no person made); nothing was published. Update the hub's schema (arbiter hub init), or ask its admin.`,
    );
  if (e.code === '42501')
    return new HubError(
      'refused',
      `${where} refused to publish "${project}": publishing needs the lead role on the hub (its admin gives it with arbiter hub grant --role lead) or the hub's owner; nothing was published. (${(e.message ?? '').replace(/\s+/g, ' ')})`,
    );
  return error;
}
