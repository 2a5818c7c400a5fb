// The order the labeling loop walks a project in, for one annotator (the project's `order`, `overlap`
// and `team` settings): source order, a random order seeded per annotator, or most uncertain first. The
// uncertain order is a list computed by a job on a task worker; until it is ready the loop walks source
// order rather than make the annotator wait. A finished scoring job or new items make it stale.
import type { ProjectSettings } from '../../../shared/domain';
import { assignedTo, fnv1a } from '../../../shared/order';
import type { Walk } from '../store/nextItem';
import { projectSettings, type ProjectRow } from '../store/projects';
import { runTask } from '../tasks/run';
import type { ServiceContext } from './context';

export type WalkFor = (project: ProjectRow, annotator: string, visibleSeq: number) => Walk;

export function labelingOrder({ db, jobs, events, options }: ServiceContext) {
  const lists = new Map<number, { visibleSeq: number; walk?: Walk['order'] }>();
  events.on('event', (event: { type?: string; job?: { kind: string; state: string } }) => {
    if (event.type === 'job' && event.job?.kind === 'score' && event.job.state !== 'running') lists.clear();
  });

  const uncertainList = (project: ProjectRow, visibleSeq: number): Walk['order'] => {
    const cached = lists.get(project.id);
    if (cached && cached.visibleSeq === visibleSeq) return cached.walk ?? { kind: 'source' };
    const entry: { visibleSeq: number; walk?: Walk['order'] } = { visibleSeq };
    lists.set(project.id, entry);
    const task = { kind: 'uncertainOrder' as const, project: project.name };
    void jobs
      .runTask({ dbPath: options.dbPath, task, inline: () => runTask(db, task) as Promise<Int32Array> })
      .then(
        (itemIds) => {
          entry.walk = { kind: 'list', itemIds, position: new Map(Array.from(itemIds, (id, i) => [id, i])) };
        },
        () => lists.delete(project.id),
      );
    return { kind: 'source' };
  };

  /** The walk for an annotator in a project; `visibleSeq` says whether a cached order is still whole. */
  const walkFor: WalkFor = (project, annotator, visibleSeq) => {
    const settings: ProjectSettings = projectSettings(project);
    const order: Walk['order'] =
      settings.order === 'random'
        ? { kind: 'random', seed: fnv1a(`${annotator}\u0000${project.name}`) }
        : settings.order === 'uncertain'
          ? uncertainList(project, visibleSeq)
          : { kind: 'source' };
    const { team, overlap } = settings;
    return { order, assigned: (uid) => assignedTo(annotator, uid, team, overlap) };
  };
  return walkFor;
}
