// Reliability data in one compact, allocation-free shape: a units × raters matrix with holes, stored
// unit by unit (CSR), so a metric over 100k units × 3 raters walks three flat typed arrays and makes no
// object per unit. The builders are the only place that sees loose JS values; missing values (null,
// undefined, NaN, ±Infinity) are dropped there, so every metric can assume finite values.

export interface Ratings {
  readonly units: number;
  readonly raters: number;
  /** Length units + 1: the ratings of unit u are entries start[u] … start[u + 1] − 1. */
  readonly start: Int32Array;
  /** Per entry: the rater (0 … raters − 1). A rater appears at most once per unit. */
  readonly rater: Int32Array;
  /** Per entry: the value (a category code for nominal data, a number for ordinal and interval). */
  readonly value: Float64Array;
}

/**
 * From flat triples (e.g. rows of a query): entry i says rater[i] gave unit[i] the value value[i].
 * Entries naming a unit or rater out of range, or a non-finite value, are dropped; when a rater rated a
 * unit twice, the later entry wins (as the later revision of a label does).
 */
export function ratingsFromTriples(
  units: number,
  raters: number,
  unit: ArrayLike<number>,
  rater: ArrayLike<number>,
  value: ArrayLike<number>,
): Ratings {
  units = Math.max(0, Math.floor(units));
  raters = Math.max(0, Math.floor(raters));
  const count = Math.min(unit.length, rater.length, value.length);
  const perUnit = new Int32Array(units + 1);
  const keep = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const u = unit[i]!;
    const r = rater[i]!;
    if (u >= 0 && u < units && Number.isInteger(u) && r >= 0 && r < raters && Number.isInteger(r) && Number.isFinite(value[i]!)) {
      keep[i] = 1;
      perUnit[u + 1] = perUnit[u + 1]! + 1;
    }
  }
  for (let u = 0; u < units; u++) perUnit[u + 1] = perUnit[u + 1]! + perUnit[u]!;
  // A stable counting sort by unit keeps input order within a unit, so "later wins" can be decided below.
  const fill = perUnit.slice(0, units);
  const kept = perUnit[units]!;
  const sortedRater = new Int32Array(kept);
  const sortedValue = new Float64Array(kept);
  for (let i = 0; i < count; i++) {
    if (keep[i] === 0) continue;
    const at = fill[unit[i]!]!;
    fill[unit[i]!] = at + 1;
    sortedRater[at] = rater[i]!;
    sortedValue[at] = value[i]!;
  }
  return dropRepeats(units, raters, perUnit, sortedRater, sortedValue);
}

/** Keeps, per unit, only the last entry of each rater (units hold a handful of entries: O(m²) is cheap). */
function dropRepeats(units: number, raters: number, start: Int32Array, rater: Int32Array, value: Float64Array): Ratings {
  const outStart = new Int32Array(units + 1);
  let out = 0;
  for (let u = 0; u < units; u++) {
    const end = start[u + 1]!;
    for (let i = start[u]!; i < end; i++) {
      let repeated = false;
      for (let j = i + 1; j < end; j++) if (rater[j] === rater[i]) repeated = true;
      if (repeated) continue;
      rater[out] = rater[i]!;
      value[out] = value[i]!;
      out++;
    }
    outStart[u + 1] = out;
  }
  return { units, raters, start: outStart, rater: rater.slice(0, out), value: value.slice(0, out) };
}

/** From a units × raters matrix (one row per unit, one column per rater); null/undefined/NaN = missing. */
export function ratingsFromMatrix(rows: ReadonlyArray<ReadonlyArray<number | null | undefined>>): Ratings {
  const unit: number[] = [];
  const rater: number[] = [];
  const value: number[] = [];
  let raters = 0;
  rows.forEach((row, u) => {
    raters = Math.max(raters, row.length);
    row.forEach((v, r) => {
      if (v === null || v === undefined) return;
      unit.push(u);
      rater.push(r);
      value.push(v);
    });
  });
  return ratingsFromTriples(rows.length, raters, unit, rater, value);
}

/** From per-unit lists of {rater, value}; `raters` defaults to the highest rater index + 1. */
export function ratingsFromUnits(units: ReadonlyArray<ReadonlyArray<{ rater: number; value: number | null }>>, raters?: number): Ratings {
  const unit: number[] = [];
  const rater: number[] = [];
  const value: number[] = [];
  let highest = -1;
  units.forEach((list, u) => {
    for (const entry of list) {
      if (entry.value === null) continue;
      unit.push(u);
      rater.push(entry.rater);
      value.push(entry.value);
      highest = Math.max(highest, entry.rater);
    }
  });
  return ratingsFromTriples(units.length, raters ?? highest + 1, unit, rater, value);
}

/** The distinct values of a Ratings, ascending, and each entry's index into them (its code). */
export interface ValueCodes {
  levels: Float64Array;
  code: Int32Array;
}

// Small integer ranges (category codes, Likert points, step indices) take a lookup table; anything else
// is sorted and searched. Both give codes in ascending value order, which ordinal α relies on.
const TABLE_LIMIT = 1 << 16;

export function codeValues(ratings: Ratings): ValueCodes {
  const { value } = ratings;
  const code = new Int32Array(value.length);
  if (value.length === 0) return { levels: new Float64Array(0), code };
  let min = Infinity;
  let max = -Infinity;
  let integers = true;
  for (let i = 0; i < value.length; i++) {
    const v = value[i]!;
    if (v < min) min = v;
    if (v > max) max = v;
    if (integers && !Number.isInteger(v)) integers = false;
  }
  if (integers && max - min < TABLE_LIMIT) {
    const table = new Int32Array(max - min + 1);
    for (let i = 0; i < value.length; i++) table[value[i]! - min] = 1;
    let levels = 0;
    for (let t = 0; t < table.length; t++) if (table[t] === 1) table[t] = ++levels;
    const out = new Float64Array(levels);
    for (let t = 0; t < table.length; t++) if (table[t]! > 0) out[table[t]! - 1] = t + min;
    for (let i = 0; i < value.length; i++) code[i] = table[value[i]! - min]! - 1;
    return { levels: out, code };
  }
  const sorted = Float64Array.from(value).sort();
  let distinct = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[distinct++] = sorted[i]!;
  const levels = sorted.slice(0, distinct);
  for (let i = 0; i < value.length; i++) code[i] = lowerBound(levels, value[i]!);
  return { levels, code };
}

function lowerBound(sorted: Float64Array, v: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
