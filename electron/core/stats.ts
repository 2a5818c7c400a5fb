// Project figures for `arbiter stats` and the header: counts and progress now; agreement later.
import type { ProjectStats } from '../../shared/api';
import type { Db } from './store/db';
import { countLabeled, type findProject } from './store/projects';

type ProjectRow = NonNullable<ReturnType<typeof findProject>>;

export function projectStats(db: Db, project: ProjectRow): ProjectStats {
  const items = db.prepare('SELECT COUNT(*) FROM item WHERE project_id = ?').pluck().get(project.id) as number;
  const responses = db
    .prepare('SELECT COALESCE(SUM(json_array_length(responses)), 0) FROM item WHERE project_id = ?')
    .pluck()
    .get(project.id) as number;
  const labeled = countLabeled(db, project.id);
  const revisions = db
    .prepare('SELECT COUNT(*) FROM label l JOIN item i ON i.id = l.item_id WHERE i.project_id = ?')
    .pluck()
    .get(project.id) as number;
  const byChoiceRows = db
    .prepare(
      `SELECT h.choice, COUNT(*) AS n FROM label_head h JOIN item i ON i.id = h.item_id JOIN annotator a ON a.id = h.annotator_id
       WHERE i.project_id = ? AND h.choice IS NOT NULL AND a.kind = 'human' GROUP BY h.choice`,
    )
    .all(project.id) as { choice: string; n: number }[];
  const annotators = db
    .prepare(
      `SELECT a.name, a.kind, COUNT(*) AS labeled FROM label_head h JOIN item i ON i.id = h.item_id JOIN annotator a ON a.id = h.annotator_id
       WHERE i.project_id = ? AND h.choice IS NOT NULL GROUP BY a.id ORDER BY a.kind, a.name`,
    )
    .all(project.id) as { name: string; kind: string; labeled: number }[];
  const byChoice = Object.fromEntries(byChoiceRows.map((r) => [r.choice, r.n]));
  const current = byChoiceRows.reduce((sum, r) => sum + r.n, 0);
  return {
    project: project.name,
    items,
    responses,
    labeled,
    progress: items === 0 ? 0 : labeled / items,
    labels: { revisions, current, byChoice },
    annotators,
    source: { labeled: annotators.filter((a) => a.kind === 'source').reduce((sum, a) => sum + a.labeled, 0) },
  };
}
