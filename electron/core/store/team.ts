// Where the team stands, from this machine's SQLite file: per human annotator of a project, the items
// they have a current judgement on (the progress counters, no scan) and the revisions saved here that
// have not gone up to the hub yet (this machine's own revisions after the push watermark: saved here,
// so with no label import behind them, by a person). Short reads only; nothing here writes.
import type { Db } from './db';

export interface TeamFigureRow {
  name: string;
  uuid: string;
  labels: number;
  waiting: number;
}

/**
 * Per human annotator: items labeled (every task together) and revisions waiting to go up, i.e. saved
 * on this machine with a seq above `pushedSeq` (the hub link's push watermark; 0 when never pushed).
 */
export function teamFigures(db: Db, projectId: number, pushedSeq: number): TeamFigureRow[] {
  const done = db
    .prepare(
      `SELECT a.id, a.name, a.uuid, SUM(p.done) AS labels FROM progress p JOIN annotator a ON a.id = p.annotator_id
       WHERE p.project_id = ? AND a.kind = 'human' GROUP BY a.id`,
    )
    .all(projectId) as { id: number; name: string; uuid: string; labels: number }[];
  const waiting = db
    .prepare(
      `SELECT a.id, a.name, a.uuid, COUNT(*) AS waiting FROM label l CROSS JOIN item i ON i.id = l.item_id CROSS JOIN annotator a ON a.id = l.annotator_id
       WHERE l.seq > ? AND i.project_id = ? AND l.import_id IS NULL AND a.kind = 'human' GROUP BY a.id`,
    )
    .all(pushedSeq, projectId) as { id: number; name: string; uuid: string; waiting: number }[];
  // Revisions a sync held (another person's, on a shared desktop: migration 0009) wait too.
  const held = db
    .prepare(
      `SELECT a.id, a.name, a.uuid, COUNT(*) AS waiting FROM hub_held h JOIN label l ON l.seq = h.seq JOIN annotator a ON a.id = l.annotator_id
       WHERE h.project_id = ? GROUP BY a.id`,
    )
    .all(projectId) as { id: number; name: string; uuid: string; waiting: number }[];
  const rows = new Map<number, TeamFigureRow>();
  for (const r of done) rows.set(r.id, { name: r.name, uuid: r.uuid, labels: r.labels, waiting: 0 });
  for (const r of [...waiting, ...held]) {
    const row = rows.get(r.id) ?? { name: r.name, uuid: r.uuid, labels: 0, waiting: 0 };
    row.waiting += r.waiting;
    rows.set(r.id, row);
  }
  return [...rows.values()].filter((r) => r.labels > 0 || r.waiting > 0).sort((a, b) => a.name.localeCompare(b.name));
}

/** A project's name now (it may have been renamed since a sync started), or undefined once it is gone. */
export function projectNameOf(db: Db, projectId: number): string | undefined {
  return (db.prepare('SELECT name FROM project WHERE id = ?').get(projectId) as { name: string } | undefined)?.name;
}
