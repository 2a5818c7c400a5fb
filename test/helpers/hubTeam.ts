// A team on a throwaway PostgreSQL hub, for the sync tests: a hub database made and initialised, login
// roles granted, a publisher's SQLite file holding N items (and a rubric) published, and desktops (their
// own SQLite files) that join it, each with its person's local annotator under the uuid the hub grants.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { runCli } from '../../electron/cli/main';
import { importFile } from '../../electron/core/formats';
import { connectHub } from '../../electron/core/hub/connect';
import { joinProject } from '../../electron/core/hub/join';
import { publishProject } from '../../electron/core/hub/publish';
import { grant, loginRoleFor, type HubRole } from '../../electron/core/hub/roles';
import { initHub } from '../../electron/core/hub/schema';
import { ArbiterService } from '../../electron/core/service';
import { ensureAnnotator } from '../../electron/core/store/annotators';
import { openDb, type Db } from '../../electron/core/store/db';
import type { PgCluster } from './postgres';

export const PROJECT = 'team';

/** Runs the CLI in this process, capturing what it prints. */
export async function cli(argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err };
}

export interface Desktop {
  name: string;
  dbPath: string;
  db: Db;
  service: ArbiterService;
  /** The hub address this person syncs with (their own login role, no password: a trust cluster). */
  url: string;
}

/** Item i: two numbered three-step answers, so pairs, steps and ratings all apply. */
export function teamItems(n: number): string {
  return Array.from({ length: n }, (_, i) =>
    JSON.stringify({ id: `q${i}`, prompt: `Question ${i}: what is ${i} + ${i}?`, responses: [{ text: `1. Take ${i}.\n2. Add ${i}.\n3. So ${2 * i}.` }, { text: `1. Take ${i}.\n2. Double it.\n3. So ${2 * i + 1}.` }] }),
  ).join('\n');
}

export const QUALITY = [{ key: 'correctness', description: 'Is it right?', scale: { type: 'likert', min: 1, max: 5 } }];

/**
 * Makes hub database `database` in the cluster (its schema initialised), the publisher's desktop with
 * `items` items and the rubric "quality" published by `lead`, and joins `people` (each granted with the
 * uuid of the local annotator their desktop has).
 */
export async function setUpTeam(
  cluster: PgCluster,
  dir: string,
  database: string,
  items: number,
  people: { name: string; role: HubRole }[],
  /** Project settings the lead sets before publishing (overlap, team, order…). */
  settings?: Record<string, unknown>,
): Promise<{ publisher: Desktop; desktops: Desktop[]; admin: pg.Client }> {
  const postgres = await connectHub(cluster.url());
  await postgres.query(`CREATE DATABASE ${database}`);
  await postgres.end();
  const admin = await connectHub(cluster.url(undefined, undefined, database));
  const where = `127.0.0.1:${cluster.port}`;
  await initHub(admin, where);
  const desktop = (name: string): Desktop => {
    const dbPath = join(dir, `${database}-${name}.db`);
    const db = openDb(dbPath);
    return { name, dbPath, db, service: new ArbiterService(db, { dbPath, transport: 'http', version: 'test', defaultAnnotator: name }), url: cluster.url(loginRoleFor(name), undefined, database) };
  };

  const publisher = desktop('lead');
  const file = join(dir, `${database}-items.jsonl`);
  writeFileSync(file, `${teamItems(items)}\n`);
  await importFile(publisher.db, { path: file, project: PROJECT, format: 'arbiter', createProject: true });
  await publisher.service.dispatch('saveRubric', { project: PROJECT, name: 'quality', criteria: QUALITY as never });
  if (settings) await publisher.service.dispatch('updateProjectSettings', { project: PROJECT, settings: settings as never });
  await grant(admin, where, { annotator: 'lead', role: 'lead', uuid: ensureAnnotator(publisher.db, 'lead', 'human').uuid, password: null });
  const leadClient = await connectHub(publisher.url);
  await publishProject(publisher.db, leadClient, PROJECT, { where, url: publisher.url });
  await leadClient.end();

  const desktops: Desktop[] = [];
  for (const person of people) {
    const d = desktop(person.name);
    // The person's desktop has their annotator (as after their first label); the lead grants that uuid.
    const uuid = ensureAnnotator(d.db, person.name, 'human').uuid;
    await grant(admin, where, { annotator: person.name, role: person.role, uuid, password: null });
    const client = await connectHub(d.url);
    await joinProject(d.db, client, PROJECT, { where, url: d.url });
    await client.end();
    desktops.push(d);
  }
  return { publisher, desktops, admin };
}

/** A desktop's item ids by external id. */
export function itemIds(d: Desktop): Map<string, number> {
  const rows = d.db.prepare('SELECT i.external_id, i.id FROM item i JOIN project p ON p.id = i.project_id WHERE p.name = ?').raw().all(PROJECT) as [string, number][];
  return new Map(rows);
}

/** Everything two desktops must agree on after syncing, keyed by content (uids, uuids), never local ids. */
export function labelState(db: Db) {
  const revisions = db
    .prepare(
      `SELECT l.id, i.uid AS item, a.uuid AS annotator, a.kind, l.task, l.created_at, l.choice, l.ranking, l.strength, l.shown_order, l.body
       FROM label l JOIN item i ON i.id = l.item_id JOIN annotator a ON a.id = l.annotator_id ORDER BY l.id`,
    )
    .all()
    .map((r) => {
      const row = r as Record<string, unknown> & { id: string; body: string };
      return { ...row, body: canonical(JSON.parse(row.body)) };
    });
  const current = db
    .prepare(
      `SELECT i.uid AS item, a.uuid AS annotator, h.task, l.id, h.done, h.choice FROM label_head h JOIN label l ON l.seq = h.label_seq
       JOIN item i ON i.id = h.item_id JOIN annotator a ON a.id = h.annotator_id ORDER BY i.uid, a.uuid, h.task`,
    )
    .all();
  const adjudications = db
    .prepare(`SELECT i.uid AS item, d.task, l.id AS label, d.note, d.created_at FROM adjudication d JOIN label l ON l.seq = d.label_seq JOIN item i ON i.id = d.item_id ORDER BY i.uid, d.task, l.id`)
    .all();
  const progress = db.prepare(`SELECT a.uuid, p.task, p.done FROM progress p JOIN annotator a ON a.id = p.annotator_id WHERE p.done <> 0 ORDER BY a.uuid, p.task`).all();
  const segmentations = db.prepare('SELECT i.uid AS item, s.response_idx, s.version, s.steps FROM segmentation s JOIN item i ON i.id = s.item_id ORDER BY 1, 2, 3').all();
  const rubrics = db.prepare('SELECT r.name, v.version, v.hash FROM rubric_version v JOIN rubric r ON r.id = v.rubric_id ORDER BY 1, 2').all();
  return { revisions, current, adjudications, progress, segmentations, rubrics };
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]));
  return value;
}

/** The review queue of every task, rows by external id (local item ids and seqs differ between desktops). */
export async function reviewQueues(d: Desktop) {
  const out: Record<string, unknown[]> = {};
  for (const task of ['pairwise', 'steps'] as const) {
    const { rows } = await d.service.dispatch('reviewQueue', { project: PROJECT, task, limit: 500 } as never) as { rows: { itemId: number; seq: number; externalId: string | null }[] };
    out[task] = rows.map(({ itemId: _id, seq: _seq, ...rest }) => rest).sort((a, b) => String(a.externalId).localeCompare(String(b.externalId)));
  }
  return out;
}
