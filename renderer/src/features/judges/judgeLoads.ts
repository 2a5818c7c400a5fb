// The judges' pre-labels of an item, asked with the item and ahead for the next one (the labeling loop's
// item loads, components/itemLoads.ts), so a screen draws them in the item's own render: a key that moves
// on costs no request and no second render. Every judge line (compare, verdict, steps, the rating sheet)
// reads them through useItemJudges.
import { useEffect, useState } from 'react';
import type { JudgeKind, JudgeResultView } from '../../../../shared/api';
import { api } from '../../api';
import { useItemLoads } from '../../components/itemLoads';

export function useJudgeLoads(project: string, annotator: string) {
  return useItemLoads<JudgeResultView[]>(project, annotator, ({ project: p, itemId }) => api.judgePrelabels({ project: p, itemId }));
}
export type JudgeLoads = ReturnType<typeof useJudgeLoads>;

type Got = { itemId: number; list: JudgeResultView[] } | null;

/** The item's judge results: at once when loaded ahead, else once they come (no render when there are none). */
export function useItemJudges(loads: JudgeLoads | undefined, itemId: number | null): JudgeResultView[] | null {
  const known = itemId === null || !loads ? undefined : loads.peek(itemId);
  const [got, setGot] = useState<Got>(null);
  const fetchItem = loads?.fetchItem;
  const peek = loads?.peek;
  useEffect(() => {
    if (itemId === null || !fetchItem || !peek || peek(itemId)) return;
    let live = true;
    // No judge on this item nor on the last: nothing to draw either way, so no render (the labeling loop's
    // next item is one commit of the page, test/e2e/compare-commits.test.ts).
    const keep = (list: JudgeResultView[]) => live && setGot((was) => (was && was.list.length === 0 && list.length === 0 ? was : { itemId, list }));
    fetchItem(itemId).then(keep, () => keep([]));
    return () => {
      live = false;
    };
  }, [fetchItem, peek, itemId]);
  return known ?? (loads && got && got.itemId === itemId ? got.list : null);
}

/** The newest result of a kind (and response, for the kinds judged per response). */
export function judgeOf(list: JudgeResultView[] | null, kind: JudgeKind, response: number | null = null): JudgeResultView | undefined {
  return list?.find((r) => r.kind === kind && (response === null || r.response === response));
}
