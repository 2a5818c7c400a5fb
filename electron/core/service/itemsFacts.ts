// Where the items explorer's facts are read for the service. A label change refreshes its items' facts
// on this thread (review/itemFactsDelta.ts: a few rows, whatever the project's size). What must be read
// whole is read here for a project of at most FACTS_INLINE.items items (well under a second), and on a
// task worker for a larger one (a whole read of 10M items takes minutes): the first read and an import's
// items, answered meanwhile from the facts held, said `stale`; the review's project-wide part (its
// Dawid–Skene consensus), answered meanwhile with every per-item fact current and `reviewing`, which the
// facets it feeds say. One read per project and part at a time; a change during a read is read next.
import type { ItemPart, PeoplePart, ReviewPart } from '../review/itemFacts';
import { refreshPeoplePart } from '../review/itemFactsDelta';
import { requireProject } from '../store/projects';
import { runTask } from '../tasks/run';
import type { ServiceContext } from './context';
import { itemFactsOf, markOf, peekFacts, storeFacts, type FactsAnswer } from './itemsQuery';

/** Projects up to this many items read their facts inline (a test lowers it to read every project on a worker). */
export const FACTS_INLINE = { items: 100_000 };

type Part = { items: ItemPart; people: PeoplePart; review: ReviewPart };

export function itemFactsProvider({ db, jobs, options }: ServiceContext) {
  const reading = new Map<number, Promise<FactsAnswer>>();
  const reviewing = new Map<number, Promise<FactsAnswer>>();

  const part = async <P extends keyof Part>(project: { name: string }, which: P, n: number): Promise<Part[P]> => {
    const task = { kind: 'itemFacts' as const, project: project.name, part: which, n };
    return (await jobs.runTask({ dbPath: options.dbPath, task, inline: async () => runTask(db, task) as Promise<Part[P]> })) as Part[P];
  };

  /** Every part whole on a worker (the first read, an import's items, a change read whole). */
  const readOnWorker = (project: { id: number; name: string }): Promise<FactsAnswer> => {
    const running = reading.get(project.id);
    if (running) return running;
    const started = performance.now();
    const { cached, n, mark, itemsCurrent } = peekFacts(db, project);
    const promise = (async () => {
      // The review's part first, while this thread holds the least (its read peaks highest: itemsQuery.ts).
      const review = await part(project, 'review', n);
      const items = cached && itemsCurrent ? cached.items : await part(project, 'items', n);
      const people = await part(project, 'people', items.n);
      return { cached: storeFacts(db, project, items, people, review, mark), ms: performance.now() - started, stale: false };
    })().finally(() => reading.delete(project.id));
    reading.set(project.id, promise);
    return promise;
  };

  /** The review's part on a worker, put beside the people's part current when it comes back. */
  const reviewOnWorker = (project: { id: number; name: string }): Promise<FactsAnswer> => {
    const running = reviewing.get(project.id);
    if (running) return running;
    const started = performance.now();
    const mark = markOf(db, project.id);
    const promise = (async () => {
      const review = await part(project, 'review', peekFacts(db, project).n);
      const now = peekFacts(db, project).cached!;
      const sameItems = now.items.n === review.n;
      return { cached: sameItems ? storeFacts(db, project, now.items, now.people, review, mark) : now, ms: performance.now() - started, stale: !sameItems };
    })().finally(() => reviewing.delete(project.id));
    reviewing.set(project.id, promise);
    return promise;
  };

  /** `fresh`: wait for a current read rather than answer from older facts (an export, a selection). */
  return async (name: string, { fresh = false } = {}): Promise<FactsAnswer> => {
    const project = requireProject(db, name);
    const seen = peekFacts(db, project);
    if (seen.n <= FACTS_INLINE.items) return itemFactsOf(db, project);
    if (seen.cached && seen.labelsCurrent) return { cached: seen.cached, ms: 0, stale: false };
    if (!seen.cached || !seen.itemsCurrent) {
      const read = readOnWorker(project);
      return seen.cached && !fresh ? { cached: seen.cached, ms: 0, stale: true } : read;
    }
    // The items are current: the changed items' facts here, the review's part behind them.
    const started = performance.now();
    const refreshed = refreshPeoplePart(db, project.id, seen.cached.people, seen.n);
    if (!refreshed) {
      const read = readOnWorker(project);
      return fresh ? read : { cached: seen.cached, ms: 0, stale: true };
    }
    const held = storeFacts(db, project, seen.cached.items, refreshed.part, seen.cached.review, seen.cached.mark, refreshed.changed);
    const review = reviewOnWorker(project);
    return fresh ? review : { cached: held, ms: performance.now() - started, stale: false, reviewing: true };
  };
}
