// The video route, one function for both transports: the browser host answers GET /videos/<ticket>
// (electron/host/videos.ts) and Electron's app:// protocol the same path (electron/main/protocol.ts). The
// page asks `videoAddress` for the ticket (shared/api/videos.ts): a <video> element sends no token header,
// so the ticket is the capability, random, bound to one video of one project, good for VIDEO_TICKET_MS and
// for every range request the element makes. Each request checks again that the project holds the video
// (project_video). Answers carry HTTP Range: 206 with the bytes asked for, 416 past the end, 200 whole.
// saveMoments adds marks in time (shared/moments.ts) to a judgement, as saveRegions adds marks on images.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { VIDEO_PREFIX } from '../../../shared/videos';
import type { ApiParsed } from '../../../shared/api';
import type { LabelRevision } from '../../../shared/domain';
import type { LabelBody } from '../../../shared/labelBodies';
import { canonicalJson } from '../../../shared/rubric';
import { invalidInput, notFound } from '../base/errors';
import { findAnnotator } from '../store/annotators';
import type { Db } from '../store/db';
import { currentLabel, getRevision, labelAppender } from '../store/labels';
import { findProject } from '../store/projects';
import { labelRubricVersion } from '../store/rubrics';
import { projectHoldsVideo } from '../store/videos';
import { writeNow } from '../store/write';
import { requireItem, requireProject } from './guards';
import { videoFile, videoStoreDir } from '../videos/store';
import type { FeatureHandlers, ServiceContext } from './context';

export { VIDEO_PREFIX };

/** How long a ticket plays its video (asked again after; the page asks once per item shown). */
export const VIDEO_TICKET_MS = 12 * 60 * 60 * 1000;

interface Ticket {
  projectId: number;
  sha256: string;
  expires: number;
}

const ticketsOf = new WeakMap<Db, { byTicket: Map<string, Ticket>; byVideo: Map<string, string> }>();

function tickets(db: Db) {
  let t = ticketsOf.get(db);
  if (!t) ticketsOf.set(db, (t = { byTicket: new Map(), byVideo: new Map() }));
  return t;
}

/** The address the page plays video `sha256` of `project` from: the same ticket while it is good. */
export function videoAddress(db: Db, project: string, sha256: string, now = Date.now()): { path: string } {
  const found = findProject(db, project);
  if (!found) throw notFound(`No project named "${project}".`);
  if (!projectHoldsVideo(db, found.id, sha256)) throw notFound(`Project "${project}" holds no video ${sha256}.`);
  const t = tickets(db);
  const key = `${found.id}:${sha256}`;
  const held = t.byVideo.get(key);
  if (held && t.byTicket.get(held)!.expires > now + 60_000) return { path: `${VIDEO_PREFIX}${held}` };
  for (const [id, ticket] of t.byTicket) if (ticket.expires <= now) t.byTicket.delete(id);
  const id = randomBytes(24).toString('base64url');
  t.byTicket.set(id, { projectId: found.id, sha256, expires: now + VIDEO_TICKET_MS });
  t.byVideo.set(key, id);
  return { path: `${VIDEO_PREFIX}${id}` };
}

export function videosHandlers({ db, events }: ServiceContext): FeatureHandlers<'videoAddress' | 'saveMoments'> {
  return {
    videoAddress: (input) => videoAddress(db, input.project, input.sha256),
    saveMoments: (input) => {
      const saved = saveMoments(db, input);
      if (saved) events.emit('event', { type: 'label', project: input.project, itemId: input.itemId, task: input.task });
      return saved;
    },
  };
}

/**
 * The marks in time and first failure of the annotator's current `task` judgement of the item, kept by a
 * new revision of it (a changed choice, ranking or verdict keeps them, as saveMoments keeps the choice);
 * the screens send them only through saveMoments.
 */
export function keptMoments(db: Db, itemId: number, annotatorId: number, task: 'pairwise' | 'ranking' | 'verdict'): Pick<LabelBody, 'moments' | 'first_failure'> {
  const current = currentLabel(db, itemId, annotatorId, task);
  if (!current) return {};
  const { moments, first_failure: failure } = current.body;
  return { ...(moments?.length ? { moments } : {}), ...(failure && Object.keys(failure).length ? { first_failure: failure } : {}) };
}

/**
 * Temporal marks and first failures on the annotator's current judgement: a new revision of it (same
 * choice, ranking, ratings) whose body carries them, as saveRegions adds region marks. `moments` replaces
 * the marks (absent: kept), `firstFailure` sets the letters it names. Null when the annotator has not judged
 * the item for `task`; the same marks again write nothing.
 */
