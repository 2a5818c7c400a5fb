// Project figures for `arbiter stats`: counts and progress per task now; agreement later. Run as a read (a
// WAL snapshot), never while an annotator waits on the same thread for something else.
import { projectTasks, type ProjectStats } from '../../../shared/api';
import type { Db } from './db';
import { countResponses, VISIBLE } from './items';
import { VISIBLE_LABEL } from './labels';
import { countLabeled, type ProjectRow } from './projects';
import { annotatorsByTask, labeledByTask, projectShapes, stepsOnMultiResponseItems } from './shapes';

/**
 * `pairwiseChoices`: the current pairwise labels of people by choice where the caller has counted them
 * already (`arbiter stats` reads every one of them for the review), so they are not counted again.
 */
export function projectStats(db: Db, project: ProjectRow, pairwiseChoices?: Record<string, number>): ProjectStats {
  return db.transaction(() => {
    const params = { project: project.id };
    const items = project.item_count;
    const labeled = countLabeled(db, project.id);
    const shapes = projectShapes(db, project.id);
    const byTask = labeledByTask(db, project.id);
    const others = shapes.pairs + shapes.ranked > 0 && (byTask.steps ?? 0) > 0 ? stepsOnMultiResponseItems(db, project.id) : 0;
    const revisions = revisionCount(db, params);
    const byChoiceRows = pairwiseChoices
      ? Object.entries(pairwiseChoices)
          .sort(([a], [b]) => (a < b ? -1 : 1)) // as GROUP BY orders them
          .map(([choice, n]) => ({ choice, n }))
      : (db
          .prepare(
            `SELECT h.choice, COUNT(*) AS n FROM label_head h JOIN item i ON i.id = h.item_id JOIN annotator a ON a.id = h.annotator_id
             WHERE i.project_id = @project AND ${VISIBLE} AND h.task = 'pairwise' AND h.done = 1 AND a.kind = 'human' GROUP BY h.choice`,
          )
          .all(params) as { choice: string; n: number }[]);
    const annotators = projectAnnotators(db, project.id);
    const byChoice = Object.fromEntries(byChoiceRows.map((r) => [r.choice, r.n]));
    const current = byChoiceRows.reduce((sum, r) => sum + r.n, 0);
    return {
      project: project.name,
      items,
      responses: countResponses(db, project.id),
      labeled,
      progress: shapes.pairs === 0 ? 0 : labeled / shapes.pairs,
      tasks: projectTasks(shapes, byTask, others),
      labels: { revisions, current, byChoice },
      annotators,
      source: { labeled: annotators.filter((a) => a.kind === 'source').reduce((sum, a) => sum + a.labeled, 0) },
    };
  }).deferred();
}

/**
 * Label revisions of the project's visible items that readers see. While no label merge is pending every
 * revision is seen, so the count reads the label_by_item index alone; the merge rule (VISIBLE_LABEL) needs
 * each revision's row (its import_id), 300k row reads in bench:review's project.
 */
function revisionCount(db: Db, params: { project: number }): number {
  const merging = db.prepare("SELECT 1 FROM label_import WHERE state = 'pending' LIMIT 1").pluck().get() !== undefined;
  const seen = merging ? `AND ${VISIBLE_LABEL}` : '';
  return db.prepare(`SELECT COUNT(*) FROM label l JOIN item i ON i.id = l.item_id WHERE i.project_id = @project AND ${VISIBLE} ${seen}`).pluck().get(params) as number;
}

/** Who has judged items of a project, per task, and how many: from the progress counters, without a scan. */
export function projectAnnotators(db: Db, projectId: number): ProjectStats['annotators'] {
  return annotatorsByTask(db, projectId);
}
