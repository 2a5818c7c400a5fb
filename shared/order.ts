// Deterministic per-(annotator, item) screen order, so that position bias averages out across
// annotators while one annotator always sees an item the same way (reopening it does not flip sides).

/** 32-bit FNV-1a: tiny, stable across platforms, good enough to seed a shuffle. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A small seeded PRNG (also used by the benches to generate data deterministically). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Source-order indexes in the order they appear on screen, left to right. */
export function shownOrder(annotator: string, itemUid: string, count: number): number[] {
  const order = Array.from({ length: count }, (_, i) => i);
  const random = mulberry32(fnv1a(`${annotator}\u0000${itemUid}`));
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/**
 * A pseudo-random permutation of 0 … length − 1, seeded (an annotator's own labeling order): a balanced
 * Feistel network over the smallest even number of bits that covers `length`, cycle-walked back into
 * range. Both directions are a few multiplications, so the next item in this order is found without
 * sorting or storing the project: at(position) gives a seq, positionOf(seq) where the walk stands.
 */
export function seededPermutation(length: number, seed: number): { at(position: number): number; positionOf(value: number): number } {
  let half = 1;
  while (2 ** (2 * half) < length) half++;
  const mask = 2 ** half - 1;
  const keys = [0, 1, 2, 3].map((round) => fnv1a(`${seed}:${round}`) & 0x7fffffff);
  const mix = (x: number, key: number) => Math.imul((x ^ key) >>> 0, 0x9e3779b1) >>> 0 >>> 7 & mask;
  const forward = (x: number) => {
    let left = Math.floor(x / (mask + 1));
    let right = x & mask;
    for (const key of keys) [left, right] = [right, (left ^ mix(right, key)) & mask];
    return left * (mask + 1) + right;
  };
  const backward = (y: number) => {
    let left = Math.floor(y / (mask + 1));
    let right = y & mask;
    for (let r = keys.length - 1; r >= 0; r--) [left, right] = [(right ^ mix(left, keys[r]!)) & mask, left];
    return left * (mask + 1) + right;
  };
  // Cycle walking: a value outside the range is permuted again until it falls inside; the walk stays
  // a bijection on the range and is short, since the covering domain is less than four times larger.
  const walk = (x: number, step: (v: number) => number) => {
    let v = step(x);
    while (v >= length) v = step(v);
    return v;
  };
  return { at: (position) => walk(position, forward), positionOf: (value) => walk(value, backward) };
}

/**
 * Overlap: whether an item is one of `annotator`'s, when each item goes to `k` people of `team`. The k
 * members with the highest hash of (member, item uid) get it (rendezvous hashing), so machines that
 * never talk split the work the same way, and adding a member moves only that member's share. Someone
 * not on the team, or k of 0 or the whole team, sees every item.
 */
export function assignedTo(annotator: string, itemUid: string, team: readonly string[], k: number): boolean {
  if (k <= 0 || k >= team.length || !team.includes(annotator)) return true;
  const mine = fnv1a(`${annotator}\u0000${itemUid}`);
  let above = 0;
  for (const member of team) {
    if (member === annotator) continue;
    const theirs = fnv1a(`${member}\u0000${itemUid}`);
    if (theirs > mine || (theirs === mine && member < annotator)) above++;
    if (above >= k) return false;
  }
  return true;
}
