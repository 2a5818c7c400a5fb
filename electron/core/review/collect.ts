// Turns the store's current human labels into review's shapes: items and annotators as dense indexes,
// and one flat entry per label (typed arrays), so the metrics walk arrays rather than objects.
import { readLabelBody, type LabelBody } from '../../../shared/labelBodies';
import type { ReviewLabelRow } from '../store/review';
import { ratingsFromTriples, type Ratings } from './ratings';

/** Dense indexes for ids met in order. */
export class Index<K> {
  readonly ids: K[] = [];
  private readonly at = new Map<K, number>();
  of(id: K): number {
    let i = this.at.get(id);
    if (i === undefined) {
      i = this.ids.length;
      this.at.set(id, i);
      this.ids.push(id);
    }
    return i;
  }
  find(id: K): number | undefined {
    return this.at.get(id);
  }
  get size(): number {
    return this.ids.length;
  }
}

/**
 * Dense indexes for integer ids met in order (a project's item ids, known before): a typed table over the
 * ids' range where that range is at most 16 times their number (4 bytes a slot against ~70 a Map entry:
 * 2M judged items of 10M cost a 40 MB table, not a 140 MB Map), so 100k items cost no Map of 100k
 * entries; a Map for any other id.
 */
export class IdIndex {
  size = 0;
  private readonly low: number;
  private readonly table: Int32Array;
  private readonly others = new Map<number, number>();
  constructor(ids: ArrayLike<number>) {
    let low = Infinity;
    let high = -Infinity;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (!Number.isInteger(id)) continue;
      if (id < low) low = id;
      if (id > high) high = id;
    }
    const dense = high >= low && high - low < 16 * ids.length + 1024;
    this.low = dense ? low : 0;
    this.table = new Int32Array(dense ? high - low + 1 : 0).fill(-1);
  }
  private slot(id: number): number {
    const at = id - this.low;
    return Number.isInteger(at) && at >= 0 && at < this.table.length ? at : -1;
  }
  of(id: number): number {
    const at = this.slot(id);
    if (at >= 0) {
      if (this.table[at]! < 0) this.table[at] = this.size++;
      return this.table[at]!;
    }
    let i = this.others.get(id);
    if (i === undefined) this.others.set(id, (i = this.size++));
    return i;
  }
  find(id: number): number | undefined {
    const at = this.slot(id);
    if (at >= 0) return this.table[at]! < 0 ? undefined : this.table[at];
    return this.others.get(id);
  }
}

/** Growable parallel columns of numbers, one entry per label (typed arrays, doubled when full). */
export class Columns<Name extends string> {
  length = 0;
  private data: Float64Array[];
  private readonly at: Record<Name, number>;
  constructor(names: readonly Name[]) {
    this.at = Object.fromEntries(names.map((n, i) => [n, i])) as Record<Name, number>;
    this.data = names.map(() => new Float64Array(1024));
  }
  /** Appends one entry: the values in the order the names were given. */
  push(...values: number[]): void {
    if (this.length === this.data[0]!.length) {
      this.data = this.data.map((old) => {
        const grown = new Float64Array(old.length * 2);
        grown.set(old);
        return grown;
      });
    }
    for (let i = 0; i < values.length; i++) this.data[i]![this.length] = values[i]!;
    this.length++;
  }
  column(name: Name): Float64Array {
    return this.data[this.at[name]]!.subarray(0, this.length);
  }
}

export interface ItemInfo {
  itemId: number;
  seq: number;
  externalId: string | null;
}

/** A revision body as review reads it: any task's (shared/labelBodies.ts, the body codecs). */
export type ReviewBody = LabelBody;

/** A stored body's JSON text read back: an object, else an empty body. */
export function parseBody(text: string): ReviewBody {
  return readLabelBody(text);
}

/** Reads labels of one task into item and annotator indexes; `each` sees every row with its indexes. */
export function collect<Row extends Pick<ReviewLabelRow, 'itemId' | 'seq' | 'annotator'> & { externalId?: string | null }>(
  rows: Iterable<Row>,
  items: Index<number>,
  itemInfo: ItemInfo[],
  people: Index<string>,
  each: (row: Row, unit: number, rater: number) => void,
): number {
  let count = 0;
  for (const row of rows) {
    const before = items.size;
    const unit = items.of(row.itemId);
    if (unit === before) itemInfo.push({ itemId: row.itemId, seq: row.seq, externalId: row.externalId ?? null });
    each(row, unit, people.of(row.annotator));
    count++;
  }
  return count;
}

/** Triples (unit, rater, value) gathered while reading, then made into Ratings. */
export class Triples {
  unit: number[] = [];
  rater: number[] = [];
  value: number[] = [];
  add(u: number, r: number, v: number) {
    this.unit.push(u);
    this.rater.push(r);
    this.value.push(v);
  }
  ratings(units: number, raters: number): Ratings {
    return ratingsFromTriples(units, raters, this.unit, this.rater, this.value);
  }
}

/** Votes of one unit of `ratings`, named, and how split they are: 1 − (largest share); 0 below two votes. */
export function split(ratings: Ratings, u: number, name: (v: number) => string): { votes: Record<string, number>; total: number; dispute: number } {
  const votes: Record<string, number> = {};
  let total = 0;
  let top = 0;
  for (let i = ratings.start[u]!; i < ratings.start[u + 1]!; i++) {
    const key = name(ratings.value[i]!);
    votes[key] = (votes[key] ?? 0) + 1;
    total++;
    top = Math.max(top, votes[key]);
  }
  return { votes, total, dispute: total >= 2 ? 1 - top / total : 0 };
}
