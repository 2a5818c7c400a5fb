// Saved views through the team hub (hub migration 0004_views.sql): every sync offers this project's
// views (saves and tombstones; the hub keeps each (id, updated_at) once) and takes the hub's newest row of
// each name. A row from the hub is untrusted: it passes the same checks as a save here (shared/api/items.ts
// savedViewSchema, the query language), an updated_at more than a day after the hub took the row is
// refused (it would pin the view against every later save), and at most VIEWS_MAX rows are read, none
// longer than a view may be. Merging is the desktop's one rule (store/views.ts mergeView): the newest
// updated_at of a name wins, so the order of syncs never matters. PostgreSQL SQL only.
import type pg from 'pg';
import { savedViewSchema } from '../../../shared/api/items';
import { parseQuery, QueryError } from '../../../shared/itemQuery';
import type { Db } from '../store/db';
import type { HubLink } from '../store/hub';
import { mergeView, viewsChangedSince, type StoredView } from '../store/views';
import { writeNow } from '../store/write';
import type { Refusals } from './refusals';
import type { HubIdentity } from './roles';
import type { CheckedCounts } from './syncParts';

type Client = Pick<pg.ClientBase, 'query'>;

/** Views of a project a sync sends or reads at most. */
export const VIEWS_MAX = 1000;
const DAY_MS = 86_400_000;

/** Offers this desktop's views under the login role's uuid; the hub keeps what it has. */
export async function pushViews(db: Db, client: Client, link: HubLink, me: HubIdentity | null, counts: CheckedCounts): Promise<void> {
  if (!me) return;
  const local = viewsChangedSince(db, link.projectId, '').slice(-VIEWS_MAX);
  if (local.length === 0) return;
  const rows = local.map((v) => ({ id: v.id, name: v.name, query: v.query, sort: v.sort, author: v.author, updated_at: v.updatedAt, deleted: v.deleted }));
  const result = await client.query(
    `INSERT INTO arbiter.item_view (id, project_id, name, query, sort, author, updated_at, deleted, annotator_uuid)
     SELECT v->>'id', $1, v->>'name', v->>'query', v->'sort', v->>'author', v->>'updated_at', (v->>'deleted')::boolean, $3::uuid
     FROM jsonb_array_elements($2::jsonb) v
     ON CONFLICT (project_id, id, updated_at) DO NOTHING`,
    [link.hubProjectId, JSON.stringify(rows), me.uuid],
  );
  counts.pushed += result.rowCount ?? 0;
}

interface HubViewRow {
  id: string;
  name: string;
  query: string;
  sort: string;
  author: string | null;
  updated_at: string;
  deleted: boolean;
  pushed_at: Date;
}

/** Why a view row from the hub is refused, or null; and the view it is when it is not. */
export function checkedHubView(row: HubViewRow): { view: StoredView } | { problem: string } {
  let sort: unknown;
  try {
    sort = JSON.parse(row.sort);
  } catch {
    return { problem: `the view "${String(row.name).slice(0, 120)}": its sort is not JSON` };
  }
  const parsed = savedViewSchema.safeParse({ id: row.id, name: row.name, query: row.query, sort, updatedAt: row.updated_at, author: row.author });
  if (!parsed.success) return { problem: `the view "${String(row.name).slice(0, 120)}": ${parsed.error.issues[0]!.path.join('.') || 'view'}: ${parsed.error.issues[0]!.message}` };
  try {
    parseQuery(parsed.data.query);
  } catch (error) {
    if (error instanceof QueryError) return { problem: `the view "${parsed.data.name}": its query cannot be read (${error.message})` };
    throw error;
  }
  if (Date.parse(parsed.data.updatedAt) > row.pushed_at.getTime() + DAY_MS) return { problem: `the view "${parsed.data.name}": saved at ${parsed.data.updatedAt}, more than a day after the hub took it` };
  return { view: { ...parsed.data, deleted: row.deleted === true } };
}

/** The hub's newest row of each view name, checked, merged here (the newest of a name wins). */
export async function pullViews(db: Db, client: Client, link: HubLink, counts: CheckedCounts, refusals: Refusals): Promise<void> {
  const { rows } = await client.query<HubViewRow>(
    `SELECT DISTINCT ON (name) id, name, query, sort::text AS sort, author, updated_at, deleted, pushed_at
     FROM arbiter.item_view WHERE project_id = $1 AND char_length(name) <= 120 AND char_length(query) <= 2000 AND octet_length(sort::text) <= 200
     ORDER BY name, updated_at DESC, id DESC LIMIT $2`,
    [link.hubProjectId, VIEWS_MAX],
  );
  const views: StoredView[] = [];
  for (const row of rows) {
    const checked = checkedHubView(row);
    if ('problem' in checked) {
      counts.refused++;
      refusals.note('view', checked.problem);
    } else views.push(checked.view);
  }
  if (views.length === 0) return;
  const written = writeNow(db, () => views.filter((v) => mergeView(db, link.projectId, v)).length);
  counts.pulled += written;
}
