// A process model's step scores as pre-labels for one response: P(step is good) per step, the step
// it predicts as the first error, and how it compares with the annotator's ratings. Scores are shown
// only against the very steps they were made for: after a split or merge (before the project is scored
// again) a model's scores belong to another cut, and the screen says nothing rather than misalign them.
import type { ItemPrelabels } from '../../../../shared/scoring';
import { stepsKey, type StepRating } from '../../../../shared/segment';
import type { Judgement } from './judgement';

export interface ModelSteps {
  model: string;
  /** Per step P(good); null where truncation cut the step. Null: the model did not score these steps. */
  steps: (number | null)[] | null;
  firstError: number | null;
  /** The model scored the steps the screen shows, one score per step. */
  aligned: boolean;
}

export function modelStepsFor(pre: ItemPrelabels | null, response: number, shown: readonly string[]): ModelSteps[] {
  if (!pre) return [];
  const key = stepsKey(shown);
  return pre.models
    .filter((m) => m.kind === 'process')
    .map((m) => {
      const scored = m.steps?.[response] ?? null;
      // Scores made for another cut (or with no record of their cut) are not this screen's.
      const mine = scored !== null && scored.length === shown.length && m.stepKeys?.[response] === key;
      return mine ? { model: m.name, steps: scored, firstError: m.firstError?.[response] ?? null, aligned: true } : { model: m.name, steps: null, firstError: null, aligned: false };
    });
}

export const isGood = (p: number) => p >= 0.5;

export type StepAgreement = 'agrees' | 'disagrees' | 'neutral';

/** A rating against a model's P(good): +1 with ≥ 0.5 and −1 below agree; 0 or unrated is neutral. */
export function stepAgreement(rating: StepRating | null, p: number | null): StepAgreement {
  if (rating === null || rating === 0 || p === null) return 'neutral';
  return (rating > 0) === isGood(p) ? 'agrees' : 'disagrees';
}

/** What "accept" takes from the models: the mean P per step, +1 up to the first step below 0.5, that one the first error. */
export function suggestedJudgement(models: ModelSteps[], stepCount: number): { ratings: (StepRating | null)[]; firstError: number | null } | null {
  const usable = models.filter((m) => m.aligned && m.steps);
  if (!usable.length || stepCount === 0) return null;
  const mean: (number | null)[] = [];
  for (let i = 0; i < stepCount; i++) {
    const ps = usable.map((m) => m.steps![i]).filter((p): p is number => p !== null && p !== undefined);
    mean.push(ps.length ? ps.reduce((a, b) => a + b, 0) / ps.length : null);
  }
  const first = mean.findIndex((p) => p !== null && !isGood(p));
  const ratings = mean.map((p, i): StepRating | null => (first >= 0 && i >= first ? null : p === null ? null : 1));
  return { ratings, firstError: first >= 0 ? first : null };
}

/** The models' predicted first error, in words, beside the annotator's. */
export function firstErrorWords(firstError: number | null, scored: boolean): string {
  if (!scored) return 'not scored';
  return firstError === null ? 'none (every step ≥ 0.5)' : `step ${firstError + 1}`;
}

export function sameFirstError(mine: Judgement['firstError'], model: number | null): boolean {
  if (mine === null) return false;
  return mine < 0 ? model === null : model === mine;
}
