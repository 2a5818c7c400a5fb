// A JSON document that is one array of records (`[{...}, {...}]`), parsed as a stream: each element
// becomes one line, its JSON.stringify, so the importer's "line N" is element N of the array (1-based:
// line 1 is element [0]). A syntax error cannot be skipped past, so it stops the whole import.
import { JSONParser } from '@streamparser/json';
import { ArbiterError } from '../../base/errors';
import type { Chunk } from './chunk';
import { limit, limitEnvName } from '../../base/limits';
import { RecordTooLongError, recordMaxBytes } from './cap';

/** Elements per chunk: the same batch as lines given to importLines. */
export const CHUNK_RECORDS = 2000;

/** `path`: how messages name the file. */
export async function* jsonArrayChunks(bytes: AsyncIterable<Uint8Array>, path: string, recordsPerChunk = CHUNK_RECORDS): AsyncGenerator<Chunk> {
  // keepStack: false drops each element from the parser's copy of the array once it is emitted, so
  // memory holds one chunk of elements, never the whole array.
  const parser = new JSONParser({ paths: ['$.*'], keepStack: false });
  const maxBytes = recordMaxBytes();
  const depth = new DepthScan(limit('recordMaxDepth'), path);
  let elements = 0;
  // Bytes fed since the last element ended (roughly: to the end of the piece it ended in): an element
  // that grows past the cap stops the reading before the parser holds more of it.
  let sinceElement = 0;
  let ended = false;
  let batch: string[] = [];
  const ready: string[][] = [];
  parser.onValue = ({ value }) => {
    elements++;
    ended = true;
    const text = JSON.stringify(value);
    if (text.length > maxBytes || (text.length * 3 > maxBytes && Buffer.byteLength(text) > maxBytes)) throw new RecordTooLongError(path, elements, maxBytes, 'element');
    batch.push(text);
    if (batch.length === recordsPerChunk) {
      ready.push(batch);
      batch = [];
    }
  };
  /** Hands the parser a piece, or the end of the input (no piece); JSON errors name the element. */
  const feed = (piece?: Uint8Array) => {
    try {
      ended = false;
      if (piece) {
        // Before the parser (and JSON.stringify) recurse into it: an element nested too deep is refused here.
        depth.scan(piece);
        parser.write(piece);
      }
      // The parser ends by itself at the closing bracket; still open here means the file was cut short.
      else if (!parser.isEnded) parser.end();
    } catch (error) {
      if (error instanceof RecordTooLongError || error instanceof TooDeepError) throw error;
      // Only the parser throws here (and not always its own error classes): it is all bad JSON.
      const element = elements + 1;
      throw new ArbiterError('invalid_file', `${path}: invalid JSON in or after element ${element} of the array (${(error as Error).message})`, { element });
    }
  };
  for await (const piece of bytes) {
    feed(piece);
    sinceElement = ended ? 0 : sinceElement + piece.length;
    if (sinceElement > maxBytes) throw new RecordTooLongError(path, elements + 1, maxBytes, 'element');
    while (ready.length) yield { lines: ready.shift()! };
  }
  feed();
  if (batch.length) yield { lines: batch };
}

class TooDeepError extends ArbiterError {}

/**
 * Follows the nesting of the raw JSON text (outside strings) as it is read: an element nested deeper
 * than the record bound stops the import with its number, as the lines of a .jsonl file would be
 * refused, and before anything recursive sees it. The array itself is level 1; its elements count from 1.
 */
class DepthScan {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private element = 1;

  constructor(
    private readonly maxDepth: number,
    private readonly file: string,
  ) {}

  scan(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (b === 0x5c) this.escaped = true;
        else if (b === 0x22) this.inString = false;
        continue;
      }
      if (b === 0x22) this.inString = true;
      else if (b === 0x5b || b === 0x7b) {
        if (++this.depth > this.maxDepth + 1)
          throw new TooDeepError(
            'invalid_file',
            `${this.file}:${this.element}: element ${this.element} of the array is nested more than ${this.maxDepth} levels deep (lists and objects inside one another); nothing was imported. ${limitEnvName('recordMaxDepth')} raises the bound.`,
            { line: this.element },
          );
      } else if (b === 0x5d || b === 0x7d) this.depth--;
      else if (b === 0x2c && this.depth === 1) this.element++;
    }
  }
}
