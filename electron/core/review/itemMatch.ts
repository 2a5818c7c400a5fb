// A query over the items explorer's facts (./itemFacts.ts): each clause of shared/itemQuery.ts as a mask
// (one byte per item, 1 where it passes), the search text's matches as another, and a page in any sort
// order after a cursor. Every pass is linear in the project's items over typed arrays; nothing is
// estimated, so every count is exact over the facts' watermark.
import { DISAGREEMENTS, LABEL_TASKS, SHAPES, type SortColumn } from '../../../shared/itemFacets';
import type { Clause } from '../../../shared/itemQuery';
import type { ItemFacts } from './itemFacts';
import { pairKey, type Consensus } from './itemFactsPeople';
import type { Postings } from './postings';

const YES_NO = ['no', 'yes'];

/** A facet as the engine reads it: one value per item (enum), several (set), or a number. */
export type FacetReader =
  | { kind: 'enum'; at: (seq: number) => string | null; values: readonly string[] }
  | { kind: 'set'; postings: () => Postings; values?: readonly string[] }
  | { kind: 'number'; at: (seq: number) => number };

const bitsOf = (bits: Uint8Array, names: readonly string[]) => (): Postings => {
  const lists = names.map(() => [] as number[]);
  for (let seq = 0; seq < bits.length; seq++) {
    const b = bits[seq]!;
    if (b) for (let i = 0; i < names.length; i++) if (b & (1 << i)) lists[i]!.push(seq);
  }
  return new Map(names.map((name, i) => [name, Int32Array.from(lists[i]!)]));
};

/** The `labeled` facet for a task (or any task): mine, anyone, nobody. */
function labeled(facts: ItemFacts, task: string | undefined, me: string | null): Postings {
  const mask = task ? 1 << LABEL_TASKS.indexOf(task as (typeof LABEL_TASKS)[number]) : 0xff;
  const anyone: number[] = [];
  const nobody: number[] = [];
  for (let seq = 0; seq < facts.n; seq++) (facts.labeledAny[seq]! & mask ? anyone : nobody).push(seq);
  const tasks = (me !== null && facts.people.get(me)) || new Map<string, Int32Array>();
  const mine = task ? (tasks.get(task) ?? new Int32Array(0)) : union([...tasks.values()], facts.n);
  return new Map([
    ['mine', mine],
    ['anyone', Int32Array.from(anyone)],
    ['nobody', Int32Array.from(nobody)],
  ]);
}

function union(lists: Int32Array[], n: number): Int32Array {
  if (lists.length === 1) return lists[0]!;
  const seen = new Uint8Array(n);
  for (const list of lists) for (const seq of list) seen[seq] = 1;
  const out: number[] = [];
  for (let seq = 0; seq < n; seq++) if (seen[seq]) out.push(seq);
  return Int32Array.from(out);
}

/** The reader of a facet by its full name (with its part), or undefined when the project has no such facet. */
export function facetReader(facts: ItemFacts, facet: string, me: string | null): FacetReader | undefined {
  const dot = facet.indexOf('.');
  const base = dot < 0 ? facet : facet.slice(0, dot);
  const part = dot < 0 ? undefined : facet.slice(dot + 1);
  const once = <T>(make: () => T) => {
    let value: T | undefined;
    return () => (value ??= make());
  };
  switch (base) {
    case 'shape':
      return { kind: 'enum', at: (s) => SHAPES[facts.shape[s]!]!, values: SHAPES };
    case 'images':
      return { kind: 'enum', at: (s) => YES_NO[facts.images[s]!]!, values: YES_NO };
    case 'adjudicated':
      return { kind: 'enum', at: (s) => YES_NO[facts.adjudicated[s]!]!, values: YES_NO };
    case 'model_disagrees':
      return { kind: 'enum', at: (s) => YES_NO[facts.modelDisagrees[s]!]!, values: YES_NO };
    case 'consensus': {
      const coded = facts.consensus[(part ?? 'pairwise') as Consensus];
      if (!coded) return undefined;
      return { kind: 'enum', at: (s) => (coded.codes[s] ? coded.names[coded.codes[s]! - 1]! : null), values: coded.names };
    }
    case 'labeled':
      return { kind: 'set', postings: once(() => labeled(facts, part, me)), values: ['mine', 'anyone', 'nobody'] };
    case 'disagree':
      return { kind: 'set', postings: once(bitsOf(facts.disputed, DISAGREEMENTS)), values: DISAGREEMENTS };
    case 'annotator':
    case 'tag':
    case 'severity':
    case 'outcome':
    case 'wrong':
      return { kind: 'set', postings: () => facts.sets[base] };
    case 'split':
      return { kind: 'set', postings: () => facts.sets.split };
    case 'meta': {
      const field = facts.meta.get(part ?? '');
      return field ? { kind: 'set', postings: () => field } : undefined;
    }
    case 'score':
      return { kind: 'number', at: (s) => facts.score[s]! };
    case 'uncertainty':
      return { kind: 'number', at: (s) => 1 - Math.abs(2 * facts.score[s]! - 1) };
    case 'length':
      return { kind: 'number', at: (s) => facts.length[s]! };
    case 'labels':
      return { kind: 'number', at: (s) => facts.labels[s]! };
    default:
      return undefined;
  }
}

/** The clause's values as its facet keys them (a pair of people is one key). */
function keysOf(clause: Clause): string[] {
  if (clause.facet === 'split') return clause.values.length === 2 ? [pairKey(clause.values[0]!, clause.values[1]!)] : [];
  return clause.values;
}

