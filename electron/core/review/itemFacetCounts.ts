// Each facet's values counted under a query (./itemMatch.ts): over the items every other clause and the
// search match, this facet's own clauses left out (so a facet in use still shows its other values, as
// Argilla and Label Studio count them). Exact: one pass over the facts per facet.
import type { FacetCount, FacetValueCount } from '../../../shared/api/items';
import { LABEL_TASKS } from '../../../shared/itemFacets';
import { formatQuery, type Clause } from '../../../shared/itemQuery';
import type { ItemFacts } from './itemFacts';
import { CONSENSUS_PARTS } from './itemFactsPeople';
import { andMasks, facetReader, type FacetReader } from './itemMatch';

/** An open facet lists its largest values, this many. */
const LISTED = 50;

const clauseText = (facet: string, op: Clause['op'], values: string[]) => formatQuery({ text: '', clauses: [{ facet, op, values }] });

/** The facets worth showing for these facts: the fixed ones, then a task's, a consensus's, a field's where the project has them. */
export function facetNames(facts: ItemFacts): string[] {
  const tasks = LABEL_TASKS.filter((t) => {
    const bit = 1 << LABEL_TASKS.indexOf(t);
    for (let s = 0; s < facts.n; s++) if (facts.labeledAny[s]! & bit) return true;
    return false;
  });
  return [
    'shape',
    'images',
    'labeled',
    ...tasks.map((t) => `labeled.${t}`),
    'disagree',
    // A value some item holds (a label change may leave a name no item holds any more: ./itemFactsDelta.ts).
    ...CONSENSUS_PARTS.filter((c) => facts.consensus[c].names.length && facts.consensus[c].codes.some((code) => code > 0)).map((c) => (c === 'pairwise' ? 'consensus' : `consensus.${c}`)),
    'adjudicated',
    'annotator',
    'split',
    'score',
    'model_disagrees',
    'wrong',
    'uncertainty',
    'tag',
    'severity',
    'outcome',
    // Where the project has them: the weeks pairs were labeled in, the pre-label's visibility recorded.
    ...(['week', 'prelabel'] as const).filter((f) => facts.sets[f].size > 0),
    ...[...facts.meta.keys()].sort().map((f) => `meta.${f}`),
    'length',
    'labels',
  ];
}

/**
 * Counting reads the matching items' seqs alone where the mask holds at most one item in `sparse` (a
 * search's hits, most often: 700 of 200k at the median in bench/items-scale.mjs), not every item once per
 * facet; the same counts either way (the tests set it to walk both: test/integration/items-query.test.ts).
 */
export const facetBounds = { sparse: 16 };

/** The seqs a mask holds when they are few (see facetBounds), else null. */
function fewSeqs(mask: Uint8Array): Int32Array | null {
  let count = 0;
  for (let s = 0; s < mask.length; s++) count += mask[s]!;
  if (count * facetBounds.sparse > mask.length) return null;
  const out = new Int32Array(count);
  for (let s = 0, i = 0; s < mask.length; s++) if (mask[s]) out[i++] = s;
  return out;
}

const BINS = 10;
const LENGTH_EDGES = [0, 100, 1_000, 10_000, 100_000];

