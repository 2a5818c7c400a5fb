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
