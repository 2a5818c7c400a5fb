// The pairwise heads (store/reviewHeads.ts, typed columns) made into the columns the figures walk: one
// entry a head, items and people as dense indexes in the order met, no object made per head.
import { CHOICE_CODES, NO_CHOICE, OTHER_CHOICE, type PairLengths, type PairwiseHeads } from '../store/reviewHeads';
import { IdIndex, Index } from './collect';

const CHOICES = CHOICE_CODES;

/**
 * The labels by choice (`arbiter stats` prints them), keys in the order first met, as counting head by
 * head gave them: the four choices from their codes' counts, any other choice's text from its heads.
 */
function choiceCounts(heads: PairwiseHeads, counts: Int32Array, firstAt: Int32Array): Record<string, number> {
  const found: { name: string; n: number; first: number }[] = [];
  for (let code = 0; code < OTHER_CHOICE; code++) if (counts[code]! > 0) found.push({ name: CHOICES[code]!, n: counts[code]!, first: firstAt[code]! });
  const others = new Map<string, { name: string; n: number; first: number }>();
  for (const [i, name] of heads.otherChoices) {
    const seen = others.get(name);
    if (seen) seen.n++;
    else others.set(name, { name, n: 1, first: i });
  }
  found.push(...others.values());
  found.sort((a, b) => a.first - b.first);
  return Object.fromEntries(found.map((c) => [c.name, c.n]));
}

/** Which response a pick went to, as `left` codes it (1 A, 2 B): the pick's side (1 left, 0 right), else NaN. */
function leftPick(code: number, left: number): number {
  if ((code !== 0 && code !== 1) || left === 0) return Number.NaN;
  return left - 1 === code ? 1 : 0;
}

/**
 * The heads as the figures' columns (one entry a head, typed arrays): items and people as dense indexes in
 * the order met, and the choices counted as read. No object is made per head. `figures`: false makes the
 * columns the queue reads alone (the others empty: at 2M judgements ~110 MB not made).
 */
export function headColumns(heads: PairwiseHeads, lengths: PairLengths, figures = true) {
  const n = heads.length;
  const items = new IdIndex(heads.itemId);
  // Per unit: its item's id and seq.
  const unitItem: number[] = [];
  const unitSeq: number[] = [];
  // People by name in the order met (two annotator ids of one name are one rater, as before).
  const people = new Index<string>();
  const raterOf = Int32Array.from(heads.people, (p) => people.of(p.name));
  const unit = new Int32Array(n);
  const rater = new Int32Array(n);
  const choice = new Float64Array(n);
  const per = figures ? n : 0;
  const signed = new Float64Array(per);
  const left = new Float64Array(per);
  const chosenLen = new Float64Array(per);
  const otherLen = new Float64Array(per);
  const visible = new Float64Array(per);
  const counts = new Int32Array(NO_CHOICE + 1);
  const firstAt = new Int32Array(NO_CHOICE + 1).fill(-1);
  let lastItem = Number.NaN;
  let u = -1;
  for (let i = 0; i < n; i++) {
    const itemId = heads.itemId[i]!;
    // A project's heads come item by item: the index is asked once an item.
    if (itemId !== lastItem) {
      const before = items.size;
      u = items.of(itemId);
      if (u === before) {
        unitItem.push(itemId);
        unitSeq.push(heads.seq[i]!);
      }
      lastItem = itemId;
    }
    unit[i] = u;
    rater[i] = raterOf[heads.person[i]!]!;
    const code = heads.choice[i]!;
    if (counts[code] === 0) firstAt[code] = i;
    counts[code] = counts[code]! + 1;
    const c = code < OTHER_CHOICE ? code : -1;
    choice[i] = c;
    if (!figures) continue;
    const strength = heads.strength[i] || Number.NaN;
    signed[i] = c === 0 ? -strength : c === 1 ? strength : c === 2 ? 0 : Number.NaN;
    left[i] = leftPick(c, heads.left[i]!);
    const v = heads.visible[i]!;
    visible[i] = v === 0 ? Number.NaN : v - 1;
  }
  const columns = { items, unitItem, unitSeq, people, unit, rater, choice, signed, left, chosenLen, otherLen, savedAt: heads.savedMs, timeMs: heads.timeMs, visible, choices: choiceCounts(heads, counts, firstAt) };
  if (!figures) return columns;
  // The first two responses' lengths by unit (NaN where the item has none), then each pick's.
  const first = new Float64Array(items.size).fill(Number.NaN);
  const second = new Float64Array(items.size).fill(Number.NaN);
  for (let j = 0; j < lengths.length; j++) {
    const at = items.find(lengths.itemId[j]!);
    if (at === undefined) continue;
    first[at] = lengths.first[j]!;
    second[at] = lengths.second[j]!;
  }
  for (let i = 0; i < n; i++) {
    const c = choice[i]!;
    const known = (c === 0 || c === 1) && !Number.isNaN(first[unit[i]!]!);
    chosenLen[i] = known ? (c === 0 ? first : second)[unit[i]!]! : Number.NaN;
    otherLen[i] = known ? (c === 0 ? second : first)[unit[i]!]! : Number.NaN;
  }
  return columns;
}

