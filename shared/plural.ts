// Counts in words people read: "1 step", "2 steps", "1 person", "3 people". English needs the singular
// for exactly one; irregular plurals are passed in. One helper for the app, the host and the CLI.

/** The word alone for `n` things: `one` for exactly 1, else `many` (default: `one` + "s"). */
export function pluralWord(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

/** `n` and its word: "1 step", "12,345 tokens" (the number grouped as the reader's locale writes it). */
export function plural(n: number, one: string, many?: string): string {
  return `${n.toLocaleString()} ${pluralWord(n, one, many)}`;
}
