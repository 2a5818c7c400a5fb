// Joining a project from the team hub: the hub's item lines go through the normal importer (importLines,
// format `arbiter`), a page at a time, each page's images first put in the local image store from the
// hub's bytes (checked against their hash), so the importer finds every stored image part it reads and
// makes the same items, byte for byte, with the same uids, as the publisher's. Then, in short SQLite
// writes, each with the number it has on the hub: rubric versions and the one in force, guidelines
// revisions, the project's settings, items' own criteria, and the segmentations made after the file;
// last the link (store/hub.ts), which is what `arbiter sync` reads, with the hub's last item seq read (a
// sync reads the lines after it through here: items a lead publishes later). Label revisions, the
// file's own included, come down with the first sync (the link's pull watermark starts at 0).
//
// Everything is read from the hub in one REPEATABLE READ transaction, so a publish running meanwhile is
// seen whole or not at all. Joining again (the project linked to this hub project) adds what the hub got
// since, and changes nothing here. A project of that name that is here and not linked is joined only when
// the hub has every item it holds (a join cut short, or the same file imported here): never merged into
// other data. A number already here with other content (a rubric version, a guidelines revision, a cut)
// is left as it is and counted as differing.
//
// The person joining takes the uuid the hub knows them by (whoAmI: the annotator row of the login role),
// since row-level security lets them push only under it: the local annotator of that name is made with it,
// or changed to it while it has no revisions here. One with revisions under another uuid keeps it, and the
// join is refused saying the grant the lead runs (hub grant --uuid the local one). The admin adopts nothing.
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Content, ProjectSettings } from '../../../shared/domain';
import { imagesOf } from '../../../shared/images';
import { canonicalJson, type Criterion } from '../../../shared/rubric';
import { conflict, notFound } from '../base/errors';
import { adoptAnnotatorUuid } from '../store/annotators';
import { importLines } from '../formats/import/importer';
import { hasImage, imageSha256, imageStoreOf, putImage } from '../images/store';
import type { Db } from '../store/db';
import { agreeTeamSettings, hubLink, linkProject, setPulledItemSeq, setSegmentationWatermarks, teamSettings, teamSettingsHash } from '../store/hub';
import { itemIdsByUid, placeGuidelinesRevision, placeOwnCriteria, placeRubricVersion, placeSegmentation, pulledCutProblem, type Placed } from '../store/hubProject';
import { findProject, projectSettings, requireProject, updateSettings } from '../store/projects';
import { rubricInForce, setRubricInForce } from '../store/rubrics';
import { writeNow } from '../store/write';
import { checkedRubricVersion, checkedSettings } from './pullChecks';
import { Refusals } from './refusals';
import { recordJoin, whoAmI, type HubIdentity } from './roles';
import { readCuts, unreadCutProblem } from './syncParts';
import type { HubPersonHere, HubProjectCounts } from './summary';
import { requireHubSchema } from './schema';

type Client = Pick<pg.ClientBase, 'query'>;

export interface JoinSummary extends HubProjectCounts {
  /** Numbers (rubric versions, guidelines revisions, cuts, criteria) held here with other content: kept as they are. */
  differing: number;
  /** 'refused': the hub's settings (or its rubric in force) fail the app's checks, and this project's are kept. */
  settings: 'set' | 'same' | 'refused';
  /** Label revisions of the project on the hub: the next `arbiter sync` brings them. */
  revisionsOnHub: number;
  /** What this join refused of what the hub holds (cuts, rubric versions, criteria, settings), in sentences. */
  refused: string[];
}

export interface JoinOptions {
  /** host:port (or words naming the hub) for sentences. */
  where?: string;
  /** The hub URL without password: recorded as the project's link. */
  url: string;
  onProgress?: (linesRead: number) => void;
  /** The hub's project by id (a sync: the link's, whatever the project is called here); else by the name `project`. */
  hubProjectId?: number;
  /** Read the item lines after this hub seq only (a sync: the link's pulledItemSeq); all of them by default. */
  afterItemSeq?: number;
  /** Give the local annotator the hub's uuid (join, publish); a sync, which may run as another person on a shared desktop, does not. */
  adopt?: boolean;
  /** Where to note what is refused (a sync's own, said in its summary); a join of its own by default. */
  refusals?: Refusals;
}

