// Builders for the shapes worked examples are printed in, and a check that a result holds no NaN.
import { ratingsFromTriples, type Ratings } from '../../../electron/core/review';

/** A subjects × categories table of counts (Fleiss' layout): row i has table[i][j] ratings of category j. */
export function ratingsFromCounts(table: number[][]): Ratings {
  const unit: number[] = [];
  const rater: number[] = [];
  const value: number[] = [];
  let raters = 0;
  table.forEach((row, u) => {
    let r = 0;
    row.forEach((count, category) => {
      for (let k = 0; k < count; k++) {
        unit.push(u);
        rater.push(r++);
        value.push(category);
      }
    });
    raters = Math.max(raters, r);
  });
  return ratingsFromTriples(table.length, raters, unit, rater, value);
}

/** A two-rater contingency table (rows: rater 0's category, columns: rater 1's), one unit per count. */
export function ratingsFromContingency(table: number[][]): Ratings {
  const unit: number[] = [];
  const rater: number[] = [];
  const value: number[] = [];
  let u = 0;
  table.forEach((row, a) =>
    row.forEach((count, b) => {
      for (let k = 0; k < count; k++, u++) {
        unit.push(u, u);
        rater.push(0, 1);
        value.push(a, b);
      }
    }),
  );
  return ratingsFromTriples(u, 2, unit, rater, value);
}

/** Every number reachable from a result (typed arrays included) that is NaN, by path. */
export function nanPaths(value: unknown, path = '$'): string[] {
  if (typeof value === 'number') return Number.isNaN(value) ? [path] : [];
  if (ArrayBuffer.isView(value)) return Array.from(value as Float64Array).flatMap((v, i) => (Number.isNaN(v) ? [`${path}[${i}]`] : []));
  if (Array.isArray(value)) return value.flatMap((v, i) => nanPaths(v, `${path}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => nanPaths(v, `${path}.${k}`));
  return [];
}

/** A small deterministic PRNG (mulberry32), so synthetic data is the same on every run. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
