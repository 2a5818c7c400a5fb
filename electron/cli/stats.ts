// `arbiter stats --project NAME [--json]`: progress, agreement, consensus, people, models and the queue's
// counts (docs/cli.md). Its own module, loaded when asked, so its start-up loads the store and review only.
import { taskLine } from '../../shared/api';
import { projectStats, projects } from '../core/service/storeDirect';
import { parse, withDb, type CliIo } from './io';
import { requireProjectName } from './options';
import { projectReview, reviewLines } from './review';

export async function statsCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, { project: { type: 'string' }, json: { type: 'boolean', default: false } });
  const project = requireProjectName(values);
  return withDb(values, async (db) => {
    const row = projects.requireProject(db, project);
    // The review reads every current label of people once; the pairwise counts come from that pass.
    const { report, pairwiseChoices } = projectReview(db, project);
    const stats = projectStats(db, row, pairwiseChoices);
    if (values.json) io.out(JSON.stringify({ ...stats, review: report }));
    else {
      // Per task, each over its own items (pairs, three or more responses, single responses).
      io.out(`${stats.project}: ${stats.items} item${stats.items === 1 ? '' : 's'}; labeled ${taskLine(stats.tasks)}`);
      io.out(`  label revisions ${stats.labels.revisions}; current human pair labels ${stats.labels.current} ${JSON.stringify(stats.labels.byChoice)}`);
      for (const a of stats.annotators) io.out(`  ${a.kind.padEnd(6)} ${a.name} ${a.task}: ${a.labeled}`);
      for (const line of reviewLines(report)) io.out(line);
    }
    return 0;
  });
}
