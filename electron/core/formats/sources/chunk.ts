// A piece of an input, cut at a line end, and its lines as the importer sees them (the sources in this
// folder yield chunks; ../import/prepare.ts reads their lines, on the importing thread or in the worker).
import { firstInvalidUtf8, validUtf8 } from './utf8';

/**
 * How chunkLines marks a line whose bytes are not UTF-8: this prefix, the 1-based byte in the line, the
 * byte's value, then the line as decoded (for the rejects file). A NUL cannot start a JSON line.
 */
export const INVALID_UTF8 = '\u0000invalid-utf8:';

/**
 * A piece of the input, cut at a line end: raw UTF-8 bytes of a file, or lines the caller already has
 * (`clean`: lines chunkLines already gave, to be taken as they are).
 */
export type Chunk = { bytes: Uint8Array } | { lines: string[]; clean?: boolean };

/**
 * The chunk's lines as the importer sees them. Bytes split the way readline does (\n, \r\n or a lone
 * \r); given lines lose one trailing \r. The first chunk's first line loses a byte order mark.
 */
export function chunkLines(chunk: Chunk, first: boolean): string[] {
  let lines: string[];
  if ('bytes' in chunk) {
    const bytes = chunk.bytes;
    if (!validUtf8(bytes)) lines = markedLines(bytes);
    else {
      const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
      if (text === '') return [];
      lines = text.includes('\r') ? text.split(/\r\n|\n|\r/) : text.split('\n');
      // A line end at the very end ends the last line; it does not start an empty one.
      const last = text.charCodeAt(text.length - 1);
      if (last === 10 || last === 13) lines.pop();
    }
  } else if (chunk.clean) {
    return chunk.lines;
  } else {
    lines = chunk.lines.map((raw) => (raw.endsWith('\r') ? raw.slice(0, -1) : raw));
  }
  if (first && lines.length && lines[0]!.charCodeAt(0) === 0xfeff) lines[0] = lines[0]!.slice(1);
  return lines;
}

/** Lines of bytes that are not all UTF-8: each bad line becomes its mark (see INVALID_UTF8), the rest as usual. */
function markedLines(bytes: Uint8Array): string[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lines: string[] = [];
  for (let start = 0; start < buffer.length; ) {
    let end = buffer.indexOf(10, start);
    if (end < 0) end = buffer.length;
    const bad = firstInvalidUtf8(buffer, start, end);
    if (bad < 0) {
      const text = buffer.toString('utf8', start, end);
      const parts = text.includes('\r') ? text.split(/\r\n|\r/) : [text];
      if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
      lines.push(...parts);
    } else {
      const text = buffer.toString('utf8', start, end);
      lines.push(`${INVALID_UTF8}${bad - start + 1}:${buffer[bad]}:${text.endsWith('\r') ? text.slice(0, -1) : text}`);
    }
    start = end + 1;
  }
  return lines;
}
