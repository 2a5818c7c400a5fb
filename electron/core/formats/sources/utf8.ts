// Bytes that are not UTF-8 are refused, never turned into U+FFFD: a file saved as Latin-1 or cut in the
// middle of a character would otherwise change its text without a word. A line's bad bytes are said by
// position (1-based, counted in bytes from the start of the line) so the file can be fixed there.
import { isUtf8 } from 'node:buffer';
import { ArbiterError } from '../../base/errors';

/** The index of the first byte (from `from`, before `to`) that does not belong to valid UTF-8, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array, from = 0, to = bytes.length): number {
  let i = from;
  while (i < to) {
    const c = bytes[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) length = 2;
    else if (c >= 0xe0 && c <= 0xef) {
      length = 3;
      if (c === 0xe0) low = 0xa0;
      else if (c === 0xed) high = 0x9f; // UTF-16 surrogates are not characters
    } else if (c >= 0xf0 && c <= 0xf4) {
      length = 4;
      if (c === 0xf0) low = 0x90;
      else if (c === 0xf4) high = 0x8f;
    } else return i;
    if (i + length > to) return i;
    const second = bytes[i + 1]!;
    if (second < low || second > high) return i;
    for (let k = 2; k < length; k++) {
      const next = bytes[i + k]!;
      if (next < 0x80 || next > 0xbf) return i;
    }
    i += length;
  }
  return -1;
}

/** Whether these bytes are all valid UTF-8 (the fast, native check). */
export function validUtf8(bytes: Uint8Array): boolean {
  return bytes.length === 0 || isUtf8(bytes);
}

/** Why a line's bytes are not UTF-8, for a line error: where the first bad byte is and what it is. */
export function invalidUtf8Reason(byteInLine: number, value: number): string {
  return `not valid UTF-8 (byte ${byteInLine} of the line is 0x${value.toString(16).padStart(2, '0')}): save the file as UTF-8`;
}

/**
 * A whole file's text, refused with its line and byte when it is not UTF-8 (a file read at once: a
 * rubric). A leading byte order mark is dropped.
 */
export function decodeUtf8(bytes: Uint8Array, name: string): string {
  if (!validUtf8(bytes)) {
    const at = firstInvalidUtf8(bytes);
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at; i++) {
      if (bytes[i] === 10) {
        line++;
        lineStart = i + 1;
      }
    }
    throw new ArbiterError('invalid_file', `${name}:${line}: ${invalidUtf8Reason(at - lineStart + 1, bytes[at]!)}; nothing was imported.`, { line });
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
