// Every item of the project in a virtualized table, loaded a page at a time as it scrolls.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ItemListRow } from '../../../../shared/api';
import { api, errorMessage } from '../../api';

const PAGE = 200;
const ROW = 34;
const COLUMNS = 'grid-cols-[3rem_9rem_minmax(0,1fr)_5rem_6rem_6rem_5rem]';

function ChoiceChip({ choice }: { choice: string | null }) {
  if (!choice) return <span className="text-faint">—</span>;
  const style: Record<string, string> = {
    A: 'text-fg',
    B: 'text-fg',
    tie: 'text-tie',
    both_bad: 'text-bad',
  };
  const text: Record<string, string> = { A: 'A', B: 'B', tie: '= tie', both_bad: '✕ both bad' };
  return <span className={`font-medium ${style[choice] ?? ''}`}>{text[choice] ?? choice}</span>;
}

export function ItemsTable({ project, annotator, version, onOpen }: { project: string; annotator: string; version: number; onOpen(id: number): void }) {
  const [total, setTotal] = useState<number | null>(null);
  const [rows, setRows] = useState<Map<number, ItemListRow>>(new Map());
  const [error, setError] = useState<string | null>(null);
  const loading = useRef(new Set<number>());
  const scroller = useRef<HTMLDivElement>(null);

  const loadPage = useCallback(
    (page: number) => {
      if (loading.current.has(page)) return;
      loading.current.add(page);
      api
        .listItems({ project, offset: page * PAGE, limit: PAGE, annotator })
        .then((result) => {
          setTotal(result.total);
          setRows((old) => {
            const next = new Map(old);
            result.rows.forEach((row, i) => next.set(page * PAGE + i, row));
            return next;
          });
        })
        .catch((e) => {
          loading.current.delete(page);
          setError(errorMessage(e));
        });
    },
    [project, annotator],
  );

  useEffect(() => {
    loading.current = new Set();
    setRows(new Map());
    setError(null);
    loadPage(0);
  }, [loadPage, version]);

  const virtualizer = useVirtualizer({
    count: total ?? 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW,
    overscan: 12,
  });
  const visible = virtualizer.getVirtualItems();

  useEffect(() => {
    for (const v of visible) if (!rows.has(v.index)) loadPage(Math.floor(v.index / PAGE));
  }, [visible, rows, loadPage]);

  return (
    <section className="flex min-h-0 flex-1 flex-col overflow-hidden rounded-md border border-line bg-surface" data-testid="items-table">
      <div className="flex items-baseline gap-3 border-b border-line px-4 py-2">
        <h2 className="text-[14px] font-semibold">Items</h2>
        <span className="text-[12px] text-muted">{total === null ? 'Loading…' : `${total.toLocaleString()} in this project`}</span>
        <span className="ml-auto text-[12px] text-faint">“source” is the preference the file carried; it does not count as anyone’s progress.</span>
      </div>
      {error && <div className="px-4 py-2 text-[13px] text-bad">{error}</div>}
      <div className={`grid ${COLUMNS} gap-3 border-b border-line bg-surface-2 px-4 py-1.5 text-[11px] font-semibold tracking-wide text-faint uppercase`}>
        <span className="text-right">#</span>
        <span>ID</span>
        <span>Prompt</span>
        <span className="text-right">Resp.</span>
        <span>Source</span>
        <span>You</span>
        <span className="text-right">Labels</span>
      </div>
      <div ref={scroller} className="min-h-[160px] flex-1 overflow-auto" data-testid="items-scroller">
        {total === 0 && <div className="px-4 py-6 text-[13px] text-muted">No items yet. Import a file above.</div>}
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {visible.map((v) => {
            const row = rows.get(v.index);
            return (
              <div
                key={v.key}
                className={`absolute inset-x-0 grid ${COLUMNS} items-center gap-3 border-b border-line px-4 text-[13px] ${row ? 'cursor-pointer hover:bg-surface-2' : ''}`}
                style={{ top: v.start, height: ROW }}
                onClick={() => row && onOpen(row.id)}
                data-testid="item-row"
              >
                {row ? (
                  <>
                    <span className="text-right tabular-nums text-faint">{row.seq + 1}</span>
                    <span className="truncate font-mono text-[12px] text-muted" title={row.externalId ?? ''}>
                      {row.externalId ?? '—'}
                    </span>
                    <span className="truncate" title={row.prompt}>
                      {row.prompt}
                    </span>
                    <span className="text-right tabular-nums text-muted">{row.responses}</span>
                    <span data-testid="item-source">
                      <ChoiceChip choice={row.sourceChoice} />
                    </span>
                    <span>
                      <ChoiceChip choice={row.myChoice} />
                    </span>
                    <span className="text-right tabular-nums text-muted">{row.labels}</span>
                  </>
                ) : (
                  <span className="col-span-7 h-3 w-1/3 rounded bg-surface-2" />
                )}
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}
