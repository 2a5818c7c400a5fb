// Where the items explorer's facts are read for the service: a project of at most FACTS_INLINE.items
// items on this thread before answering (well under a second); a larger one on a task worker (a whole
// read of 10M items takes minutes), answering meanwhile from the facts it has, said `stale`, or, the
// first time, once they are read. One read per project at a time; a change during a read is read next.
import type { ItemPart, LabelPart } from '../review/itemFacts';
import { requireProject } from '../store/projects';
import { runTask } from '../tasks/run';
import type { ServiceContext } from './context';
import { itemFactsOf, peekFacts, storeFacts, type FactsAnswer } from './itemsQuery';

/** Projects up to this many items read their facts inline (a test lowers it to read every project on a worker). */
export const FACTS_INLINE = { items: 100_000 };

export function itemFactsProvider({ db, jobs, options }: ServiceContext) {
  const reading = new Map<number, Promise<FactsAnswer>>();

  const readOnWorker = (project: { id: number; name: string }): Promise<FactsAnswer> => {
    const running = reading.get(project.id);
    if (running) return running;
    const started = performance.now();
    const { cached, n, mark, itemsCurrent } = peekFacts(db, project);
    const part = async <P extends 'items' | 'labels'>(which: P, count: number) => {
      const task = { kind: 'itemFacts' as const, project: project.name, part: which, n: count };
      return (await jobs.runTask({ dbPath: options.dbPath, task, inline: async () => runTask(db, task) as Promise<ItemPart | LabelPart> })) as P extends 'items' ? ItemPart : LabelPart;
    };
    const promise = (async () => {
      const items = cached && itemsCurrent ? cached.items : await part('items', n);
      const labels = await part('labels', items.n);
      return { cached: storeFacts(db, project, items, labels, mark), ms: performance.now() - started, stale: false };
    })().finally(() => reading.delete(project.id));
    reading.set(project.id, promise);
    return promise;
  };

  /** `fresh`: wait for a current read rather than answer from older facts (an export, a selection). */
  return async (name: string, { fresh = false } = {}): Promise<FactsAnswer> => {
    const project = requireProject(db, name);
    const seen = peekFacts(db, project);
    if (seen.n <= FACTS_INLINE.items) return itemFactsOf(db, project);
    if (seen.cached && seen.labelsCurrent) return { cached: seen.cached, ms: 0, stale: false };
    const read = readOnWorker(project);
    return seen.cached && !fresh ? { cached: seen.cached, ms: 0, stale: true } : read;
  };
}