/** 1 where the item passes the clause. A facet the project lacks: `=` passes nothing, `!=` everything. */
export function clauseMask(facts: ItemFacts, clause: Clause, me: string | null): Uint8Array {
  const n = facts.n;
  const reader = facetReader(facts, clause.facet, me);
  const negate = clause.op === '!=';
  const mask = new Uint8Array(n);
  if (!reader) return negate ? mask.fill(1) : mask;
  if (reader.kind === 'number') {
    const xs = clause.values.map(Number);
    const x = xs[0]!;
    const test: (v: number) => boolean =
      clause.op === '=' ? (v) => xs.includes(v) : clause.op === '!=' ? (v) => !xs.includes(v) : clause.op === '>=' ? (v) => v >= x : clause.op === '>' ? (v) => v > x : clause.op === '<=' ? (v) => v <= x : (v) => v < x;
    for (let s = 0; s < n; s++) {
      const v = reader.at(s);
      mask[s] = Number.isNaN(v) ? (negate ? 1 : 0) : test(v) ? 1 : 0;
    }
    return mask;
  }
  if (reader.kind === 'enum') {
    const wanted = new Set(clause.values);
    for (let s = 0; s < n; s++) {
      const v = reader.at(s);
      mask[s] = (v !== null && wanted.has(v)) !== negate ? 1 : 0;
    }
    return mask;
  }
  const postings = reader.postings();
  for (const key of keysOf(clause)) for (const seq of postings.get(key) ?? []) mask[seq] = 1;
  if (negate) for (let s = 0; s < n; s++) mask[s] = mask[s] ? 0 : 1;
  return mask;
}

/** The AND of masks (null: no condition, every item). */
export function andMasks(n: number, masks: (Uint8Array | null)[]): Uint8Array {
  const out = new Uint8Array(n).fill(1);
  for (const mask of masks) if (mask) for (let s = 0; s < n; s++) out[s]! &= mask[s]!;
  return out;
}

export function countMask(mask: Uint8Array): number {
  let count = 0;
  for (let s = 0; s < mask.length; s++) count += mask[s]!;
  return count;
}

/** A page's position: the last row's sort key (null: it had none) and seq. */
export interface Cursor {
  key: number | null;
  seq: number;
}

export function sortKeys(facts: ItemFacts, column: SortColumn, externalRank: () => Int32Array): (seq: number) => number {
  switch (column) {
    case 'seq':
      return (s) => s;
    case 'external_id': {
      const rank = externalRank();
      return (s) => rank[s]!;
    }
    case 'length':
      return (s) => facts.length[s]!;
    case 'labels':
      return (s) => facts.labels[s]!;
    case 'score':
      return (s) => facts.score[s]!;
    case 'uncertainty':
      return (s) => 1 - Math.abs(2 * facts.score[s]! - 1);
    case 'dispute':
      return (s) => facts.dispute[s]!;
    case 'responses':
      return (s) => facts.responses[s]!;
  }
}

/** Items without a value last, both ways; equal keys in file order. */
function comparer(desc: boolean) {
  return (ka: number, sa: number, kb: number, sb: number): number => {
    const na = Number.isNaN(ka);
    const nb = Number.isNaN(kb);
    if (na !== nb) return na ? 1 : -1;
    if (!na && ka !== kb) return desc ? kb - ka : ka - kb;
    return sa - sb;
  };
}

/**
 * The `limit` first matching items after the cursor in the sort order: a walk from the cursor for file
 * order, else one pass keeping the best `limit` in a heap (n log limit, never a sort of all matches).
 */
export function pageOf(mask: Uint8Array, key: (seq: number) => number, column: SortColumn, desc: boolean, cursor: Cursor | null, limit: number): { seqs: number[]; next: Cursor | null } {
  const n = mask.length;
  const out: number[] = [];
  if (column === 'seq') {
    if (desc) for (let s = cursor ? cursor.seq - 1 : n - 1; s >= 0 && out.length <= limit; s--) if (mask[s]) out.push(s);
    if (!desc) for (let s = cursor ? cursor.seq + 1 : 0; s < n && out.length <= limit; s++) if (mask[s]) out.push(s);
  } else {
    const cmp = comparer(desc);
    const ck = cursor ? (cursor.key === null ? Number.NaN : cursor.key) : 0;
    // A max-heap of the best limit + 1 (the extra one says whether a next page exists).
    const heap: { k: number; s: number }[] = [];
    const worse = (a: { k: number; s: number }, b: { k: number; s: number }) => cmp(a.k, a.s, b.k, b.s) > 0;
    const up = (i: number) => {
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!worse(heap[i]!, heap[p]!)) break;
        [heap[i], heap[p]] = [heap[p]!, heap[i]!];
        i = p;
      }
    };
    const down = (i: number) => {
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && worse(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && worse(heap[r]!, heap[m]!)) m = r;
        if (m === i) return;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    };
    for (let s = 0; s < n; s++) {
      if (!mask[s]) continue;
      const k = key(s);
      if (cursor && cmp(k, s, ck, cursor.seq) <= 0) continue;
      if (heap.length <= limit) {
        heap.push({ k, s });
        up(heap.length - 1);
      } else if (cmp(k, s, heap[0]!.k, heap[0]!.s) < 0) {
        heap[0] = { k, s };
        down(0);
      }
    }
    heap.sort((a, b) => cmp(a.k, a.s, b.k, b.s));
    out.push(...heap.map((e) => e.s));
  }
  const more = out.length > limit;
  const seqs = out.slice(0, limit);
  const last = seqs[seqs.length - 1];
  const lastKey = last === undefined ? Number.NaN : key(last);
  return { seqs, next: more && last !== undefined ? { key: Number.isNaN(lastKey) ? null : lastKey, seq: last } : null };
}
