// Gold marks through the team hub (hub schema 5, arbiter.gold_mark): a lead's marks made here go up (the
// hub's row-level security takes them from a lead only, under their own uuid); everyone's come down and
// are checked again here before they count: the shape (the same rules as a mark made here), an item this
// desktop holds, and a uuid that is a lead's on the hub. A mark failing any is refused and named in the
// sync's refusals; it never becomes gold here.
import type pg from 'pg';
import { z } from 'zod';
import { TASKS } from '../../../shared/domain';
import { ensureAnnotatorByUuid } from '../store/annotators';
import type { Db } from '../store/db';
import { adoptGoldMarks, pulledGoldSeq, setGoldMarkHubSeq, setPulledGoldSeq, unsentGoldMarks, type PulledGoldMark } from '../store/gold';
import type { HubLink } from '../store/hub';
import { writeNow } from '../store/write';
import type { Refusals } from './refusals';
import type { HubIdentity } from './roles';

type Client = Pick<pg.ClientBase, 'query'>;

/** The most marks one pull reads at a time. */
const PAGE = 5000;

export interface GoldCounts {
  pushed: number;
  pulled: number;
  /** Own marks the hub would not take (made by someone not a lead there): kept here, unsent. */
  held: number;
}

const pulledMark = z
  .object({
    hub_seq: z.coerce.number().int().positive(),
    id: z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
    item_uid: z.string().min(1).max(200),
    task: z.enum(['*', ...TASKS]),
    gold: z.boolean(),
    annotator_uuid: z.string().uuid(),
    created_at: z.string().datetime({ precision: undefined }),
    lead_name: z.string().min(1).max(80).nullable(),
    lead_role: z.string().nullable(),
  })
  .strict();

/** Sends this desktop's unsent marks: a lead's own, on items the hub holds (the rest stay here, unsent). */
export async function pushGoldMarks(db: Db, client: Client, link: HubLink, me: HubIdentity | null, counts: GoldCounts): Promise<void> {
  for (let after = 0; ; ) {
    const marks = unsentGoldMarks(db, link.projectId, 1000, after);
    if (!marks.length) return;
    after = marks[marks.length - 1]!.seq;
    const own = me?.role === 'lead' ? marks.filter((m) => m.annotatorUuid.toLowerCase() === me.uuid.toLowerCase()) : [];
    const onHub = own.length
      ? new Set((await client.query<{ uid: string }>('SELECT uid FROM arbiter.item_line WHERE project_id = $1 AND uid = ANY($2::text[])', [link.hubProjectId, own.map((m) => m.itemUid)])).rows.map((r) => r.uid))
      : new Set<string>();
    const mine = own.filter((m) => onHub.has(m.itemUid)).map(({ seq: _seq, ...m }) => m);
    counts.held += marks.length - mine.length;
    if (mine.length) {
      const { rows } = await client.query<{ id: string; hub_seq: string }>(
        `WITH sent AS (
           INSERT INTO arbiter.gold_mark (id, project_id, item_uid, task, gold, annotator_uuid, created_at)
           SELECT m->>'id', $1, m->>'itemUid', m->>'task', (m->>'gold')::boolean, (m->>'annotatorUuid')::uuid, m->>'createdAt'
           FROM jsonb_array_elements($2::jsonb) m
           ON CONFLICT (id) DO NOTHING RETURNING id, hub_seq)
         SELECT id, hub_seq::text FROM sent
         UNION ALL SELECT g.id, g.hub_seq::text FROM arbiter.gold_mark g WHERE g.id IN (SELECT m->>'id' FROM jsonb_array_elements($2::jsonb) m)`,
        [link.hubProjectId, JSON.stringify(mine)],
      );
      writeNow(db, () => setGoldMarkHubSeq(db, rows.map((r) => ({ id: r.id, hubSeq: Number(r.hub_seq) }))));
      counts.pushed += mine.length;
    }
    if (marks.length < 1000) return;
  }
}

/** Takes the hub's new marks, each checked, and moves the watermark past them (refused ones too). */
export async function pullGoldMarks(db: Db, client: Client, link: HubLink, counts: GoldCounts, refusals: Refusals): Promise<void> {
  let after = pulledGoldSeq(db, link.projectId);
  for (;;) {
    const { rows } = await client.query<Record<string, unknown>>(
      `SELECT g.hub_seq, g.id, g.item_uid, g.task, g.gold, g.annotator_uuid::text AS annotator_uuid, g.created_at, a.name AS lead_name, a.role AS lead_role
       FROM arbiter.gold_mark g LEFT JOIN arbiter.annotator a ON a.uuid = g.annotator_uuid
       WHERE g.project_id = $1 AND g.hub_seq > $2 ORDER BY g.hub_seq LIMIT $3`,
      [link.hubProjectId, after, PAGE],
    );
    if (!rows.length) return;
    const good: PulledGoldMark[] = [];
    for (const row of rows) {
      const parsed = pulledMark.safeParse(row);
      if (!parsed.success) {
        refusals.note('goldMark', `hub mark ${String(row.hub_seq)}: ${parsed.error.issues[0]?.path.join('.') ?? 'mark'}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
        continue;
      }
      const m = parsed.data;
      if (m.lead_role !== 'lead' || !m.lead_name) {
        refusals.note('goldMark', `hub mark ${m.hub_seq} names ${m.annotator_uuid}, who is not a lead on the hub`);
        continue;
      }
      good.push({ hubSeq: m.hub_seq, id: m.id, itemUid: m.item_uid, task: m.task, gold: m.gold, annotatorUuid: m.annotator_uuid, annotatorName: m.lead_name, createdAt: m.created_at });
    }
    const last = Number(rows[rows.length - 1]!.hub_seq);
    writeNow(db, () => {
      const result = adoptGoldMarks(db, link.projectId, good, (uuid, name) => ensureAnnotatorByUuid(db, uuid, name, 'human').id);
      counts.pulled += result.added;
      if (result.missingItems) refusals.note('goldMark', `${result.missingItems} mark(s) name items this desktop does not hold`, result.missingItems);
      setPulledGoldSeq(db, link.projectId, last);
    });
    after = last;
    if (rows.length < PAGE) return;
  }
}
