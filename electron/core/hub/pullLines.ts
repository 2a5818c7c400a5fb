// The pull of a sync: the hub's revision lines after the pull watermark, and the deferred ones again,
// read in batches bounded in rows and in bytes (a line longer than recordMaxBytes is measured on the hub
// and never sent), each line read as a labels file's line is (its record bounds), named after the hub's
// annotator row of its uuid, and merged a slice at a time through the labels merge (sync.ts says the
// order and the watermarks). What is refused, too long, or dropped from the deferred is noted in the
// sync's Refusals; lines that cannot merge yet are deferred, at most hubDeferredMax of them, for at most
// hubDeferredMaxAgeMs.
import type pg from 'pg';
import { importLabelsLines } from '../formats/exchange/labels';
import { parseJson, recordBounds } from '../formats/import/prepare';
import { RecordError } from '../formats/types';
import { formatBytes, limit } from '../base/limits';
import { nameAfterHub } from '../store/annotators';
import type { Db } from '../store/db';
import { deferredRevisions, dropDeferredBefore, knownLabelIds, setPulledSeq, settleDeferred, type HubLink } from '../store/hub';
import { lastingItemResolver } from '../store/items';
import type { HubAddress } from './connect';
import type { Refusals } from './refusals';

/**
 * Revisions read, encoded or merged here at a time, between yields: a few ms of work each, so the
 * thread that saves labels (the app's service) is never held long by a sync in the same process.
 */
export const SLICE = 500;

/** What a merge counts in the sync's summary. */
export interface MergeCounts {
  pulled: number;
  alreadyHere: number;
  conflicts: number;
}

/** A revision line as read from the hub: its text (null when longer than recordMaxBytes: left unread), its length, and the name of the hub's annotator row of its uuid (null: no person's). */
interface HubLine {
  hubSeq: number;
  text: string | null;
  bytes: number;
  name: string | null;
}

export type Merger = (rows: HubLine[]) => Promise<{ settled: number[]; deferred: { hubSeq: number; reason: string }[] }>;

/**
 * Merges revision lines from the hub as one labels merge: lines stored here already are left out first
 * (this machine's own coming back), lines whose item this project lacks are deferred, and lines that
 * fail a check here are deferred with the check's words. Returns which hub_seqs are done for good.
 */
export function lineMerger(db: Db, link: HubLink, project: string, address: HubAddress, summary: MergeCounts, refusals: Refusals, isCancelled?: () => boolean): Merger {
  // One resolver for the whole sync, read again only when the project's items change: made afresh for
  // each slice (here and in the merge), it read every item's external id twice per 500 lines.
  const resolvers = lastingItemResolver(db, link.projectId);
  return async (rows) => {
    const settled: number[] = [];
    const deferred: { hubSeq: number; reason: string }[] = [];
    const parsed: PulledLine[] = [];
    for (const r of rows) {
      const line = pulledLine(r, refusals);
      if (line) parsed.push(line);
      else settled.push(r.hubSeq);
    }
    // People here under a name a line said (an older sync) take the hub's name for their uuid.
    const people = new Map<string, string>();
    for (const p of parsed) if (p.name !== null && typeof p.line.annotator_uuid === 'string') people.set(p.line.annotator_uuid, p.name);
    nameAfterHub(db, people);
    const known = knownLabelIds(db, parsed.map((p) => p.line.id));
    const resolve = resolvers();
    const toMerge: typeof parsed = [];
    for (const p of parsed) {
      if (known.has(p.line.id)) {
        summary.alreadyHere++;
        settled.push(p.hubSeq);
      } else if ((p.line.item_uid === undefined || resolve(p.line.item_uid) === null) && resolve(String(p.line.item)) === null) {
        deferred.push({ hubSeq: p.hubSeq, reason: `revision ${p.line.id} is for the item ${String(p.line.item)}, which this project lacks (join the project again to bring the hub's new items)` });
      } else toMerge.push(p);
    }
    if (toMerge.length === 0) return { settled, deferred };
    const first = toMerge[0]!.hubSeq;
    const last = toMerge[toMerge.length - 1]!.hubSeq;
    const result = await importLabelsLines(db, {
      project,
      fileName: `hub ${address.where}/${address.database} revisions ${first}–${last}`,
      lines: toMerge.map((p) => p.text),
      skipInvalid: true,
      isCancelled,
      resolveItem: resolve,
    });
    summary.pulled += result.added;
    summary.alreadyHere += result.duplicates;
    summary.conflicts += result.reusedIds;
    // Which lines were rejected, and why (the merge lists the first 100 reasons; every rejected line's text).
    const reasons = new Map(result.errors.map((e) => [e.line, e.reason]));
    const rejected = new Set(result.rejects);
    toMerge.forEach((p, i) => {
      if (!rejected.has(p.text)) settled.push(p.hubSeq);
      else deferred.push({ hubSeq: p.hubSeq, reason: `revision ${p.line.id}: ${reasons.get(i + 1) ?? 'does not pass the checks here'}` });
    });
    return { settled, deferred };
  };
}

type PulledLine = { hubSeq: number; text: string; line: { id: string; item: string | number; item_uid?: string; annotator_uuid?: string }; name: string | null };

/**
 * A line from the hub as a labels file's line is read (its record bounds: prepare.ts parseJson), named
 * after the hub's annotator row of its uuid, never after the name the line carries (anyone may write any
 * name in a line; the hub's row is who the uuid is), and as a person's. Null when refused (too long,
 * too deep, not an object): said, never merged, never tried again.
 */
