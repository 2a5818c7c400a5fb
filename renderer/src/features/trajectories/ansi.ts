// Terminal output as text segments: ANSI colour codes (SGR: 30–37, 90–97, bold, reset) become a class per
// segment; every other escape sequence (cursor moves, titles, erase) and stray control characters are
// dropped. The text is only ever rendered as React text, never as HTML.

export interface Segment {
  text: string;
  /** A Tailwind class for the colour, or '' for the terminal's own. */
  cls: string;
  bold: boolean;
}

const COLOURS: Record<number, string> = {
  30: 'text-zinc-500',
  31: 'text-red-400',
  32: 'text-green-400',
  33: 'text-yellow-300',
  34: 'text-sky-400',
  35: 'text-fuchsia-400',
  36: 'text-cyan-300',
  37: 'text-zinc-200',
};

// CSI … final byte, OSC … BEL/ST, and other two-byte escapes.
const ESCAPE = /\u001b\[([0-9;?]*)([@-~])|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]?/g;
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Whether the text holds any escape or control character at all (most output holds none). */
export function hasEscapes(text: string): boolean {
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text);
}

export function ansiSegments(text: string): Segment[] {
  if (!hasEscapes(text)) return [{ text, cls: '', bold: false }];
  const out: Segment[] = [];
  let cls = '';
  let bold = false;
  let last = 0;
  const push = (s: string) => {
    const clean = s.replace(CONTROL, '');
    if (clean) out.push({ text: clean, cls, bold });
  };
  for (const m of text.matchAll(ESCAPE)) {
    push(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[2] !== 'm') continue;
    const codes = (m[1] || '0').split(';').map(Number);
    for (const c of codes) {
      if (c === 0) {
        cls = '';
        bold = false;
      } else if (c === 1) bold = true;
      else if (c === 22) bold = false;
      else if (c === 39) cls = '';
      else if (COLOURS[c]) cls = COLOURS[c];
      else if (c >= 90 && c <= 97) cls = COLOURS[c - 60] ?? '';
    }
  }
  push(text.slice(last));
  return out;
}
