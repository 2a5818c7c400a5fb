// A small seeded random source for the kill and fuzz suites: the same seed gives the same cases, so a
// failure's seed reproduces it (KILL_SEED / FUZZ_SEED).

export interface Rng {
  /** A float in [0, 1). */
  (): number;
  /** A whole number in [0, n). */
  int(n: number): number;
  /** One element of a list. */
  pick<T>(list: readonly T[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
  /** A UUID-shaped id (version 7 nibble, variant 8), unique per call within a run. */
  uuid(): string;
}

/** mulberry32: tiny, fast, good enough to draw test cases. */
export function seededRng(seed: number): Rng {
  let state = seed >>> 0;
  let made = 0;
  const next = (() => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }) as Rng;
  next.int = (n) => Math.floor(next() * n);
  next.pick = (list) => list[next.int(list.length)]!;
  next.chance = (p) => next() < p;
  next.uuid = () => {
    const hex = (n: number) => Array.from({ length: n }, () => next.int(16).toString(16)).join('');
    const count = (made++).toString(16).padStart(12, '0');
    return `${hex(8)}-${hex(4)}-7${hex(3)}-8${hex(3)}-${count}`;
  };
  return next;
}

/** The seed from an environment variable, or a fresh one; either way printed by the caller. */
export function seedFrom(variable: string): number {
  const given = process.env[variable];
  if (given !== undefined && given.trim() !== '') {
    const n = Number(given);
    if (!Number.isInteger(n) || n < 0) throw new Error(`${variable} must be a whole number, got "${given}"`);
    return n;
  }
  return Math.floor(Math.random() * 2 ** 31);
}