/** Item lines read from the hub per query (their images are fetched before the importer reads them). */
const PAGE = 2000;
/** Images fetched per query. */
const IMAGE_PAGE = 64;
/** Rows per SQLite write transaction. */
const WRITE_BATCH = 1000;

export async function joinProject(db: Db, client: Client, project: string, options: JoinOptions): Promise<JoinSummary> {
  const where = options.where ?? 'the hub';
  await requireHubSchema(client, where);
  // The hub records the join (a member writes only into projects they joined); a sync's read of new items is no join.
  if (options.adopt !== false) await recordJoin(client, options.hubProjectId ?? project, where);
  const store = imageStoreOf(db);
  const refusals = options.refusals ?? new Refusals();
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const hub = (
      await client.query<{ id: string; settings: Partial<ProjectSettings> }>(
        options.hubProjectId === undefined ? 'SELECT id, settings FROM arbiter.project WHERE name = $1' : 'SELECT id, settings FROM arbiter.project WHERE id = $1',
        [options.hubProjectId ?? project],
      )
    ).rows[0];
    if (!hub) {
      const names = (await client.query<{ name: string }>('SELECT name FROM arbiter.project ORDER BY name LIMIT 11')).rows.map((r) => r.name);
      throw notFound(
        names.length
          ? `${where} has no project named "${project}"; it has ${names.slice(0, 10).map((n) => `"${n}"`).join(', ')}${names.length > 10 ? ', …' : ''}. Check the name (it is case-sensitive).`
          : `${where} has no project named "${project}"; no project is published there yet. A lead publishes one with: arbiter hub publish --project NAME --hub URL`,
      );
    }
    const hubId = Number(hub.id);
    const itemsOnHub = Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM arbiter.item_line WHERE project_id = $1', [hubId])).rows[0]!.n);
    const before = findProject(db, project);
    if (before) await checkJoinable(db, client, before.id, hubId, project, where, options.url);
    const me = await whoAmI(client);
    const annotator = me && options.adopt !== false ? adoptHubUuid(db, me, where) : null;

    let images = 0;
    // Pages of item lines; each page's images are stored before its lines reach the importer.
    let lastItemSeq = options.afterItemSeq ?? -1;
    const readUids = new Set<string>();
    async function* lines(): AsyncGenerator<string> {
      for (let after = lastItemSeq; ; ) {
        const rows = (await client.query<{ seq: number; uid: string; line: string }>('SELECT seq, uid, line::text AS line FROM arbiter.item_line WHERE project_id = $1 AND seq > $2 ORDER BY seq LIMIT $3', [hubId, after, PAGE])).rows;
        for (const row of rows) readUids.add(row.uid);
        if (!rows.length) return;
        const wanted = new Set<string>();
        for (const row of rows) for (const sha of imageHashes(row.line)) if (!hasImage(store, sha)) wanted.add(sha);
        images += await fetchImages(client, [...wanted], store, where);
        for (const row of rows) yield row.line;
        after = rows[rows.length - 1]!.seq;
        lastItemSeq = after;
      }
    }
    const imported = await importLines(db, {
      project,
      fileName: `${where} (project "${project}")`,
      lines: lines(),
      sha256: createHash('sha256').update(`${options.url}\u0000${hubId}`).digest('hex'),
      format: 'arbiter',
      skipInvalid: false,
      createProject: true,
      onProgress: options.onProgress,
    });
    const local = requireProject(db, project);

    // Rubric versions and items' own criteria as saveRubric and saveItemCriteria check them: one that fails is refused.
    const rubrics: { name: string; version: number; criteria: Criterion[]; in_force: boolean; published_at: Date }[] = [];
    for (const r of (
      await client.query<{ name: string; version: number; criteria: unknown; in_force: boolean; published_at: Date }>(
        'SELECT name, version, criteria, in_force, published_at FROM arbiter.rubric_version WHERE project_id = $1 ORDER BY name, version',
        [hubId],
      )
    ).rows) {
      const checked = checkedRubricVersion(r.name, r.version, r.criteria);
      if (checked.ok) rubrics.push({ ...r, criteria: checked.criteria });
      // (A sync that reads new items through here says them once, from its own read of the versions.)
      else if (options.hubProjectId === undefined) refusals.note('rubricVersion', checked.problem);
    }
    const guidelines = (await client.query<{ revision: number; text: string; author: string | null; created_at: Date }>('SELECT revision, text, author, created_at FROM arbiter.guidelines WHERE project_id = $1 ORDER BY revision', [hubId])).rows;
    // Items' own criteria: of every item at a join; of the items just read at a sync (the others have theirs).
    const criteria = (
      await client.query<{ uid: string; criteria: string }>('SELECT uid, criteria::text AS criteria FROM arbiter.item_line WHERE project_id = $1 AND seq > $2 AND criteria IS NOT NULL ORDER BY seq', [
        hubId,
        options.afterItemSeq ?? -1,
      ])
    ).rows.filter((c) => {
      const checked = checkedRubricVersion(`item/${c.uid}`, 1, JSON.parse(c.criteria));
      if (!checked.ok) refusals.note('criteria', `item ${c.uid}: ${checked.problem.replace(/^version 1 of "[^"]*": /, '')}`);
      return checked.ok;
    });
    const revisionsOnHub = Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM arbiter.revision WHERE project_id = $1', [hubId])).rows[0]!.n);

    const summary: JoinSummary = {
      project,
      hubProject: hubId,
      created: before === undefined,
      items: imported.summary.items,
      itemsOnHub,
      images,
      rubricVersions: 0,
      rubricInForce: rubrics.find((r) => r.in_force)?.name ?? null,
      guidelines: 0,
      criteria: 0,
      segmentations: 0,
      differing: 0,
      settings: 'same',
      revisionsOnHub,
      annotator,
      refused: [],
    };
    // The hub's settings as updateProjectSettings checks them, and a rubric in force that came down (or is here).
    const settingsChecked = checkedSettings(hub.settings ?? {});
    let settingsProblem = settingsChecked.ok ? null : settingsChecked.problem;
    if (settingsProblem === null && summary.rubricInForce !== null && !rubrics.some((r) => r.name === summary.rubricInForce))
      settingsProblem = `the rubric in force, "${summary.rubricInForce}", has no version this desktop took`;
    if (settingsProblem !== null && options.hubProjectId === undefined) {
      refusals.note('settings', settingsProblem);
      summary.settings = 'refused';
      summary.rubricInForce = rubricInForce(db, local.id);
    }
    const count = (placed: Placed, key: 'rubricVersions' | 'guidelines' | 'criteria' | 'segmentations') => {
      if (placed === 'added') summary[key]++;
      else if (placed === 'conflict') summary.differing++;
    };

    writeNow(db, () => {
      for (const r of rubrics) count(placeRubricVersion(db, local.id, { name: r.name, version: r.version, criteria: r.criteria, createdAt: r.published_at.toISOString() }), 'rubricVersions');
      for (const g of guidelines) count(placeGuidelinesRevision(db, local.id, { revision: g.revision, text: g.text, author: g.author, createdAt: g.created_at.toISOString() }), 'guidelines');
      // The settings and the rubric in force: the hub's at a join; a sync decides them itself (syncParts.ts syncTeamSettings: a lead's own may be newer).
      if (options.hubProjectId === undefined && settingsChecked.ok && summary.settings !== 'refused') {
        if (rubricInForce(db, local.id) !== summary.rubricInForce) setRubricInForce(db, local.id, summary.rubricInForce);
        const settings = { ...projectSettings(local), ...settingsChecked.value };
        if (canonicalJson(settings) !== canonicalJson(projectSettings(local))) {
          updateSettings(db, project, settings);
          summary.settings = 'set';
        }
      }
      // An item's own criteria: the newest version of its `item/<uid>` rubric where people changed them, else the file's.
      const ids = itemIdsByUid(db, local.id);
      const newest = new Map<string, Criterion[]>();
      for (const r of rubrics) if (r.name.startsWith('item/') && (options.afterItemSeq === undefined || readUids.has(r.name.slice(5)))) newest.set(r.name.slice(5), r.criteria);
      const own = new Map(criteria.map((c) => [c.uid, c.criteria]));
      // (The line's text where it says the same: it keeps the file's key order, which jsonb does not.)
      for (const [uid, latest] of newest) {
        const text = own.get(uid);
        if (text === undefined || canonicalJson(JSON.parse(text)) !== canonicalJson(latest)) own.set(uid, JSON.stringify(latest));
      }
      for (const [uid, text] of own) {
        const id = ids.get(uid);
        if (id !== undefined) count(placeOwnCriteria(db, id, text), 'criteria');
      }
    });

    // Segmentations, in short writes: a project may have many.
    // Every cut, from the first (a cut pulled before its item was published is placed now); the link's
    // segmentation mark then moves past them, so the next sync does not read them again.
    const ids = itemIdsByUid(db, local.id);
    // Each checked as a sync checks one (hubProject.ts pulledCutProblem): a refused one is said, never placed.
    let lastCut = 0;
    for (let after = 0; ; ) {
      const rows = await readCuts(client, hubId, after, WRITE_BATCH);
      if (!rows.length) break;
      writeNow(db, () => {
        for (const s of rows) {
          const id = ids.get(s.itemUid);
          if (id === undefined) continue;
          const problem = unreadCutProblem(s) ?? pulledCutProblem(db, id, s);
          if (problem) refusals.note('cut', problem);
          else count(placeSegmentation(db, id, { response: s.response, version: s.version, steps: JSON.stringify(s.steps), origin: s.origin === 'file' ? 'auto' : s.origin, createdAt: s.createdAt }), 'segmentations');
        }
      });
      after = rows[rows.length - 1]!.hubSeq;
      lastCut = after;
    }
    await client.query('COMMIT');
    // (A sync reads through here from a project linked already: its link stays as it is.)
    if (options.hubProjectId === undefined) {
      linkProject(db, local.id, options.url, hubId);
      // The settings and rubric in force came from the hub: agreed on (a sync then sends a lead's own
      // only once they change here).
      agreeTeamSettings(db, local.id, teamSettingsHash(teamSettings(hub.settings, summary.rubricInForce)));
    }
    if (lastItemSeq >= 0) setPulledItemSeq(db, local.id, lastItemSeq);
    if (lastCut > 0) setSegmentationWatermarks(db, local.id, { pulledSeq: lastCut });
    summary.refused = refusals.sentences();
    return summary;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** The local annotator of the hub's name takes the hub's uuid, or the join is refused saying what the lead runs. */
/**
 * Gives the local annotator named as the hub knows this login role the hub's uuid (join and publish), or
 * refuses in a sentence: `action` is what was not done ('joined', 'published'), and what to run again.
 */
export function adoptHubUuid(db: Db, me: HubIdentity, where: string, action: { done: string; again: string } = { done: 'joined', again: 'join' }): HubPersonHere {
  const adoption = adoptAnnotatorUuid(db, me.name, me.uuid);
  const quoted = /^[\w.@-]+$/.test(me.name) ? me.name : `"${me.name.replace(/(["\\$`])/g, '\\$1')}"`;
  if (adoption.outcome === 'has-revisions') {
    const n = adoption.revisions;
    throw conflict(
      `"${me.name}" has ${n === 1 ? '1 revision' : `${n} revisions`} on this machine under uuid ${adoption.localUuid}, but the hub at ${where} knows "${me.name}" (login role ${me.pgRole}) by uuid ${me.uuid}, and takes their revisions only under that; nothing was ${action.done}. Ask the hub's admin (who ran hub init) to run: arbiter hub grant --hub URL --annotator ${quoted} --role ${me.role} --uuid ${adoption.localUuid} — then ${action.again} again.`,
    );
  }
  if (adoption.outcome === 'not-human') {
    const h = adoption.holder;
    throw conflict(
      `The hub at ${where} knows "${me.name}" by uuid ${me.uuid}, but here ${h.name === me.name ? `"${h.name}" is` : `that uuid is "${h.name}",`} an annotator of kind ${h.kind}, not a person; nothing was ${action.done}. Ask the hub's admin to grant "${me.name}" with a uuid of their own (arbiter hub grant --uuid), or ${action.again} under another login role.`,
    );
  }
  return { name: me.name, uuid: me.uuid, uuidHere: adoption.outcome };
}

