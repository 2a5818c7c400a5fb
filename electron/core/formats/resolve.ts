// Which label decides an item in a pairwise export.
//  - With an annotator named: that annotator's current label only.
//  - Otherwise: the majority of the current human labels (kind 'human', choice not null); an even split
//    between the top choices is a conflict and the item is left out. Where no human labeled the item,
//    the `source` label (the preference the imported file carried) decides.
// A decided tie or both_bad is left out too; every left-out item is counted by reason in the summary.
import type { Choice, ExportSummary } from '../../../shared/domain';
import type { HeadLabel } from '../store/labels';

export type { HeadLabel };

export type SkipReason = keyof ExportSummary['skipped'];
export type Decision = { winner: 0 | 1; margin: number | null; skip?: undefined } | { skip: SkipReason };

/** A two-response ranking says the same as a choice. */
function effectiveChoice(label: HeadLabel): Choice | null {
  if (label.choice) return label.choice;
  if (label.ranking && label.ranking.length >= 2) return label.ranking[0]!.includes(0) ? 'A' : 'B';
  return null;
}

function majority(votes: { choice: Choice; strength: number | null }[]): Decision {
  const counts = new Map<Choice, number>();
  for (const v of votes) counts.set(v.choice, (counts.get(v.choice) ?? 0) + 1);
  let top: Choice | null = null;
  let topCount = 0;
  let tied = false;
  for (const [choice, n] of counts) {
    if (n > topCount) {
      top = choice;
      topCount = n;
      tied = false;
    } else if (n === topCount) tied = true;
  }
  if (!top) return { skip: 'unlabeled' };
  if (tied) return { skip: 'conflict' };
  if (top === 'tie') return { skip: 'tie' };
  if (top === 'both_bad') return { skip: 'both_bad' };
  let sum = 0;
  let known = 0;
  for (const v of votes) {
    if (v.choice === top && v.strength !== null) {
      sum += v.strength;
      known++;
    }
  }
  return { winner: top === 'A' ? 0 : 1, margin: known ? sum / known : null };
}

export function decide(responseCount: number, labels: readonly HeadLabel[], annotator?: string): Decision {
  if (responseCount !== 2) return { skip: 'not_pairwise' };
  const votesOf = (pick: (l: HeadLabel) => boolean) => {
    const votes: { choice: Choice; strength: number | null }[] = [];
    for (const l of labels) {
      if (!pick(l)) continue;
      const choice = effectiveChoice(l);
      if (choice) votes.push({ choice, strength: l.strength });
    }
    return votes;
  };
  if (annotator !== undefined) {
    const votes = votesOf((l) => l.annotator === annotator);
    return votes.length ? majority(votes) : { skip: 'unlabeled' };
  }
  const human = votesOf((l) => l.kind === 'human');
  if (human.length) return majority(human);
  const source = votesOf((l) => l.kind === 'source');
  if (source.length) return majority(source);
  return { skip: 'unlabeled' };
}
