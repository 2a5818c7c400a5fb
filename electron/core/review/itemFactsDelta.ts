// A label change refreshes the items explorer's facts of its items alone: the items whose labels,
// adjudications or gold marks are newer than the people's part (store/itemFacts.ts changedSeqs), and the
// seqs an import made visible since, are read again (./itemFacts.ts readPeoplePart over those seqs) and
// put in place of what the part held for them. A save, an undo (a revision too), a labels import and a
// hub pull all append rows with a newer seq, so the same read follows each. A change of the gold rules or
// of the reward models, or a watermark that went back, is read whole (null). A labels import points
// current labels at revisions it wrote before: its items are read again while it is open and once after.
import type { Db } from '../store/db';
import { changedSeqs, factMarks } from '../store/itemFacts';
import { readPeoplePart, type PeoplePart } from './itemFacts';
import type { Consensus } from './itemFactsPeople';
import type { Coded, Postings } from './postings';

/** More changed items than this share of the project: one whole read is cheaper than the lookups. */
const WHOLE_SHARE = 0.25;

function grownTo<T extends Uint8Array | Float32Array>(old: T, n: number, make: (n: number) => T, fill?: number): T {
  if (old.length === n) return old;
  const out = make(n);
  if (fill !== undefined) out.fill(fill);
  out.set(old.subarray(0, Math.min(old.length, n)));
  return out;
}

/** The first index at or after `from` whose seq is at least `seq`. */
function lowerBound(list: Int32Array, seq: number, from: number): number {
  let lo = from;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]! < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const has = (list: Int32Array, seq: number) => list[lowerBound(list, seq, 0)] === seq;

/**
 * `list` without the changed `seqs`, with `added` (the seqs of them that hold the value) in their place;
 * all ascending. The runs between changed seqs are copied whole (a few memcpy, not a test per seq).
 */
function replaced(list: Int32Array, seqs: number[], added: Int32Array): Int32Array {
  const out = new Int32Array(list.length + added.length);
  let w = 0;
  let r = 0;
  let a = 0;
  for (const seq of seqs) {
    const at = lowerBound(list, seq, r);
    out.set(list.subarray(r, at), w);
    w += at - r;
    r = at < list.length && list[at] === seq ? at + 1 : at;
    if (added[a] === seq) out[w++] = added[a++]!;
  }
  out.set(list.subarray(r), w);
  w += list.length - r;
  return w === out.length ? out : out.slice(0, w);
}

/** Postings with the changed seqs' values replaced by the delta's; only the lists that held or gain one are copied. */
export function replacePostings(old: Postings, seqs: number[], delta: Postings | undefined): Postings {
  const out: Postings = new Map();
  const none = new Int32Array(0);
  for (const [value, list] of old) {
    const added = delta?.get(value);
    const touched = added !== undefined || seqs.some((seq) => has(list, seq));
    const next = touched ? replaced(list, seqs, added ?? none) : list;
    if (next.length) out.set(value, next);
  }
  for (const [value, added] of delta ?? []) if (!old.has(value) && added.length) out.set(value, added);
  return out;
}

/** Puts the delta's consensus values (by slot) into the part's coded column at their seqs. */
function recoded(part: Coded, n: number, seqs: number[], delta: Coded): Coded {
  const codes = grownTo(part.codes, n, (k) => new Uint8Array(k));
  const names = [...part.names];
  seqs.forEach((seq, at) => {
    const code = delta.codes[at]!;
    if (!code) return void (codes[seq] = 0);
    const name = delta.names[code - 1]!;
    let index = names.indexOf(name);
    if (index < 0 && names.length < 255) index = names.push(name) - 1;
    codes[seq] = index < 0 ? 0 : index + 1;
  });
  return { codes, names };
}

/**
 * The people's part brought to the store's present for the project's n visible items, or null when it
 * must be read whole. Its typed arrays are updated in place (grown when n grew); the seq lists are new.
 * `changed`: the seqs read again.
 */
export function refreshPeoplePart(db: Db, projectId: number, part: PeoplePart, n: number): { part: PeoplePart; changed: number[] } | null {
  return db.transaction(() => {
    const now = factMarks(db, projectId);
    const was = part.marks;
    const oldN = part.labels.length;
    if (now.rules !== was.rules || now.label < was.label || now.adjudication < was.adjudication || now.gold < was.gold || n < oldN) return null;
    const seqs = changedSeqs(db, projectId, was, now, oldN);
    for (let seq = oldN; seq < n; seq++) seqs.push(seq);
    if (seqs.length > Math.max(1_000, n * WHOLE_SHARE)) return null;
    if (!seqs.length) return { part: { ...part, marks: now }, changed: [] };
    const delta = readPeoplePart(db, projectId, n, seqs);
    const bytes = (old: Uint8Array) => grownTo(old, n, (k) => new Uint8Array(k));
    const adjudicated = bytes(part.adjudicated);
    const labels = bytes(part.labels);
    const labeledAny = bytes(part.labeledAny);
    const rubricSplit = bytes(part.rubricSplit);
    const score = grownTo(part.score, n, (k) => new Float32Array(k), Number.NaN);
    const uncertainty = grownTo(part.uncertainty, n, (k) => new Float32Array(k), Number.NaN);
    seqs.forEach((seq, at) => {
      adjudicated[seq] = delta.adjudicated[at]!;
      labels[seq] = delta.labels[at]!;
      labeledAny[seq] = delta.labeledAny[at]!;
      rubricSplit[seq] = delta.rubricSplit[at]!;
      score[seq] = delta.score[at]!;
      uncertainty[seq] = delta.uncertainty[at]!;
    });
    const consensus = Object.fromEntries(Object.entries(part.consensus).map(([c, coded]) => [c, recoded(coded, n, seqs, delta.consensus[c as Consensus])])) as PeoplePart['consensus'];
    const people = new Map<string, Map<string, Int32Array>>();
    for (const person of new Set([...part.people.keys(), ...delta.people.keys()])) {
      const before = part.people.get(person) ?? new Map<string, Int32Array>();
      const after = replacePostings(before, seqs, delta.people.get(person));
      if (after.size) people.set(person, after);
    }
    const sets = Object.fromEntries(Object.entries(part.sets).map(([name, postings]) => [name, replacePostings(postings, seqs, delta.sets[name as keyof PeoplePart['sets']])])) as PeoplePart['sets'];
    return { part: { marks: delta.marks, adjudicated, labels, score, uncertainty, labeledAny, rubricSplit, consensus, people, sets }, changed: seqs };
  }).deferred();
}
