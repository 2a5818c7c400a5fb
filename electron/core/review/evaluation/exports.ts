// Per-item results in each benchmark's own shape, so its script (or anything written for its files) reads
// them: RewardBench's per-pair rows (id, subset, scores_chosen, scores_rejected, results), RewardBench 2's
// best-of-N rows (scores with the chosen first, num_correct 1), RM-Bench's style rows (score_chosen /
// score_rejected per variant, domain), ProcessBench's result rows (label, prediction, match) and
// VideoAlign's pairs (human 1 / −1 / 0, the two rewards). One JSON object per line.
import type { BenchmarkShape } from '../../../../shared/api/evaluation';
import type { ItemFacts } from '../../store/evaluation';
import { pairResult, bestOfNResult } from './rewardBench';
import { styleVariants, type ModelScores } from './modelFigures';
import type { UnitMap } from './reference';

export interface ExportSources {
  facts: ReadonlyMap<number, ItemFacts>;
  pairGold: UnitMap;
  rankGold: UnitMap;
  firstErrorGold: UnitMap;
}

const idOf = (f: ItemFacts) => f.externalId ?? `#${f.itemId}`;

/** A scoring model's rows in a reward benchmark's shape, in item order. */
export function* modelRows(shape: Exclude<BenchmarkShape, 'processbench'>, model: ModelScores, s: ExportSources): Generator<Record<string, unknown>> {
  const items = [...model.rewards.keys()].filter((id) => s.facts.has(id)).sort((a, b) => s.facts.get(a)!.seq - s.facts.get(b)!.seq);
  for (const itemId of items) {
    const f = s.facts.get(itemId)!;
    const rewards = model.rewards.get(itemId)!.slice(0, f.responses);
    if (rewards.length < f.responses || rewards.some((r) => typeof r !== 'number')) continue;
    const r = rewards as number[];
    const gold = (f.responses === 2 ? s.pairGold : s.rankGold).get(`${itemId}`)?.value;
    const chosen = gold && gold.length === 1 ? gold.charCodeAt(0) - 65 : -1;
    if (shape === 'rm-bench') {
      const v = styleVariants(f.styleVariants);
      if (v && [...v.chosen, ...v.rejected].every((i) => i < f.responses)) yield { id: idOf(f), domain: f.domain ?? 'chat', score_chosen: v.chosen.map((i) => r[i]), score_rejected: v.rejected.map((i) => r[i]) };
      continue;
    }
    if (shape === 'videoalign') {
      if (f.responses === 2 && (gold === 'A' || gold === 'B' || gold === 'tie')) yield { id: idOf(f), human: gold === 'A' ? 1 : gold === 'B' ? -1 : 0, reward_A: r[0], reward_B: r[1] };
      continue;
    }
    if (chosen < 0 || chosen >= f.responses) continue;
    const subset = f.subset ?? f.category ?? 'all';
    if (shape === 'rewardbench' && f.responses === 2) yield { id: idOf(f), subset, scores_chosen: r[chosen], scores_rejected: r[1 - chosen], results: pairResult(r[chosen]!, r[1 - chosen]!) };
    if (shape === 'rewardbench2') {
      const scores = [r[chosen]!, ...r.filter((_, i) => i !== chosen)];
      yield { id: idOf(f), subset, scores, num_correct: 1, results: bestOfNResult(scores) };
    }
  }
}

/** ProcessBench's result rows for a subject's first errors (unit `item:letter` → index), against the gold. */
export function* processBenchRows(firstErrors: UnitMap, s: ExportSources): Generator<Record<string, unknown>> {
  for (const [unit, g] of s.firstErrorGold) {
    const mine = firstErrors.get(unit);
    if (!mine) continue;
    const f = s.facts.get(g.itemId);
    const label = Number(g.value);
    const prediction = Number(mine.value);
    yield { id: `${f ? idOf(f) : `#${g.itemId}`}:${unit.split(':')[1]}`, label, prediction, match: prediction === label };
  }
}