/** A project already here may be joined again only from the hub project it is linked to, or when the hub holds all its items. */
async function checkJoinable(db: Db, client: Client, projectId: number, hubId: number, project: string, where: string, url: string): Promise<void> {
  const link = hubLink(db, projectId);
  if (link) {
    if (link.url === url && link.hubProjectId === hubId) return;
    throw conflict(`The project "${project}" here is linked to another hub (${link.url}, project ${link.hubProjectId}); nothing was joined. Rename it first (arbiter projects rename "${project}" NEW), then join.`);
  }
  const local = [...itemIdsByUid(db, projectId).keys()];
  let missing = 0;
  for (let at = 0; at < local.length; at += 10_000) {
    const chunk = local.slice(at, at + 10_000);
    const there = Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM arbiter.item_line WHERE project_id = $1 AND uid = ANY($2::text[])', [hubId, chunk])).rows[0]!.n);
    missing += chunk.length - there;
  }
  if (missing)
    throw conflict(
      `A project named "${project}" is here already, with ${missing === 1 ? '1 item' : `${missing} items`} the hub's "${project}" at ${where} does not have; nothing was joined. Rename yours first (arbiter projects rename "${project}" NEW), then join.`,
    );
}

/** The sha256 of every stored image part of an item line (its prompt and responses). */
function imageHashes(line: string): string[] {
  if (!line.includes('"sha256"')) return [];
  const record = JSON.parse(line) as { prompt?: Content; responses?: { text?: Content }[] };
  const out: string[] = [];
  const note = (content: Content | undefined) => {
    if (content === undefined) return;
    for (const placed of imagesOf(content, 'prompt')) if (placed.image.image) out.push(placed.image.image.sha256);
  };
  note(record.prompt);
  for (const r of record.responses ?? []) note(r.text);
  return out;
}

/** Puts the hub's bytes of `hashes` in the local image store; bytes that are not what their hash says are refused. */
async function fetchImages(client: Client, hashes: string[], store: string, where: string): Promise<number> {
  let added = 0;
  for (let at = 0; at < hashes.length; at += IMAGE_PAGE) {
    const chunk = hashes.slice(at, at + IMAGE_PAGE);
    const rows = (await client.query<{ sha256: string; bytes: Buffer }>('SELECT sha256, bytes FROM arbiter.image WHERE sha256 = ANY($1::text[])', [chunk])).rows;
    const found = new Set<string>();
    for (const row of rows) {
      if (imageSha256(row.bytes) !== row.sha256) throw conflict(`${where} holds bytes for the image ${row.sha256} whose sha256 is another; nothing was joined. Ask the lead to publish the project again.`);
      putImage(store, row.bytes);
      found.add(row.sha256);
      added++;
    }
    const lost = chunk.filter((sha) => !found.has(sha));
    if (lost.length) throw conflict(`${where} lacks the image ${lost[0]} that its items hold${lost.length > 1 ? ` (and ${lost.length - 1} more)` : ''}; nothing was joined. Ask the lead to publish the project again.`);
  }
  return added;
}
