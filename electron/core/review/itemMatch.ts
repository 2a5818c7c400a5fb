// A query over the items explorer's facts (./itemFacts.ts): each clause of shared/itemQuery.ts as a mask
// (one byte per item, 1 where it passes), the search text's matches as another, and a page in any sort
// order after a cursor. Every pass is linear in the project's items over typed arrays; nothing is
// estimated, so every count is exact over the facts' watermark.
import { DISAGREEMENTS, LABEL_TASKS, SHAPES, type SortColumn } from '../../../shared/itemFacets';
import { ALL_OUTCOMES, SEVERITIES } from '../../../shared/stepJudgement';
import type { Clause } from '../../../shared/itemQuery';
import type { ItemFacts } from './itemFacts';
import { pairKey, type Consensus } from './itemFactsPeople';
import type { Postings } from './postings';

const YES_NO = ['no', 'yes'];
const PRELABEL = ['shown', 'hidden'];

/**
 * A facet as the engine reads it, over typed arrays (no call per item): one value per item by code (enum:
 * value = names[codes[s] − base], none below base), task bits (labeled: anyone / nobody, and the person's
 * own seqs), named bits (disagree), seq lists per value (set), or a number (NaN: none).
 */
export type FacetReader =
  | { kind: 'enum'; codes: Uint8Array; base: number; names: readonly string[]; fixed: boolean }
  | { kind: 'labeled'; bits: Uint8Array; taskMask: number; mine: () => Int32Array }
  | { kind: 'bits'; bits: Uint8Array; names: readonly string[] }
  | { kind: 'set'; postings: () => Postings; fixed?: readonly string[] }
  | { kind: 'number'; values: ArrayLike<number> };

const mineCache = new WeakMap<ItemFacts, Map<string, Int32Array>>();

/** The seqs a person judged in a task, or in any task (their lists' union, kept with the facts). */
function mineOf(facts: ItemFacts, me: string | null, task: string | undefined): Int32Array {
  const tasks = me === null ? undefined : facts.people.get(me);
  if (!tasks) return new Int32Array(0);
  if (task) return tasks.get(task) ?? new Int32Array(0);
  let cache = mineCache.get(facts);
  if (!cache) mineCache.set(facts, (cache = new Map()));
  let all = cache.get(me!);
  if (!all) {
    const seen = new Uint8Array(facts.n);
    for (const list of tasks.values()) for (const seq of list) seen[seq] = 1;
    const out: number[] = [];
    for (let seq = 0; seq < facts.n; seq++) if (seen[seq]) out.push(seq);
    cache.set(me!, (all = Int32Array.from(out)));
  }
  return all;
}

/** The reader of a facet by its full name (with its part), or undefined when the project has no such facet. */
export function facetReader(facts: ItemFacts, facet: string, me: string | null): FacetReader | undefined {
  const dot = facet.indexOf('.');
  const base = dot < 0 ? facet : facet.slice(0, dot);
  const part = dot < 0 ? undefined : facet.slice(dot + 1);
  switch (base) {
    case 'shape':
      return { kind: 'enum', codes: facts.shape, base: 0, names: SHAPES, fixed: true };
    case 'images':
      return { kind: 'enum', codes: facts.images, base: 0, names: YES_NO, fixed: true };
    case 'adjudicated':
      return { kind: 'enum', codes: facts.adjudicated, base: 0, names: YES_NO, fixed: true };
    case 'model_disagrees':
      return { kind: 'enum', codes: facts.modelDisagrees, base: 0, names: YES_NO, fixed: true };
    case 'consensus': {
      const coded = facts.consensus[(part ?? 'pairwise') as Consensus];
      return coded ? { kind: 'enum', codes: coded.codes, base: 1, names: coded.names, fixed: false } : undefined;
    }
    case 'labeled': {
      const taskMask = part ? 1 << LABEL_TASKS.indexOf(part as (typeof LABEL_TASKS)[number]) : 0xff;
      return { kind: 'labeled', bits: facts.labeledAny, taskMask, mine: () => mineOf(facts, me, part) };
    }
    case 'disagree':
      return { kind: 'bits', bits: facts.disputed, names: DISAGREEMENTS };
    case 'annotator':
    case 'tag':
    case 'wrong':
    case 'split':
      return { kind: 'set', postings: () => facts.sets[base as 'annotator' | 'tag' | 'wrong' | 'split'] };
    case 'week':
      return { kind: 'set', postings: () => facts.sets.week };
    case 'prelabel':
      return { kind: 'set', postings: () => facts.sets.prelabel, fixed: PRELABEL };
    case 'severity':
      return { kind: 'set', postings: () => facts.sets.severity, fixed: SEVERITIES };
    case 'outcome':
      return { kind: 'set', postings: () => facts.sets.outcome, fixed: ALL_OUTCOMES };
    case 'meta': {
      const field = facts.meta.get(part ?? '');
      return field ? { kind: 'set', postings: () => field } : undefined;
    }
    case 'score':
      return { kind: 'number', values: facts.score };
    case 'uncertainty':
      return { kind: 'number', values: facts.uncertainty };
    case 'length':
      return { kind: 'number', values: facts.length };
    case 'labels':
      return { kind: 'number', values: facts.labels };
    default:
      return undefined;
  }
}

