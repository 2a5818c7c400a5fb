// Seq lists per value and coded columns: the shapes the items explorer's facts keep (./itemFacts.ts).

/** Values by code (code 0: none); `names[code - 1]`. */
export interface Coded {
  codes: Uint8Array;
  names: string[];
}

/** value → the seqs holding it, ascending. */
export type Postings = Map<string, Int32Array>;

/** Growable seq lists, turned into postings once read. */
export class PostingLists {
  private readonly lists = new Map<string, number[]>();
  add(value: string, seq: number): void {
    const list = this.lists.get(value);
    if (!list) this.lists.set(value, [seq]);
    else if (list[list.length - 1] !== seq) list.push(seq);
  }
  has(value: string): boolean {
    return this.lists.has(value);
  }
  get size(): number {
    return this.lists.size;
  }
  done(): Postings {
    const out: Postings = new Map();
    for (const [value, list] of this.lists) {
      const sorted = Int32Array.from(list).sort();
      let w = 0;
      for (let r = 0; r < sorted.length; r++) if (r === 0 || sorted[r] !== sorted[r - 1]) sorted[w++] = sorted[r]!;
      out.set(value, sorted.slice(0, w));
    }
    return out;
  }
}

