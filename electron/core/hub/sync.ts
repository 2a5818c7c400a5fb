// One sync of a linked project with its team hub: label exchange over PostgreSQL. This machine's own
// revisions go up as the exact lines the labels format writes (encodeLabel), everyone else's come down
// through the merge `arbiter labels import` uses (importLabelsLines: idempotent by revision id,
// order-independent, a merged revision current only when later by (created_at, id), a lead's
// `adjudicated` revision an adjudication). Rubric versions and annotators' cuts go first both ways, since
// ratings and step labels name them, and a lead's guidelines revisions with them (syncParts.ts); items
// published since this desktop last read the hub's item lines come down before all of them, through
// join's reader (from the link's item mark, migration 0010).
//
// Bounded batches, short SQLite writes, a yield between batches, so a save never waits long. A kill at
// any point leaves both sides consistent, and the next sync completes the work:
// - push: one INSERT … ON CONFLICT (id) DO NOTHING per batch, committed on the hub; only then the push
//   watermark (the batch's last own label seq) moves here, holding in the same transaction the batch's
//   revisions this login role may not send (another local person's), which later syncs offer first.
//   Killed in between: the batch goes again and the hub keeps the copies it has (pushed counts only
//   rows new there).
// - pull (pullLines.ts): a batch merges as one labels merge (pending until complete, removed at the next open when a
//   kill cuts it short); only after it completed the pull watermark (hub_seq) moves, with the batch's
//   deferred revisions, in one transaction. Killed in between: the batch merges again and adds nothing
//   (idempotent by revision id).
// hub_seq is in commit order on the hub (hub migration 0002), so a watermark never skips a revision
// that commits late.
import type pg from 'pg';
import { cancelledError, conflict, InvalidFileError } from '../base/errors';
import { encodeLabel } from '../formats/exchange/labels';
import type { Db } from '../store/db';
import { deferredCount, deferredRevisions, hubLink, ownRevisionsAfter, recordSyncOutcome, type HubLink, type OwnRevision } from '../store/hub';
import { advancePushMark, heldByAnnotator, heldRevisions, releaseHeld } from '../store/hubHeld';
import { requireProject } from '../store/projects';
import { connectHub, HUB_TIMEOUTS, hubTimeoutError, parseHubUrl, sameHub, type HubAddress, type HubPassword } from './connect';
import { recordJoin, whoAmI, type HubIdentity } from './roles';
import { joinProject } from './join';
import { requireHubSchema } from './schema';
import { lineMerger, pullRevisions, retryDeferred, SLICE } from './pullLines';
import { Refusals } from './refusals';
import { pullViews, pushViews } from './views';
import { pullGoldMarks, pushGoldMarks, type GoldCounts } from './gold';
import { noCheckedCounts, noCounts, pullGuidelines, pullRubricVersions, pullSegmentations, pushGuidelines, pushRubricVersions, pushSegmentations, syncTeamSettings, type CheckedCounts, type PartCounts } from './syncParts';

export interface SyncOptions {
  project: string;
  /** The hub address (no password in it); the project's link's when left out. Must be the linked hub. */
  url?: string;
  password?: HubPassword;
  /** Revisions per batch (each a hub statement and one labels merge here). */
  batch?: number;
  /** After each batch: what is done so far. */
  onProgress?: (progress: SyncProgress) => void;
  /** Asked between batches: true stops the sync there (what was committed stays, the rest goes next time). */
  isCancelled?: () => boolean;
}

export interface SyncProgress {
  phase: 'push' | 'pull';
  pushed: number;
  pulled: number;
}

