// Which items the labeling screens walk: Compare items with two responses, Rank items with three or more,
// Verdict items with one. nextItem with the screen's task ('pairwise' / 'ranking' / 'verdict') answers items
// of that shape only, skipping those this annotator has judged for the task. The shape is checked here again: an
// older host (nextItem without the shape filter) gets the same walk, skipping an item of another shape
// by the items table's keyset pages (which carry each item's response count), a page per 200 items.
import type { ItemListRow, ItemView } from '../../../../shared/api';
import type { LabelRevision, Verdict } from '../../../../shared/domain';
import type { RegionMark } from '../../../../shared/regions';
import { api } from '../../api';

export type Shape = 'pairwise' | 'ranking' | 'verdict';

/** A saved view walked as the queue ("Label these next", issue 22 §5): nextItem's viewId, its id. */
const inView = (viewId: string | undefined) => (viewId === undefined ? {} : { viewId });

/** The id of the project's saved view of this name (the address names it), or null when there is none. */
export async function viewIdOf(project: string, name: string): Promise<string | null> {
  const views = await api.listViews({ project });
  return views.find((v) => v.name === name)?.id ?? null;
}

export const fitsShape = (shape: Shape, responses: number): boolean => (shape === 'ranking' ? responses >= 3 : shape === 'pairwise' ? responses === 2 : responses === 1);

const PAGE = 200;

/** The first item of the shape strictly after `afterSeq` (before it, going back), labeled or not. */
export async function findRow(project: string, shape: Shape, afterSeq: number | undefined, direction: 'next' | 'previous'): Promise<ItemListRow | null> {
  let from = afterSeq;
  for (;;) {
    const page = await api.listItems({ project, filter: 'all', order: direction === 'next' ? 'first' : 'last', afterSeq: from, limit: PAGE });
    const row = page.rows.find((r) => fitsShape(shape, r.responses));
    if (row) return row;
    const last = page.rows[page.rows.length - 1];
    if (page.next === null || !last) return null;
    from = page.next;
  }
}

/**
 * The next item of the shape without this annotator's judgement for the task, after `afterSeq` in the
 * walk's order (the project's labeling order, or a saved view's) and then around from its start, as the
 * host walks. `skip` passes over items whose save is still on its way (the host does not know them as
 * judged yet); `skipped`, when given, collects the ids it passed over so. An item met twice ends the walk
 * (every item left is skipped).
 */
export async function nextUnjudged(
  project: string,
  annotator: string,
  shape: Shape,
  afterSeq: number | undefined,
  skip: (itemId: number) => boolean = () => false,
  viewId?: string,
  skipped?: number[],
): Promise<ItemView | null> {
  const met = new Set<number>();
  let pos = afterSeq ?? -1;
  // Each round moves past at least one item; the bound only stops a host that answers nonsense.
  for (let round = 0; round < 100_000; round++) {
    const found = await api.nextItem({ project, annotator, afterSeq: pos, task: shape, unlabeledOnly: true, ...inView(viewId) });
    if (!found || met.has(found.id)) return null;
    met.add(found.id);
    if (fitsShape(shape, found.responses.length)) {
      if (!skip(found.id)) return found;
      skipped?.push(found.id);
      pos = found.seq;
      continue;
    }
    // A host without the shape filter answered another shape: on to the next row of this one.
    const row = await findRow(project, shape, found.seq, 'next');
    if (!row) return null;
    pos = row.seq - 1;
  }
  return null;
}

/** The item of the shape next to `afterSeq` in a direction, judged or not (→ / ←). */
export async function neighbourOfShape(project: string, annotator: string, shape: Shape, afterSeq: number | undefined, direction: 'next' | 'previous', viewId?: string): Promise<ItemView | null> {
  const found = await api.nextItem({ project, annotator, afterSeq, direction, task: shape, unlabeledOnly: false, ...inView(viewId) });
  if (!found || fitsShape(shape, found.responses.length)) return found;
  const row = await findRow(project, shape, afterSeq, direction);
  return row ? api.getItem({ project, annotator, itemId: row.id }) : null;
}

/** This annotator's current judgement of the task on an item (the newest revision), if any. */
export interface Mine {
  ranking: number[][] | null;
  verdict: Verdict | null;
  rationale: string;
  /** Region marks on the item's images, kept in the judgement's revision. */
  regions?: RegionMark[];
}

export function mineFrom(history: LabelRevision[], annotator: string, shape: Shape): Mine | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const r = history[i]!;
    if (r.annotator !== annotator || r.task !== shape) continue;
    const regions = r.body.regions ?? [];
    if (shape === 'pairwise') return null;
    if (shape === 'ranking') return r.ranking ? { ranking: r.ranking, verdict: null, rationale: r.body.rationale ?? '', regions } : null;
    return r.choice === 'good' || r.choice === 'bad' ? { ranking: null, verdict: r.choice, rationale: r.body.rationale ?? '', regions } : null;
  }
  return null;
}
