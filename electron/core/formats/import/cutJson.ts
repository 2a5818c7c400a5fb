// Reads the beginning of a JSON object whose end was cut off: a record longer than the import preview
// reads (a 5 MB response, say). The fields before the cut come out as they are, the one the cut fell in
// as far as it goes; enough to tell a format by its field names and the kinds of their values.

type Step = { value: unknown; next: number; whole: boolean };

const space = /\s/;

function skip(text: string, i: number): number {
  while (i < text.length && space.test(text[i]!)) i++;
  return i;
}

function readString(text: string, start: number): Step {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  if (i < text.length) return { value: JSON.parse(text.slice(start, i + 1)) as string, next: i + 1, whole: true };
  // Cut inside the string: drop a cut escape sequence at the end until the rest decodes.
  let body = text.slice(start + 1);
  for (let drop = 0; drop <= 6; drop++, body = body.slice(0, -1)) {
    try {
      return { value: JSON.parse(`"${body}"`) as string, next: text.length, whole: false };
    } catch {
      /* a cut escape: one character less */
    }
  }
  return { value: '', next: text.length, whole: false };
}

function readList(text: string, start: number): Step {
  const list: unknown[] = [];
  let i = skip(text, start + 1);
  if (text[i] === ']') return { value: list, next: i + 1, whole: true };
  while (i < text.length) {
    const item = readValue(text, i);
    if (item.value !== undefined) list.push(item.value);
    if (!item.whole) break;
    i = skip(text, item.next);
    if (text[i] === ']') return { value: list, next: i + 1, whole: true };
    i = skip(text, i + 1); // the comma
  }
  return { value: list, next: text.length, whole: false };
}

function readObject(text: string, start: number): Step {
  const object: Record<string, unknown> = {};
  let i = skip(text, start + 1);
  if (text[i] === '}') return { value: object, next: i + 1, whole: true };
  while (i < text.length && text[i] === '"') {
    const key = readString(text, i);
    if (!key.whole) break;
    i = skip(text, key.next);
    if (text[i] !== ':') break;
    i = skip(text, i + 1);
    // A field whose value the cut fell before is there all the same: its name is what tells formats apart.
    const value = i < text.length ? readValue(text, i) : { value: undefined, next: i, whole: false };
    object[key.value as string] = value.value;
    if (!value.whole) break;
    i = skip(text, value.next);
    if (text[i] === '}') return { value: object, next: i + 1, whole: true };
    i = skip(text, i + 1);
  }
  return { value: object, next: text.length, whole: false };
}

function readValue(text: string, i: number): Step {
  const c = text[i];
  if (c === '"') return readString(text, i);
  if (c === '[') return readList(text, i);
  if (c === '{') return readObject(text, i);
  const atom = /^(-?\d[\d.eE+-]*|true|false|null)/.exec(text.slice(i, i + 40));
  if (!atom) return { value: undefined, next: text.length, whole: false };
  const end = i + atom[0].length;
  return { value: JSON.parse(atom[0]) as unknown, next: end, whole: end < text.length };
}

/** The object a cut-off line begins, or null when it does not begin one. */
export function readCutObject(text: string): Record<string, unknown> | null {
  const start = skip(text, 0);
  if (text[start] !== '{') return null;
  try {
    return readObject(text, start).value as Record<string, unknown>;
  } catch {
    return null;
  }
}
