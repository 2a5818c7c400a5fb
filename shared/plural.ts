// Counts in words people read: "1 step", "2 steps", "1 person", "3 people". English needs the singular
// for exactly one; irregular plurals are passed in. One helper for the app, the host and the CLI.

/** The word alone for `n` things: `one` for exactly 1, else `many` (default: `one` + "s"). */
export function pluralWord(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

// One formatter for the reader's locale, made once: toLocaleString() sets one up on every call (~0.1 ms in
// Chromium), and a render of the compare screen formats several counts (bench:loop, issue 20).
const GROUPED = new Intl.NumberFormat();

/** `n` grouped as the reader's locale writes it ("12,345"), as `n.toLocaleString()` would. */
export function grouped(n: number): string {
  return GROUPED.format(n);
}

/** `n` and its word: "1 step", "12,345 tokens" (the number grouped as the reader's locale writes it). */
export function plural(n: number, one: string, many?: string): string {
  return `${grouped(n)} ${pluralWord(n, one, many)}`;
}