function numberCounts(facet: string, values: ArrayLike<number>, mask: Uint8Array, few: Int32Array | null): FacetCount {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  const integers = facet === 'labels';
  // Scores and uncertainty: tenths of 0 … 1; length: powers of ten; labels: each number of people.
  const edges = facet === 'length' ? LENGTH_EDGES : Array.from({ length: BINS }, (_, i) => i / BINS);
  const counts = new Float64Array(integers ? 256 : edges.length);
  const seen = few ? few.length : mask.length;
  for (let at = 0; at < seen; at++) {
    const s = few ? few[at]! : at;
    if (!few && !mask[s]) continue;
    const v = values[s]!;
    if (Number.isNaN(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
    if (integers) counts[v]!++;
    else {
      let i = edges.length - 1;
      while (i > 0 && v < edges[i]!) i--;
      counts[i]!++;
    }
  }
  const range = min <= max ? { min, max } : null;
  if (integers) {
    const listed: FacetValueCount[] = [];
    counts.forEach((count, v) => {
      if (count) listed.push({ value: String(v), count, clause: clauseText(facet, '=', [String(v)]) });
    });
    return { facet, kind: 'number', values: listed, more: 0, range };
  }
  const listed: FacetValueCount[] = edges.map((lo, i) => {
    const hi = edges[i + 1];
    const said = hi === undefined ? `≥ ${lo}` : `${lo} – ${hi}`;
    const clause = hi === undefined ? clauseText(facet, '>=', [String(lo)]) : `${clauseText(facet, '>=', [String(lo)])} ${clauseText(facet, '<', [String(hi)])}`;
    return { value: said, count: counts[i]!, clause };
  });
  return { facet, kind: 'number', values: listed, more: 0, range };
}

/** value → count under the mask, for the reader's kind; one pass over typed arrays or seq lists. */
function countValues(reader: FacetReader, mask: Uint8Array, few: Int32Array | null): Map<string, number> {
  const counts = new Map<string, number>();
  const n = mask.length;
  if (reader.kind === 'enum') {
    const byCode = new Float64Array(256);
    const codes = reader.codes;
    if (few) for (let i = 0; i < few.length; i++) byCode[codes[few[i]!]!]!++;
    else for (let s = 0; s < n; s++) byCode[codes[s]!]! += mask[s]!;
    reader.names.forEach((name, i) => counts.set(name, byCode[i + reader.base]!));
  } else if (reader.kind === 'bits') {
    const byBit = new Float64Array(8);
    const bits = reader.bits;
    const seen = few ? few.length : n;
    for (let at = 0; at < seen; at++) {
      const s = few ? few[at]! : at;
      const b = bits[s]!;
      if (b && mask[s]) for (let i = 0; i < 8; i++) if (b & (1 << i)) byBit[i]!++;
    }
    reader.names.forEach((name, i) => counts.set(name, byBit[i]!));
  } else if (reader.kind === 'labeled') {
    let anyone = 0;
    let all = 0;
    const { bits, taskMask } = reader;
    const seen = few ? few.length : n;
    for (let at = 0; at < seen; at++) {
      const s = few ? few[at]! : at;
      if (!mask[s]) continue;
      all++;
      if (bits[s]! & taskMask) anyone++;
    }
    let mine = 0;
    for (const seq of reader.mine()) mine += mask[seq]!;
    counts.set('mine', mine).set('anyone', anyone).set('nobody', all - anyone);
  } else if (reader.kind === 'set') {
    for (const [value, seqs] of reader.postings()) {
      let count = 0;
      for (let i = 0; i < seqs.length; i++) count += mask[seqs[i]!]!;
      if (count) counts.set(value, count);
    }
  }
  return counts;
}

/** The listed values of a facet in a fixed order (the facet's own) or by count. */
function valueCounts(facts: ItemFacts, facet: string, mask: Uint8Array, few: Int32Array | null, me: string | null): FacetCount | null {
  const reader = facetReader(facts, facet, me);
  if (!reader) return null;
  if (reader.kind === 'number') return numberCounts(facet, reader.values, mask, few);
  const counts = countValues(reader, mask, few);
  const fixed = reader.kind === 'enum' ? (reader.fixed ? reader.names : null) : reader.kind === 'bits' ? reader.names : reader.kind === 'labeled' ? ['mine', 'anyone', 'nobody'] : (reader.fixed ?? null);
  const ranked = fixed ? fixed.map((v) => [v, counts.get(v) ?? 0] as const) : [...counts].filter(([, c]) => c > 0).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const listed = ranked.slice(0, LISTED).map(([value, count]) => {
    // A pair of people is keyed by both names; it reads "alice × bob" and selects split=alice,bob.
    const pair = facet === 'split' ? (JSON.parse(value) as [string, string]) : null;
    return { value: pair ? `${pair[0]} × ${pair[1]}` : value, count, clause: clauseText(facet, '=', pair ?? [value]) };
  });
  const kind = reader.kind === 'enum' ? 'enum' : 'set';
  return { facet, kind, values: listed, more: Math.max(0, ranked.length - LISTED) };
}

/** Every facet's counts under the query: `clauseMasks` line up with `clauses`; `search` is the text's mask (or null). */
export function facetCounts(facts: ItemFacts, clauses: Clause[], clauseMasks: Uint8Array[], search: Uint8Array | null, me: string | null, all: Uint8Array): FacetCount[] {
  const names = facetNames(facts);
  const used = new Set(clauses.map((c) => c.facet));
  for (const facet of used) if (!names.includes(facet)) names.push(facet);
  const out: FacetCount[] = [];
  const allFew = fewSeqs(all);
  for (const facet of names) {
    const own = used.has(facet);
    const mask = own ? andMasks(facts.n, [search, ...clauseMasks.filter((_, i) => clauses[i]!.facet !== facet)]) : all;
    const counted = valueCounts(facts, facet, mask, own ? fewSeqs(mask) : allFew, me);
    if (counted) out.push(counted);
  }
  return out;
}

