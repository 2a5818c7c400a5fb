// Units that received the same labels from the same annotators are indistinguishable to a latent-class
// model such as Dawid–Skene: they start with the same posterior and keep it at every EM step. Grouping
// units into these response patterns (the pattern-frequency form of latent class analysis) lets EM work
// on the few distinct patterns (at most (K + 1)^raters, usually far fewer than the units) instead of on
// every unit, so an iteration costs O(patterns), not O(units).
import type { Ratings } from './ratings';

export interface Patterns {
  /** Per unit: its pattern, or −1 when it has no usable label. */
  ofUnit: Int32Array;
  /** Length patterns + 1: the cells of pattern p are cells[start[p]] … cells[start[p + 1] − 1]. */
  start: Int32Array;
  /** The sorted cells (see `cell` below) of every pattern, back to back. */
  cells: Int32Array;
  /** How many units have each pattern. */
  count: Float64Array;
  /** One unit of each pattern (to read its starting values from). */
  example: Int32Array;
}

/**
 * Groups units by the sorted list of their rating cells; `cell[i]` is a small non-negative code for
 * rating i (for Dawid–Skene: rater·K² + label), or −1 to ignore the rating.
 */
export function groupPatterns(ratings: Ratings, cell: Int32Array, cellCount: number): Patterns {
  const ofUnit = new Int32Array(ratings.units).fill(-1);
  const ids = new Map<number | string, number>();
  const starts: number[] = [0];
  const cells: number[] = [];
  const count: number[] = [];
  const example: number[] = [];
  const scratch = new Int32Array(ratings.raters + 1);
  const base = cellCount + 1;
  for (let u = 0; u < ratings.units; u++) {
    let m = 0;
    for (let i = ratings.start[u]!; i < ratings.start[u + 1]!; i++) {
      const c = cell[i]!;
      if (c < 0 || m === scratch.length) continue;
      // Insertion sort: a unit has a handful of ratings.
      let at = m++;
      while (at > 0 && scratch[at - 1]! > c) {
        scratch[at] = scratch[at - 1]!;
        at--;
      }
      scratch[at] = c;
    }
    if (m === 0) continue;
    const key = patternKey(scratch, m, base);
    let id = ids.get(key);
    if (id === undefined) {
      id = count.length;
      ids.set(key, id);
      for (let k = 0; k < m; k++) cells.push(scratch[k]!);
      starts.push(cells.length);
      count.push(0);
      example.push(u);
    }
    count[id] = count[id]! + 1;
    ofUnit[u] = id;
  }
  return { ofUnit, start: Int32Array.from(starts), cells: Int32Array.from(cells), count: Float64Array.from(count), example: Int32Array.from(example) };
}

/** A number when the cells fit a base-(cellCount + 1) integer exactly, else a string (rare: many raters). */
function patternKey(sorted: Int32Array, m: number, base: number): number | string {
  let key = 0;
  for (let k = 0; k < m; k++) key = key * base + sorted[k]! + 1;
  if (key <= Number.MAX_SAFE_INTEGER) return key;
  return Array.from(sorted.subarray(0, m)).join(',');
}