export function saveMoments(db: Db, input: ApiParsed<'saveMoments'>): LabelRevision | null {
  const row = requireProject(db, input.project);
  const item = requireItem(db, row, input.itemId);
  const count = item.responses.length;
  const letters = new Set(item.responses.map((_, i) => String.fromCharCode(65 + i)));
  (input.moments ?? []).forEach((m, i) => {
    if (m.at >= count) throw invalidInput(`moments[${i}].at: item ${item.id} has ${count} response${count === 1 ? '' : 's'} (0 to ${count - 1}), not ${m.at}.`);
  });
  for (const letter of Object.keys(input.firstFailure ?? {})) if (!letters.has(letter)) throw invalidInput(`firstFailure.${letter}: item ${item.id} has no response ${letter}.`);
  const me = findAnnotator(db, input.annotator);
  const current = me ? currentLabel(db, item.id, me.id, input.task) : null;
  const judged = current && (input.task === 'ranking' ? current.ranking !== null : input.task === 'rubric' ? current.body.ratings !== undefined : current.choice !== null);
  if (!me || !current || !judged) return null;
  const { undo_of: _undone, moments: before, first_failure: failed, ...body } = current.body;
  const moments = input.moments ?? before ?? [];
  const failure = { ...(failed ?? {}), ...(input.firstFailure ?? {}) };
  const next = { ...body, ...(moments.length ? { moments } : {}), ...(Object.keys(failure).length ? { first_failure: failure } : {}) };
  if (canonicalJson(next) === canonicalJson({ ...body, ...(current.body.moments ? { moments: current.body.moments } : {}), ...(current.body.first_failure ? { first_failure: current.body.first_failure } : {}) })) return current;
  const { id } = writeNow(db, () =>
    labelAppender(db)({
      projectId: row.id,
      itemId: item.id,
      annotatorId: me.id,
      task: input.task,
      choice: current.choice,
      strength: current.strength,
      ranking: current.ranking,
      shownOrder: current.shownOrder,
      rubricVersionId: input.task === 'rubric' ? (labelRubricVersion(db, current.id)?.id ?? null) : null,
      body: next,
      done: true,
    }),
  );
  return getRevision(db, id);
}

export type VideoAnswer =
  | { status: 200 | 206; file: string; start: number; end: number; size: number; headers: Record<string, string> }
  | { status: 404 | 416; message: string; headers: Record<string, string> };

/** The content type of a stored video, from its first bytes (the container's magic). */
export function videoMime(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(64);
    const n = readSync(fd, head, 0, 64, 0);
    if (n >= 12 && head.toString('latin1', 4, 8) === 'ftyp') return head.toString('latin1', 8, 12) === 'qt  ' ? 'video/quicktime' : 'video/mp4';
    if (n >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return head.subarray(0, n).includes('webm', 0, 'latin1') ? 'video/webm' : 'video/x-matroska';
    return 'application/octet-stream';
  } finally {
    closeSync(fd);
  }
}

/** The byte range a Range header asks of a file of `size` bytes: [start, end] inclusive, 'bad' past the end, null for all. */
export function parseRange(header: string | undefined, size: number): [number, number] | 'bad' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges or another unit: the whole file (RFC 9110 lets a server ignore Range).
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'bad';
    return [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'bad';
  return [start, end];
}

const BASE_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
  // A ticket names one video's fixed bytes for its life: the browser may keep what it read (the next
  // item's first frames, loaded ahead, come from its cache).
  'cache-control': 'private, max-age=43200, immutable',
  'accept-ranges': 'bytes',
};

/** What to answer a request for `/videos/<ticket>` with this Range header. */
export function serveVideo(db: Db, imageStore: string, ticketId: string, range: string | undefined, now = Date.now()): VideoAnswer {
  const refuse = (status: 404 | 416, message: string, extra: Record<string, string> = {}): VideoAnswer => ({ status, message, headers: { ...BASE_HEADERS, ...extra } });
  const ticket = /^[\w-]{1,100}$/.test(ticketId) ? tickets(db).byTicket.get(ticketId) : undefined;
  if (!ticket || ticket.expires <= now) return refuse(404, 'This video address has expired; the page asks for a new one when the item is shown again.');
  if (!projectHoldsVideo(db, ticket.projectId, ticket.sha256)) return refuse(404, 'The project no longer holds this video.');
  const file = videoFile(videoStoreDir(imageStore), ticket.sha256);
  const size = statSync(file, { throwIfNoEntry: false })?.size;
  if (size === undefined) return refuse(404, `The video ${ticket.sha256.slice(0, 12)}… is missing from the video store beside the database.`);
  const type = videoMime(file);
  const asked = parseRange(range, size);
  if (asked === 'bad') return refuse(416, `The range ${range} is past the end of the video (${size} bytes).`, { 'content-range': `bytes */${size}` });
  const [start, end] = asked ?? [0, size - 1];
  const headers: Record<string, string> = { ...BASE_HEADERS, 'content-type': type, 'content-length': String(Math.max(0, end - start + 1)) };
  if (asked) headers['content-range'] = `bytes ${start}-${end}/${size}`;
  return { status: asked ? 206 : 200, file, start, end, size, headers };
}
