// The judges' pre-labels of an item, asked with the item and ahead for the next one (the labeling loop's
// item loads, components/itemLoads.ts), so a screen draws them in the item's own render: a key that moves
// on costs no request and no second render. Every judge line (compare, verdict, steps, the rating sheet)
// reads them through useItemJudges.
import { useEffect, useRef, useState } from 'react';
import type { JobInfo, JudgeKind, JudgeResultView } from '../../../../shared/api';
import { api, subscribeEvents } from '../../api';
import { useItemLoads } from '../../components/itemLoads';

export function useJudgeLoads(project: string, annotator: string) {
  const asked = useRef(new Set<number>());
  const loads = useItemLoads<JudgeResultView[]>(project, annotator, ({ project: p, itemId }) => {
    asked.current.add(itemId);
    return api.judgePrelabels({ project: p, itemId });
  });
  // A judge run of this project that ended (done or cancelled: it wrote results) makes every answer
  // kept here old: each item is asked again when next shown.
  const { forget } = loads;
  useEffect(
    () =>
      subscribeEvents((event) => {
        const job = event.type === 'job' ? (event.job as JobInfo | undefined) : undefined;
        if (!job || job.kind !== 'judge' || job.project !== project || job.state === 'running') return;
        for (const id of asked.current) forget(id);
        asked.current.clear();
      }),
    [project, forget],
  );
  return loads;
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