/** The clause's values as its facet keys them (a pair of people is one key). */
function keysOf(clause: Clause): string[] {
  if (clause.facet === 'split') return clause.values.length === 2 ? [pairKey(clause.values[0]!, clause.values[1]!)] : [];
  return clause.values;
}

function numberTest(clause: Clause): (v: number) => boolean {
  const xs = clause.values.map(Number);
  const x = xs[0]!;
  switch (clause.op) {
    case '=': return (v) => xs.includes(v);
    case '!=': return (v) => !xs.includes(v);
    case '>=': return (v) => v >= x;
    case '>': return (v) => v > x;
    case '<=': return (v) => v <= x;
    case '<': return (v) => v < x;
  }
}

/** 1 where the item passes the clause. A facet the project lacks: `=` passes nothing, `!=` everything. */
export function clauseMask(facts: ItemFacts, clause: Clause, me: string | null): Uint8Array {
  const n = facts.n;
  const reader = facetReader(facts, clause.facet, me);
  const negate = clause.op === '!=' ? 1 : 0;
  const mask = new Uint8Array(n);
  if (!reader) return negate ? mask.fill(1) : mask;
  switch (reader.kind) {
    case 'number': {
      const test = numberTest(clause);
      const values = reader.values;
      for (let s = 0; s < n; s++) {
        const v = values[s]!;
        mask[s] = Number.isNaN(v) ? negate : test(v) ? 1 : 0;
      }
      return mask;
    }
    case 'enum': {
      const wanted = new Uint8Array(256);
      for (const v of clause.values) {
        const i = reader.names.indexOf(v);
        if (i >= 0) wanted[i + reader.base] = 1;
      }
      const codes = reader.codes;
      for (let s = 0; s < n; s++) mask[s] = wanted[codes[s]!]! ^ negate;
      return mask;
    }
    case 'bits': {
      let wanted = 0;
      for (const v of clause.values) if (reader.names.includes(v)) wanted |= 1 << reader.names.indexOf(v);
      const bits = reader.bits;
      for (let s = 0; s < n; s++) mask[s] = (bits[s]! & wanted ? 1 : 0) ^ negate;
      return mask;
    }
    case 'labeled': {
      const { bits, taskMask } = reader;
      const anyone = clause.values.includes('anyone');
      const nobody = clause.values.includes('nobody');
      if (anyone || nobody) for (let s = 0; s < n; s++) mask[s] = bits[s]! & taskMask ? (anyone ? 1 : 0) : nobody ? 1 : 0;
      if (clause.values.includes('mine')) for (const seq of reader.mine()) mask[seq] = 1;
      break;
    }
    case 'set': {
      const postings = reader.postings();
      for (const key of keysOf(clause)) for (const seq of postings.get(key) ?? []) mask[seq] = 1;
      break;
    }
  }
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

/** `relevance`: per seq, the search's relevance (−bm25: larger is better; NaN where the item does not match). */
export function sortKeys(facts: ItemFacts, column: SortColumn, externalRank: () => Int32Array, relevance?: Float64Array | null): (seq: number) => number {
  switch (column) {
    case 'relevance':
      return relevance ? (s) => relevance[s]! : (s) => s;
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
      return (s) => facts.uncertainty[s]!;
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
