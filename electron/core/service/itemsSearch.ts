// The items explorer's search text (./itemsQuery.ts): the items the full-text index matches, as a mask
// over the project's facts (one byte a seq), with each match's relevance (−bm25, larger is better) when
// the sort asks for it. The index's hits are read alone (store/searchMatches.ts) and placed by id through
// the facts' ids, which ascend with seq in a project (an import gives new items the next ids and seqs):
// a binary search a hit, not a lookup of its item row. Ids out of order fall back to the joins.
import type { ItemFacts } from '../review/itemFacts';
import { searchMatchSeqs } from '../store/itemFacts';
import type { Db } from '../store/db';
import { matchingItemIds, matchingRanks } from '../store/search';
import { eachMatch } from '../store/searchMatches';

export interface SearchMask {
  /** 1 where the item matches; null: no search text, every item. */
  mask: Uint8Array | null;
  /** −bm25 per seq (NaN where the item does not match), when ranked. */
  relevance: Float64Array | null;
}

const ascending = new WeakMap<Int32Array, number>();

/** Whether ids[0..n) ascend (remembered per array and length: the facts' ids only grow at their end). */
function idsAscend(ids: Int32Array, n: number): boolean {
  const known = ascending.get(ids);
  if (known !== undefined && known >= n) return true;
  for (let s = Math.max(1, known ?? 0); s < n; s++) if (ids[s]! <= ids[s - 1]!) return false;
  ascending.set(ids, n);
  return true;
}

/** The seq whose id this is, or −1 (another project's item, or one past the facts). */
function seqOf(ids: Int32Array, n: number, id: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && ids[lo] === id ? lo : -1;
}

export function searchMask(db: Db, projectId: number, text: string, facts: Pick<ItemFacts, 'n' | 'ids'>, ranked: boolean): SearchMask {
  if (!text.trim()) return { mask: null, relevance: null };
  const { n, ids } = facts;
  const mask = new Uint8Array(n);
  const relevance = ranked ? new Float64Array(n).fill(Number.NaN) : null;
  if (idsAscend(ids, n)) {
    eachMatch(db, projectId, text, ranked, (id, rank) => {
      const seq = seqOf(ids, n, id);
      if (seq < 0) return;
      mask[seq] = 1;
      if (relevance) relevance[seq] = -rank;
    });
  } else if (relevance) {
    for (const { seq, rank } of matchingRanks(db, projectId, text)) {
      if (seq >= n) continue;
      mask[seq] = 1;
      relevance[seq] = -rank;
    }
  } else {
    const { table } = matchingItemIds(db, projectId, text);
    for (const seq of searchMatchSeqs(db, table)) if (seq < n) mask[seq] = 1;
  }
  return { mask, relevance };
}
