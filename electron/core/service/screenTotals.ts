// Each screen's total for the header: the compare screen walks pairs, the rank screen items of three or
// more responses, the verdict and step screens single responses. Counting shapes reads every item, so a
// large project counts on a task worker (until then the header shows the project's size), and the counts
// are kept until an import changes the visible items.
import type { Task } from '../../../shared/domain';
import { shapeCounts, visibleSeqOf, type ShapeCounts } from '../store/items';
import type { ProjectRow } from '../store/projects';
import { runTask } from '../tasks/run';
import type { ServiceContext } from './context';

/** Projects up to this size are counted on the spot (a few milliseconds). */
const COUNT_INLINE = 50_000;

export function screenTotals({ db, jobs, options }: ServiceContext) {
  const cache = new Map<number, { visibleSeq: number; counts?: ShapeCounts }>();
  const countsOf = (project: ProjectRow): ShapeCounts | undefined => {
    const visibleSeq = visibleSeqOf(db, project.id);
    const cached = cache.get(project.id);
    if (cached && cached.visibleSeq === visibleSeq) return cached.counts;
    const entry: { visibleSeq: number; counts?: ShapeCounts } = { visibleSeq };
    cache.set(project.id, entry);
    if (project.item_count <= COUNT_INLINE) entry.counts = shapeCounts(db, project.id);
    else {
      const task = { kind: 'shapeCounts' as const, project: project.name };
      jobs.runTask({ dbPath: options.dbPath, task, inline: () => runTask(db, task) as Promise<ShapeCounts> }).then(
        (counts) => (entry.counts = counts),
        () => cache.delete(project.id),
      );
    }
    return entry.counts;
  };
  return (project: ProjectRow, task: Task): number => {
    const counts = countsOf(project);
    if (!counts) return project.item_count;
    if (task === 'pairwise') return counts.pairs;
    if (task === 'ranking') return counts.ranked;
    if (task === 'verdict' || task === 'steps') return counts.single;
    return project.item_count;
  };
}
