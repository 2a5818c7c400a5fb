// Source-order letters: A is the file's first response, B its second, and so on. They never name a
// screen side (docs/annotating.md, "Compare"): the screen says Left and Right.
export function responseLetter(index: number): string {
  return String.fromCharCode(65 + index);
}

export function letterIndex(letter: string): number {
  return letter.charCodeAt(0) - 65;
}