function pulledLine(r: HubLine, refusals: Refusals): PulledLine | null {
  if (r.text === null) {
    refusals.note('tooLarge', `hub seq ${r.hubSeq}, ${formatBytes(r.bytes)}`);
    return null;
  }
  let line: Record<string, unknown>;
  try {
    line = parseJson(r.text, recordBounds());
  } catch (error) {
    if (!(error instanceof RecordError)) throw error;
    refusals.note('line', `hub seq ${r.hubSeq}: ${error.message}`);
    return null;
  }
  let text = r.text;
  if (r.name !== null && (line.annotator !== r.name || (line.annotator_kind !== undefined && line.annotator_kind !== 'human'))) {
    line.annotator = r.name;
    line.annotator_kind = 'human';
    text = JSON.stringify(line);
  }
  return { hubSeq: r.hubSeq, text, line: line as PulledLine['line'], name: r.name };
}

/**
 * Revisions after the pull watermark: read a batch at a time (bounded in rows and in bytes), merged a
 * slice at a time (each slice one labels merge, short and yielding), the watermark moved once a slice
 * merged, with the slice's deferred revisions while fewer than hubDeferredMax wait (the rest dropped, said).
 */
export async function pullRevisions(db: Db, client: pg.Client, link: HubLink, batch: number, merge: Merger, refusals: Refusals, step: () => Promise<void>): Promise<number> {
  let after = link.pulledSeq;
  const cap = limit('hubDeferredMax');
  for (;;) {
    const rows = await readLines(client, link.hubProjectId, { after }, batch);
    if (rows.length === 0) return after;
    for (let i = 0; i < rows.length; i += SLICE) {
      const slice = rows.slice(i, i + SLICE);
      const { deferred } = await merge(slice);
      after = slice[slice.length - 1]!.hubSeq;
      const { dropped, first } = setPulledSeq(db, link.projectId, after, deferred, cap);
      refusals.note('deferredCap', first ?? '', dropped);
      await step();
    }
  }
}

/**
 * Deferred revisions, tried again: those that merge now (or are here already) are forgotten; those set
 * aside longer than hubDeferredMaxAgeMs ago are dropped first (said), so revisions for items nobody
 * publishes are not read again at every sync forever.
 */
export async function retryDeferred(db: Db, client: pg.Client, link: HubLink, batch: number, merge: Merger, refusals: Refusals, step: () => Promise<void>): Promise<void> {
  const stale = dropDeferredBefore(db, link.projectId, new Date(Date.now() - limit('hubDeferredMaxAgeMs')).toISOString());
  refusals.note('deferredAge', stale.first ?? '', stale.dropped);
  let after = 0;
  for (;;) {
    const waiting = deferredRevisions(db, link.projectId, after, Math.min(batch, SLICE));
    if (waiting.length === 0) return;
    const rows = await readLines(client, link.hubProjectId, { seqs: waiting.map((w) => w.hubSeq) }, batch);
    const { settled, deferred } = await merge(rows);
    // The read stops at a byte budget: the waiting rows up to the last one read were answered; a deferred
    // revision among them gone from the hub (it never is: no one may delete one) is forgotten too.
    const reached = rows.length ? rows[rows.length - 1]!.hubSeq : waiting[waiting.length - 1]!.hubSeq;
    const found = new Set(rows.map((r) => r.hubSeq));
    settleDeferred(db, link.projectId, [...settled, ...waiting.filter((w) => w.hubSeq <= reached && !found.has(w.hubSeq)).map((w) => w.hubSeq)], deferred);
    after = reached;
    await step();
  }
}

/**
 * Revision lines of the project, in hub_seq order: those after `after`, or those of `seqs`; at most
 * `rows`, and no more text than hubPullBatchBytes (at least one line). A line longer than recordMaxBytes
 * is measured on the hub and never sent (text null). Each with the name of the hub's annotator row of its uuid.
 */
async function readLines(client: pg.Client, hubProjectId: number, which: { after: number } | { seqs: number[] }, rows: number): Promise<HubLine[]> {
  const max = limit('recordMaxBytes');
  const { rows: read } = await client.query<{ hub_seq: string; bytes: number; name: string | null; line: string | null }>(
    `SELECT s.hub_seq, s.bytes, a.name, CASE WHEN s.bytes <= $4 THEN r.line::text END AS line
     FROM (SELECT hub_seq, bytes, sum(CASE WHEN bytes <= $4 THEN bytes ELSE 0 END) OVER (ORDER BY hub_seq) AS upto
           FROM (SELECT hub_seq, octet_length(line::text) AS bytes FROM arbiter.revision
                 WHERE project_id = $1 AND ${'after' in which ? 'hub_seq > $2' : 'hub_seq = ANY($2::bigint[])'} ORDER BY hub_seq LIMIT $3) x) s
     JOIN arbiter.revision r ON r.hub_seq = s.hub_seq
     LEFT JOIN arbiter.annotator a ON a.uuid = r.annotator_uuid
     WHERE s.upto - CASE WHEN s.bytes <= $4 THEN s.bytes ELSE 0 END < $5
     ORDER BY s.hub_seq`,
    [hubProjectId, 'after' in which ? which.after : which.seqs, rows, max, limit('hubPullBatchBytes')],
  );
  return read.map((r) => ({ hubSeq: Number(r.hub_seq), text: r.line, bytes: r.bytes, name: r.name }));
}
