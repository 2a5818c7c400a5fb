// Levenshtein distance in characters (code points): how far an annotator's saved critique is from the
// judge's critique they started from. Two rows of the table, so memory stays linear.
export function editDistance(a: string, b: string): number {
  const s = [...a];
  const t = [...b];
  if (!s.length) return t.length;
  if (!t.length) return s.length;
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  let current = new Array<number>(t.length + 1);
  for (let i = 1; i <= s.length; i++) {
    current[0] = i;
    for (let j = 1; j <= t.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (s[i - 1] === t[j - 1] ? 0 : 1));
    [previous, current] = [current, previous];
  }
  return previous[t.length]!;
}