export interface SyncSummary {
  project: string;
  hub: string;
  /** Who this machine pushed as (the annotator the login role is granted to), or null. */
  as: string | null;
  /** Own revisions the hub took now; and those it had already (a replay after a kill). */
  pushed: number;
  alreadyOnHub: number;
  /**
   * Revisions saved here that this login role may not push (PostgreSQL's row-level security would refuse
   * them): another local person's, or an adjudication by someone not a lead. Held here after the sync (every
   * one held, from this sync or before), with who made them; they go up at a sync by a role that may send them.
   */
  notPushed: number;
  notPushedBy: string[];
  /**
   * Own revisions for items the hub does not hold yet (imported here, not published by a lead): the hub
   * refuses them (schema 3), so they are held here too, and go up at the first sync after a lead publishes
   * the item. Not counted in notPushed.
   */
  waitingForItems: number;
  /** Others' revisions merged here now; and those here already (this machine's own, coming back). */
  pulled: number;
  alreadyHere: number;
  /** Revisions on the hub that cannot merge here yet (an item or rubric version this project lacks, a line that fails a check here): tried again at every sync. */
  deferred: number;
  /** The first reason a revision is deferred, for people. */
  deferredReason: string | null;
  /**
   * Deferred revisions dropped by this sync: more than hubDeferredMax waited, or one waited longer than
   * hubDeferredMaxAgeMs (limits.ts). Never read again; `refused` says it.
   */
  deferredDropped: number;
  /** Revisions on the hub longer than a labels line may be (recordMaxBytes): skipped unread, never merged. */
  tooLarge: number;
  /** Revisions whose id is stored here for a different label: not merged, never overwritten. */
  conflicts: number;
  rubricVersions: CheckedCounts;
  segmentations: CheckedCounts;
  /** The project's settings and rubric in force: sent (a lead's, changed here), taken (the hub's), the same, or refused (the hub's fail the app's checks: this desktop's kept). */
  settings: 'sent' | 'taken' | 'same' | 'refused';
  /** Items a lead published after this desktop joined (or last synced), and the images they brought. */
  items: number;
  images: number;
  /** Why the new items did not come down this time (an import running here, a line refused…), or null: the rest of the sync went on. */
  itemsProblem: string | null;
  /** Guidelines revisions: a lead's go up; everyone's newest comes down and is the text people read. */
  guidelines: PartCounts;
  /** Saved views of the items page (hub/views.ts): this desktop's go up; the hub's newest of each name comes down, checked. */
  views: CheckedCounts;
  /** Gold marks: a lead's go up, everyone's come down checked (core/hub/gold.ts); held: own marks the hub would not take. */
  goldMarks: GoldCounts;
  /** What this desktop refused of what the hub holds (cuts, rubric versions, settings, lines too long or malformed, deferred revisions dropped), in sentences. */
  refused: string[];
  /** The pull watermark after this sync. */
  hubSeq: number;
}

const DEFAULT_BATCH = 5000;

