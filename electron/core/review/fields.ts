// One field's agreement block for the report: percent agreement, Cohen's κ for the two people who share
// the most items, Fleiss' κ, and Krippendorff's α at the field's level of measurement (and, for rating
// scales, at a second level named beside it).
import type { FieldAgreement } from '../../../shared/api/review';
import { cohenKappa, fleissKappa, percentAgreement } from './agreement';
import { krippendorffAlpha, type AlphaLevel } from './krippendorff';
import type { Ratings } from './ratings';

export function fieldAgreement(task: FieldAgreement['task'], field: string, level: AlphaLevel, ratings: Ratings, raterNames: string[], alsoLevel?: AlphaLevel): FieldAgreement {
  const pair = busiestPair(ratings);
  const figure = <T extends { value: number | null; n: number; reason: string | null }>(e: T) => ({ value: e.value, n: e.n, reason: e.reason });
  return {
    task,
    field,
    level,
    percent: figure(percentAgreement(ratings)),
    cohen: pair ? { ...figure(cohenKappa(ratings, pair[0], pair[1])), between: [raterNames[pair[0]]!, raterNames[pair[1]]!] } : null,
    fleiss: level === 'nominal' ? figure(fleissKappa(ratings)) : null,
    alpha: figure(krippendorffAlpha(ratings, level)),
    ...(alsoLevel ? { alsoAlpha: { level: alsoLevel, ...figure(krippendorffAlpha(ratings, alsoLevel)) } } : {}),
  };
}

/** The two raters with the most units in common (Cohen's κ is for two raters), or null. */
function busiestPair(ratings: Ratings): [number, number] | null {
  const { start, rater, units, raters } = ratings;
  if (raters < 2) return null;
  const shared = new Map<number, number>();
  for (let u = 0; u < units; u++) {
    for (let i = start[u]!; i < start[u + 1]!; i++) {
      for (let j = i + 1; j < start[u + 1]!; j++) {
        const a = Math.min(rater[i]!, rater[j]!);
        const b = Math.max(rater[i]!, rater[j]!);
        const key = a * raters + b;
        shared.set(key, (shared.get(key) ?? 0) + 1);
      }
    }
  }
  let best = -1;
  let most = 0;
  for (const [key, n] of shared) if (n > most || (n === most && key < best)) [best, most] = [key, n];
  return best < 0 ? null : [Math.floor(best / raters), best % raters];
}
