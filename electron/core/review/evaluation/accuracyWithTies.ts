// Pairwise accuracy with ties, as VideoAlign computes it (KwaiVGI/VideoAlign at commit
// 219ab9db64c045e5181a2202d11f686439351292, calc_accuracy.py calc_accuracy_with_ties, after Deutsch et al.
// 2023, "Ties Matter", arXiv 2305.14324): h is the people's label per pair (1: A better, −1: B better, 0:
// tie), m the model's margin score(A) − score(B). The model calls a pair a tie when |m| ≤ ε; accuracy =
// (C + Thm) / N, where C are pairs where both prefer the same side and Thm pairs both call a tie. ε is
// tuned: pairs are taken in ascending |m|, each in turn becomes a model tie at ε = its |m|, and the best
// accuracy met on the way is the answer (ported step for step, including equal |m| taken one at a time).

interface Stats {
  C: number;
  D: number;
  Th: number;
  Tm: number;
  Thm: number;
}

/** suff_stats: the table of concordant, discordant and tied pairs at threshold ε. */
export function sufficientStats(h: readonly number[], m: readonly number[], epsilon: number): Stats {
  const s: Stats = { C: 0, D: 0, Th: 0, Tm: 0, Thm: 0 };
  for (let i = 0; i < Math.min(h.length, m.length); i++) {
    const hi = h[i]!;
    const mi = m[i]!;
    if (hi === 0 && Math.abs(mi) <= epsilon) s.Thm++;
    else if (hi === 0) s.Th++;
    else if (Math.abs(mi) <= epsilon) s.Tm++;
    else if (hi * mi > 0) s.C++;
    else s.D++;
  }
  return s;
}

const accuracyOf = (s: Stats) => (s.C + s.Thm) / (s.C + s.D + s.Th + s.Tm + s.Thm);

/** calc_accuracy_with_ties: the best accuracy over ε, and the ε that gives it. */
export function accuracyWithTies(h: readonly number[], m: readonly number[]): { accuracy: number; epsilon: number; n: number } {
  const n = Math.min(h.length, m.length);
  if (n === 0) return { accuracy: 0, epsilon: 0, n }; // the script's except branch answers 0
  const s = sufficientStats(h, m, -1);
  // Python's sorted is stable: equal |m| keep their input order.
  const pairs = Array.from({ length: n }, (_, i) => [h[i]!, m[i]!] as const)
    .map((p, i) => ({ p, i }))
    .sort((a, b) => Math.abs(a.p[1]) - Math.abs(b.p[1]) || a.i - b.i)
    .map((x) => x.p);
  let best = Number.NEGATIVE_INFINITY;
  let bestEpsilon = 0;
  let epsilon = -1;
  for (const [hi, mi] of pairs) {
    if (hi === 0 && Math.abs(mi) < epsilon) s.Thm--;
    else if (hi === 0) s.Th--;
    else if (Math.abs(mi) < epsilon) s.Tm--;
    else if (hi * mi > 0) s.C--;
    else s.D--;
    epsilon = Math.abs(mi);
    if (hi === 0 && Math.abs(mi) <= epsilon) s.Thm++;
    else if (hi === 0) s.Th++;
    else if (Math.abs(mi) <= epsilon) s.Tm++;
    else if (hi * mi > 0) s.C++;
    else s.D++;
    const current = accuracyOf(s);
    if (current > best) {
      best = current;
      bestEpsilon = epsilon;
    }
  }
  return { accuracy: best, epsilon: bestEpsilon, n };
}

/** calc_accuracy_without_ties: C / (C + D + Tm) at ε = −1 (no model ties, so C / (C + D)). */
export function accuracyWithoutTies(h: readonly number[], m: readonly number[]): number {
  const s = sufficientStats(h, m, -1);
  return s.C / (s.C + s.D + s.Tm);
}
