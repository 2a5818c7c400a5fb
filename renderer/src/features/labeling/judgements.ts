// What the labeling loop saves for each task, in one shape: the decision a screen makes (a pairwise choice,
// a ranking, a verdict), made into the task's save request with the fields every revision body carries
// (shared/labelBodies.ts: rationale, time_ms, prelabel_visible, regions), and read back from a stored
// revision or a save still in the outbox.
import type { ItemView } from '../../../../shared/api';
import type { Strength, Verdict } from '../../../../shared/domain';
import type { Choice } from '../../../../shared/domain';
import type { RegionMark } from '../../../../shared/regions';
import { uuidv7 } from '../../../../shared/ids';
import { api } from '../../api';
import { mineFrom, type Mine, type Shape } from './itemsOfShape';
import type { JudgementRequest } from './outbox';

export type { Mine, Shape } from './itemsOfShape';

/** A screen's decision about its item: the task's own part of a save. */
export type Decision = { choice: Choice; strength: Strength | null } | { ranking: number[][] } | { verdict: Verdict };

/** The item on screen with this annotator's current judgement of the loop's task. */
export interface Loaded {
  item: ItemView;
  mine: Mine | null;
}

/** What every revision of the loop carries besides its decision. */
export interface Common {
  project: string;
  annotator: string;
  rationale: string;
  regions: RegionMark[];
  timeMs: number;
  prelabelVisible: boolean;
}

export function requestOf(task: Shape, item: ItemView, decision: Decision, c: Common): JudgementRequest {
  const common = {
    project: c.project,
    annotator: c.annotator,
    itemId: item.id,
    // Made here and kept in the outbox with the save: a retried save stores nothing twice.
    id: uuidv7(),
    rationale: c.rationale.trim() ? c.rationale : undefined,
    timeMs: c.timeMs,
    prelabelVisible: c.prelabelVisible,
    ...(c.regions.length ? { regions: c.regions } : {}),
  };
  if (task === 'pairwise' && 'choice' in decision) return { kind: 'pairwise', input: { ...common, choice: decision.choice, strength: decision.strength, shownOrder: item.shownOrder } };
  if (task === 'ranking' && 'ranking' in decision) return { kind: 'ranking', input: { ...common, ranking: decision.ranking, shownOrder: item.shownOrder } };
  if (task === 'verdict' && 'verdict' in decision) return { kind: 'verdict', input: { ...common, verdict: decision.verdict } };
  throw new Error(`A ${task} screen cannot save ${JSON.stringify(decision)}`);
}

/** The judgement a save holds, as the screen shows it. */
export function mineOfRequest(request: JudgementRequest): Mine {
  const rationale = request.input.rationale ?? '';
  const regions = request.input.regions ?? [];
  if (request.kind === 'ranking') return { ranking: request.input.ranking, verdict: null, rationale, regions };
  if (request.kind === 'verdict') return { ranking: null, verdict: request.input.verdict, rationale, regions };
  return { ranking: null, verdict: null, rationale, regions };
}

/** The decision a judgement holds (to save it again with a new rationale or new marks), or null. */
export function decisionOf(task: Shape, loaded: Loaded): Decision | null {
  if (task === 'pairwise') {
    const label = loaded.item.label;
    return label?.choice ? { choice: label.choice, strength: label.strength } : null;
  }
  const { ranking, verdict } = loaded.mine ?? { ranking: null, verdict: null };
  return ranking ? { ranking } : verdict ? { verdict } : null;
}

/**
 * The item with this annotator's judgement: a pair's comes with the item; a ranking's or a verdict's is
 * the newest revision of the task, or a save of it still in the outbox.
 */
export async function loadMine(task: Shape, project: string, annotator: string, item: ItemView, waiting: JudgementRequest | null): Promise<Loaded> {
  if (task === 'pairwise') {
    const label = item.label?.choice ? item.label : null;
    return { item, mine: label ? { ranking: null, verdict: null, rationale: label.body.rationale ?? '', regions: label.body.regions ?? [] } : null };
  }
  if (waiting) return { item, mine: mineOfRequest(waiting) };
  const history = await api.labelHistory({ project, itemId: item.id });
  return { item, mine: mineFrom(history, annotator, task) };
}

const WHAT: Record<Shape, string> = { pairwise: 'item', ranking: 'item to rank', verdict: 'single-response item' };
/** "This is the last item to rank": → / ← at either end of the screen's items. */
export const endOfQueue = (task: Shape, direction: 'next' | 'previous') => `This is the ${direction === 'next' ? 'last' : 'first'} ${WHAT[task]}`;
