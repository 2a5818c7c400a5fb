// Judges beside people: Cohen's κ between two raters' values on the units both gave (Cohen 1960), and a
// judge's position consistency (the share of pairs judged in both presentation orders where the verdict,
// mapped back to the responses, is the same).
import type { Figure, ProportionFigure } from '../../../../shared/api/review';
import { REASONS } from '../estimate';
import { proportion } from '../proportion';

/** κ = (p_o − p_e) / (1 − p_e) over the keys both maps hold; null with a reason when undefined. */
export function kappa(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): Figure {
  const left = new Map<string, number>();
  const right = new Map<string, number>();
  let n = 0;
  let same = 0;
  for (const [key, x] of a) {
    const y = b.get(key);
    if (y === undefined) continue;
    n++;
    if (x === y) same++;
    left.set(x, (left.get(x) ?? 0) + 1);
    right.set(y, (right.get(y) ?? 0) + 1);
  }
  if (n === 0) return { value: null, n: 0, reason: REASONS.noCommonUnits };
  let chance = 0;
  for (const [value, k] of left) chance += (k / n) * ((right.get(value) ?? 0) / n);
  if (chance >= 1 - 1e-12) return { value: null, n, reason: REASONS.oneCategory };
  return { value: (same / n - chance) / (1 - chance), n, reason: null };
}

/** The mean of several κ (each defined one counts once); n: the units of all of them. */
export function meanKappa(list: readonly Figure[]): Figure {
  const defined = list.filter((k) => k.value !== null);
  const n = list.reduce((s, k) => s + k.n, 0);
  if (!defined.length) return { value: null, n, reason: list[0]?.reason ?? REASONS.oneRater };
  return { value: defined.reduce((s, k) => s + k.value!, 0) / defined.length, n, reason: null };
}

/** Pairs judged in both orders: consistent when both verdicts (in source letters) agree. */
export function positionConsistency(pairs: readonly { forward: string; reversed: string }[]): ProportionFigure {
  return proportion(pairs.filter((p) => p.forward === p.reversed).length, pairs.length);
}