/** Lets a save in between batches (the label merge yields the same way). */
const between = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function syncProject(db: Db, options: SyncOptions): Promise<SyncSummary> {
  const project = requireProject(db, options.project);
  const link = hubLink(db, project.id);
  if (!link) {
    throw conflict(`The project "${options.project}" is not linked to a hub. Join it first (arbiter hub join --project "${options.project}" --hub URL), or publish it (arbiter hub publish).`);
  }
  const address = parseHubUrl(options.url ?? link.url);
  const linked = parseHubUrl(link.url);
  // Another login role on the same hub is fine (a shared desktop: each person syncs their own revisions).
  if (!sameHub(address.url, linked.url)) {
    throw conflict(`The project "${options.project}" is linked to the hub ${linked.url}, not ${address.url}; sync it with its own hub (leave out --hub), or join the project on the other hub into another database.`);
  }
  const client = await connectHub(address, { password: options.password, statementTimeoutSeconds: HUB_TIMEOUTS.syncStatementSeconds, isCancelled: options.isCancelled });
  try {
    const summary = await run(db, client, address, link, options);
    recordSyncOutcome(db, project.id, null);
    return summary;
  } catch (caught) {
    // Stopped (the connection ends under a statement waiting on the hub), or a hub that did not answer in time.
    const error = options.isCancelled?.() ? stopped(options.project, caught) : hubTimeoutError(caught, address);
    if (!(error instanceof Error && (error as { details?: { cancelled?: boolean } }).details?.cancelled)) {
      try {
        recordSyncOutcome(db, project.id, error instanceof Error ? error.message : String(error));
      } catch {
        /* the database went away: the error itself says more */
      }
    }
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The error of a sync stopped on request (the one thrown already, when it is that). */
function stopped(project: string, caught?: unknown): Error {
  if (caught instanceof Error && (caught as { details?: { cancelled?: boolean } }).details?.cancelled) return caught;
  return cancelledError(`The sync of "${project}" was stopped; what it did so far is kept, and the next sync goes on from there.`);
}

async function run(db: Db, client: pg.Client, address: HubAddress, link: HubLink, options: SyncOptions): Promise<SyncSummary> {
  await requireHubSchema(client, address.where);
  const hubProject = (await client.query<{ name: string }>('SELECT name FROM arbiter.project WHERE id = $1', [link.hubProjectId])).rows[0];
  if (!hubProject) {
    throw conflict(`The hub at ${address.where} has no project ${link.hubProjectId} (the one "${options.project}" was joined from); nothing was synced. Join the project again from the hub.`);
  }
  const me = await whoAmI(client);
  // A member writes only into projects they joined (hub schema 3); a sync under a login role that has not
  // (a shared desktop, a link from before schema 3) joins as a join would, where the project's team allows.
  await recordJoin(client, link.hubProjectId, address.where);
  const batch = Math.max(1, Math.trunc(options.batch ?? DEFAULT_BATCH));
  const summary: SyncSummary = {
    project: options.project,
    hub: `${address.where}/${address.database}`,
    as: me?.name ?? null,
    pushed: 0,
    alreadyOnHub: 0,
    notPushed: 0,
    notPushedBy: [],
    waitingForItems: 0,
    pulled: 0,
    alreadyHere: 0,
    deferred: 0,
    deferredReason: null,
    deferredDropped: 0,
    tooLarge: 0,
    conflicts: 0,
    rubricVersions: noCheckedCounts(),
    segmentations: noCheckedCounts(),
    guidelines: noCounts(),
    views: noCheckedCounts(),
    goldMarks: { pushed: 0, pulled: 0, held: 0 },
    settings: 'same',
    items: 0,
    images: 0,
    itemsProblem: null,
    refused: [],
    hubSeq: link.pulledSeq,
  };
  const refusals = new Refusals();
  const step = async (phase: SyncProgress['phase']) => {
    options.onProgress?.({ phase, pushed: summary.pushed, pulled: summary.pulled });
    await between();
    if (options.isCancelled?.()) throw stopped(options.project);
  };

  // Up: what ratings and step labels name first, then the revisions.
  if (me?.role === 'lead') {
    await pushRubricVersions(db, client, link, summary.rubricVersions);
    await pushGuidelines(db, client, link, summary.guidelines);
  }
  await pushSegmentations(db, client, link, batch, summary.segmentations, () => step('push'));
  await pushRevisions(db, client, link, me, batch, summary, () => step('push'));
  await pushViews(db, client, link, me, summary.views);
  // Down: new items first (revisions on them then merge), then the same order.
  await pullItems(db, client, link, options.project, address.where, summary, refusals);
  link = hubLink(db, link.projectId) ?? link;
  await pullRubricVersions(db, client, link, summary.rubricVersions, refusals);
  summary.settings = await syncTeamSettings(db, client, link, me?.role === 'lead', refusals);
  await pullGuidelines(db, client, link, summary.guidelines);
  await pullViews(db, client, link, summary.views, refusals);
  await pullSegmentations(db, client, link, batch, summary.segmentations, refusals, () => step('pull'));
  const merge = lineMerger(db, link, options.project, address, summary, refusals, options.isCancelled);
  await retryDeferred(db, client, link, batch, merge, refusals, () => step('pull'));
  summary.hubSeq = await pullRevisions(db, client, link, batch, merge, refusals, () => step('pull'));
  // Gold marks after the items they name: a lead's up, everyone's down.
  await pushGoldMarks(db, client, link, me, summary.goldMarks);
  await pullGoldMarks(db, client, link, summary.goldMarks, refusals);
  summary.deferred = deferredCount(db, link.projectId);
  summary.tooLarge = refusals.count('tooLarge');
  summary.deferredDropped = refusals.count('deferredCap') + refusals.count('deferredAge');
  summary.refused = refusals.sentences();
  if (summary.deferred && !summary.deferredReason) summary.deferredReason = deferredRevisions(db, link.projectId, 0, 1)[0]?.reason ?? null;
  return summary;
}

/**
 * Items published on the hub after the link's item mark, through join's reader (the importer, images
 * first): the same items, uids and bytes as the publisher's. A link made before the mark was kept reads
 * every line once (the importer adds only what is new).
 */
async function pullItems(db: Db, client: pg.Client, link: HubLink, project: string, where: string, summary: SyncSummary, refusals: Refusals): Promise<void> {
  const last = (await client.query<{ s: string | null }>('SELECT max(seq) AS s FROM arbiter.item_line WHERE project_id = $1', [link.hubProjectId])).rows[0]?.s;
  const after = link.pulledItemSeq ?? -1;
  if (last === null || last === undefined || Number(last) <= after) return;
  try {
    const joined = await joinProject(db, client, project, { where, url: link.url, hubProjectId: link.hubProjectId, afterItemSeq: after, adopt: false, refusals });
    summary.items = joined.items;
    summary.images = joined.images;
  } catch (error) {
    // Labels, cuts and settings still sync; the items are read again (from the same mark) next time.
    // (join rolled its hub transaction back, and the importer keeps nothing of an import that failed.)
    summary.itemsProblem =
      error instanceof InvalidFileError && error.errors[0]
        ? `the hub holds ${error.errors.length === 1 ? 'an item line' : `${error.errors.length} item lines`} this desktop refuses (the first: ${error.errors[0].reason.replace(/\.$/, '')})`
        : error instanceof Error
          ? error.message
          : String(error);
  }
}

/** Whether the hub takes this revision from this login role: its own uuid, and an adjudication only from a lead. */
const mayPush = (r: OwnRevision, me: HubIdentity | null): boolean =>
  me !== null && r.annotatorUuid.toLowerCase() === me.uuid.toLowerCase() && (r.body.adjudicated !== true || me.role === 'lead');

/** One hub statement for a batch of lines; counts what was new there. */
async function insertLines(client: pg.Client, link: HubLink, lines: string[], summary: SyncSummary): Promise<void> {
  if (lines.length === 0) return;
  const result = await client.query(
    `INSERT INTO arbiter.revision (id, project_id, annotator_uuid, adjudicated, line)
     SELECT l->>'id', $1, (l->>'annotator_uuid')::uuid, coalesce(l->'adjudicated' = 'true'::jsonb, false), l
     FROM jsonb_array_elements($2::jsonb) AS l
     ON CONFLICT (id) DO NOTHING`,
    // One JSON text joined from the lines (a text[] parameter costs node-postgres tens of ms to escape).
    [link.hubProjectId, `[${lines.join(',')}]`],
  );
  const added = result.rowCount ?? 0;
  summary.pushed += added;
  summary.alreadyOnHub += lines.length - added;
}

/**
 * Up: first the held revisions this login role may send now (released once the hub committed them),
 * then the own revisions after the push watermark, a batch per hub statement; the watermark moves after
 * each commit, holding (hubHeld.ts) in the same transaction the batch's revisions this role may not send.
 * notPushed / notPushedBy: what stays held after the sync, and whose.
 */
async function pushRevisions(db: Db, client: pg.Client, link: HubLink, me: HubIdentity | null, batch: number, summary: SyncSummary, step: () => Promise<void>): Promise<void> {
  let waiting = 0;
  for (let after = 0; ; ) {
    const rows = heldRevisions(db, link.projectId, after, batch);
    if (rows.length === 0) break;
    const onHub = await itemsOnHub(client, link, rows.filter((r) => mayPush(r, me)).map((r) => r.itemUid));
    const sendable = rows.filter((r) => mayPush(r, me) && onHub.has(r.itemUid));
    waiting += rows.filter((r) => mayPush(r, me) && !onHub.has(r.itemUid)).length;
    await insertLines(client, link, sendable.map((r) => JSON.stringify(encodeLabel(r))), summary);
    releaseHeld(db, link.projectId, sendable.map((r) => r.seq));
    after = rows[rows.length - 1]!.seq;
    await step();
  }
  let after = link.pushedLabelSeq;
  for (;;) {
    // Read and encoded a slice at a time, yielding between slices, so the thread a save needs is free often.
    const sendable: { seq: number; itemUid: string; line: string }[] = [];
    const held: number[] = [];
    let read = 0;
    let last = after;
    while (read < batch) {
      const rows = ownRevisionsAfter(db, link.projectId, last, Math.min(SLICE, batch - read));
      if (rows.length === 0) break;
      for (const r of rows) {
        if (mayPush(r, me)) sendable.push({ seq: r.seq, itemUid: r.itemUid, line: JSON.stringify(encodeLabel(r)) });
        else held.push(r.seq);
      }
      read += rows.length;
      last = rows[rows.length - 1]!.seq;
      await between();
    }
    if (read === 0) break;
    // The hub takes a revision only for an item it holds: one for an item only this desktop has waits, held.
    const onHub = await itemsOnHub(client, link, sendable.map((r) => r.itemUid));
    const lines: string[] = [];
    for (const r of sendable) {
      if (onHub.has(r.itemUid)) lines.push(r.line);
      else {
        held.push(r.seq);
        waiting++;
      }
    }
    await insertLines(client, link, lines, summary);
    // Committed on the hub (autocommit): only now the watermark moves, to an own row's seq.
    after = last;
    advancePushMark(db, link.projectId, after, held);
    await step();
  }
  const stillHeld = heldByAnnotator(db, link.projectId);
  // What waits for its item is this role's own: the rest is what this role may not push.
  if (me && waiting) stillHeld.set(me.name, (stillHeld.get(me.name) ?? 0) - waiting);
  for (const [name, count] of stillHeld) if (count <= 0) stillHeld.delete(name);
  summary.waitingForItems = waiting;
  summary.notPushed = [...stillHeld.values()].reduce((a, b) => a + b, 0);
  summary.notPushedBy = [...stillHeld.keys()].sort();
}

/** Which of these item uids the hub's project holds. */
async function itemsOnHub(client: pg.Client, link: HubLink, uids: string[]): Promise<Set<string>> {
  if (uids.length === 0) return new Set();
  const { rows } = await client.query<{ uid: string }>('SELECT uid FROM arbiter.item_line WHERE project_id = $1 AND uid = ANY($2::text[])', [link.hubProjectId, [...new Set(uids)]]);
  return new Set(rows.map((r) => r.uid));
}
