// How an import's input is cut into chunks, and whether an import worker prepares them (./pool.ts).
import { availableParallelism } from 'node:os';
import type { Chunk } from '../sources/chunk';

/** Lines per chunk of given lines (a file's chunks come from ./sources). */
export const CHUNK_LINES = 2000;
/** Inputs from this size on get an import worker (its start costs ~50 ms bundled, 0.3-0.6 s under tsx). */
export const PARALLEL_MIN_BYTES = 4 << 20;
export const PARALLEL_MIN_LINES = 5000;
/**
 * The worker needs a core of its own beside the SQLite thread. On an idle 2-core machine it pays: 100k
 * pairs in 2.1-2.3 s with it, 2.7 s without (same run, alternating). On a 2-core machine already busy
 * with other work it costs instead (4.8 s with, 4.0 s without), but an annotator's machine importing a
 * file is rarely that busy; one core alone gets no worker.
 */
export const parallelByDefault = (big: boolean) => {
  // ARBITER_IMPORT_WORKER=on|off overrides the guess (for machines where it guesses wrong, and tests).
  const forced = process.env.ARBITER_IMPORT_WORKER;
  if (forced === 'on' || forced === 'off') return forced === 'on';
  return big && availableParallelism() > 1;
};

/** Given lines (an array, or lines as they come) in chunks of CHUNK_LINES. */
export async function* lineChunks(lines: AsyncIterable<string> | Iterable<string>): AsyncGenerator<Chunk> {
  if (Array.isArray(lines)) {
    for (let i = 0; i < lines.length; i += CHUNK_LINES) yield { lines: lines.slice(i, i + CHUNK_LINES) };
    return;
  }
  let batch: string[] = [];
  for await (const line of lines) {
    batch.push(line);
    if (batch.length === CHUNK_LINES) {
      yield { lines: batch };
      batch = [];
    }
  }
  if (batch.length) yield { lines: batch };
}
