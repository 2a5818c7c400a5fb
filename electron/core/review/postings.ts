// Seq lists per value and coded columns: the shapes the items explorer's facts keep (./itemFacts.ts).

/** Values by code (code 0: none); `names[code - 1]`. */
export interface Coded {
  codes: Uint8Array;
  names: string[];
}

/** value → the seqs holding it, ascending. */
export type Postings = Map<string, Int32Array>;

/** A list stays a plain array up to this many seqs (most values of a wide field hold a few). */
const SMALL = 64;
/** Past it, seqs go into Int32Array chunks of up to this many (4 bytes a seq, not an array's 8 and its slack). */
const CHUNK = 1 << 16;

interface List {
  small: number[] | null;
  chunks: Int32Array[];
  /** Seqs in the last chunk. */
  fill: number;
  length: number;
  last: number;
  /** Every seq was added after a smaller one: nothing to sort or drop. */
  ascending: boolean;
}

/**
 * Growable seq lists, turned into postings once read. At 10M items (a category, a source and two model
 * names each) arrays of numbers held ~600 MB while the facts were read; these hold 4 bytes a seq.
 */
export class PostingLists {
  private readonly lists = new Map<string, List>();
  add(value: string, seq: number): void {
    const list = this.lists.get(value);
    if (!list) {
      this.lists.set(value, { small: [seq], chunks: [], fill: 0, length: 1, last: seq, ascending: true });
      return;
    }
    if (list.last === seq) return;
    if (seq < list.last) list.ascending = false;
    list.last = seq;
    list.length++;
    if (list.small) {
      list.small.push(seq);
      if (list.small.length === SMALL) {
        const chunk = new Int32Array(SMALL * 4);
        chunk.set(list.small);
        list.chunks.push(chunk);
        list.fill = SMALL;
        list.small = null;
      }
      return;
    }
    const at = list.chunks.length - 1;
    let chunk = list.chunks[at]!;
    if (list.fill === chunk.length) {
      if (chunk.length < CHUNK) {
        const grown = new Int32Array(Math.min(CHUNK, chunk.length * 4));
        grown.set(chunk);
        list.chunks[at] = chunk = grown;
      } else {
        list.chunks.push((chunk = new Int32Array(CHUNK)));
        list.fill = 0;
      }
    }
    chunk[list.fill++] = seq;
  }
  has(value: string): boolean {
    return this.lists.has(value);
  }
  get size(): number {
    return this.lists.size;
  }
  /** The postings; the lists are let go value by value as each is made (call once). */
  done(): Postings {
    const out: Postings = new Map();
    for (const value of [...this.lists.keys()]) {
      const list = this.lists.get(value)!;
      this.lists.delete(value);
      const seqs = new Int32Array(list.length);
      if (list.small) seqs.set(list.small);
      let at = 0;
      for (const [i, chunk] of list.chunks.entries()) {
        const full = i < list.chunks.length - 1 ? chunk : chunk.subarray(0, list.fill);
        seqs.set(full, at);
        at += full.length;
      }
      out.set(value, list.ascending ? seqs : distinctSorted(seqs));
    }
    return out;
  }
}

/** Sorted, each seq once, in an array of exactly its length. */
function distinctSorted(seqs: Int32Array): Int32Array {
  seqs.sort();
  let w = 0;
  for (let r = 0; r < seqs.length; r++) if (r === 0 || seqs[r] !== seqs[r - 1]) seqs[w++] = seqs[r]!;
  return w === seqs.length ? seqs : seqs.slice(0, w);
}
