// A file that is one JSON object, pretty-printed over many lines (a SWE-agent .traj): read whole, as one
// record ("line 1" in messages). Line ends become spaces (JSON allows none inside a string, so the value
// is the same), and the importer reads the object as it reads a line of JSON Lines, with the same checks.
import type { Chunk } from './chunk';
import { RecordTooLongError, recordMaxBytes } from './cap';

export async function* jsonObjectChunks(bytes: AsyncIterable<Uint8Array>, name: string): AsyncGenerator<Chunk> {
  const max = recordMaxBytes();
  const pieces: Uint8Array[] = [];
  let size = 0;
  for await (const piece of bytes) {
    size += piece.length;
    if (size > max) throw new RecordTooLongError(name, 1, max, 'JSON object');
    pieces.push(piece);
  }
  const all = new Uint8Array(size + 1);
  let at = 0;
  for (const piece of pieces) {
    all.set(piece, at);
    at += piece.length;
  }
  for (let i = 0; i < size; i++) if (all[i] === 0x0a || all[i] === 0x0d) all[i] = 0x20;
  all[size] = 0x0a;
  yield { bytes: all };
}
