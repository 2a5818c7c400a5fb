// The models' pre-label of an item for lists (the items table, its "model disagrees" filter): from
// cached scores only, the statements prepared once per list, so a page of items costs a few lookups each.
import type { ItemRecord } from '../../../shared/domain';
import type { Db } from '../store/db';
import { listModelRows, rewardLookup } from '../store/models';
import { projectSegmentation } from '../store/projects';
import { inputHash, responseInput } from './inputs';
import { ensemble, pairProbability, voteOf } from './prelabel';
import type { ModelKind, Vote } from './types';

export interface ItemVote {
  vote: Vote;
  /** Mean P(A better) over the models that scored both responses. */
  pA: number;
  models: number;
}

/**
 * A function giving an item's pre-label: the models' majority vote, the mean deciding an even split (as
 * the compare screen's suggestion does). Null when no model has been added, so callers skip the work.
 */
export function itemVoter(db: Db, projectId: number): ((item: ItemRecord) => ItemVote | null) | null {
  const models = listModelRows(db);
  if (models.length === 0) return null;
  const reward = rewardLookup(db);
  const segmentation = projectSegmentation(db, projectId);
  return (item) => {
    if (item.responses.length !== 2) return null;
    const hashes = new Map<ModelKind, string[]>();
    const pABs: number[] = [];
    for (const model of models) {
      let pair = hashes.get(model.kind);
      if (!pair) hashes.set(model.kind, (pair = item.responses.map((_, index) => inputHash(model.kind, responseInput(item, index, segmentation)))));
      const a = reward(model.id, pair[0]!);
      const b = reward(model.id, pair[1]!);
      if (typeof a === 'number' && typeof b === 'number') pABs.push(pairProbability(a, b));
    }
    const stats = ensemble(pABs);
    if (!stats) return null;
    const split = stats.vote === 'tie' && stats.votes.A === stats.votes.B && stats.votes.A > 0;
    return { vote: split ? voteOf(stats.mean) : stats.vote, pA: stats.mean, models: stats.models };
  };
}

/**
 * The models' ranking of an item of three or more responses, for lists: each response's mean reward over
 * the models that scored every response, best first, equal means tied. Null when no model did (or the
 * item is not a ranking); the function is null when no model has been added.
 */
export function itemRanker(db: Db, projectId: number): ((item: ItemRecord) => number[][] | null) | null {
  const models = listModelRows(db);
  if (models.length === 0) return null;
  const reward = rewardLookup(db);
  const segmentation = projectSegmentation(db, projectId);
  return (item) => {
    if (item.responses.length < 3) return null;
    const sums = new Float64Array(item.responses.length);
    let scored = 0;
    for (const model of models) {
      const rewards = item.responses.map((_, index) => reward(model.id, inputHash(model.kind, responseInput(item, index, segmentation))));
      if (!rewards.every((r): r is number => typeof r === 'number')) continue;
      rewards.forEach((r, i) => (sums[i] = sums[i]! + r));
      scored++;
    }
    if (scored === 0) return null;
    const order = Array.from(sums.keys()).sort((a, b) => sums[b]! - sums[a]! || a - b);
    const groups: number[][] = [];
    for (const index of order) {
      const last = groups[groups.length - 1];
      if (last && sums[last[0]!] === sums[index]) last.push(index);
      else groups.push([index]);
    }
    return groups;
  };
}
