// The explorer's rows: a virtual list (only the rows in view are drawn, so a million scroll at one
// frame), column headers that sort both ways, a check per row, and the keys: j / k or ↑ / ↓ move,
// Shift extends the selection, x toggles the row, Enter (or a double click) opens it on its screen.
import { useEffect, useMemo, useRef, type KeyboardEvent as ReactKeyboardEvent, type RefObject } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Kbd } from '../../components/Kbd';
import { useGlobalKeys } from '../../components/keys';
import type { ItemSort, ItemsRow } from '../../../../shared/api';
import type { SortColumn } from '../../../../shared/itemFacets';
import { ExplorerRow, EXPLORER_COLUMNS, type RowActions } from './ExplorerRow';
import type { ExplorerPages } from './useExplorerPages';

const ROW = 44;

/** The headers, each with the engine's sort column it orders by (none: it does not sort). */
const HEADERS: { label: string; column?: SortColumn; title: string; align?: 'right' }[] = [
  { label: '#', column: 'seq', title: 'File order', align: 'right' },
  { label: 'ID', column: 'external_id', title: 'The file’s id' },
  { label: 'Prompt · hit', column: 'length', title: 'The prompt, and where the search words were found; sorts by length (characters of prompt and responses)' },
  { label: 'You', title: 'Your current judgement of each task' },
  { label: 'Humans', column: 'labels', title: 'The people’s judgements; sorts by how many people judged it' },
  { label: 'Model', column: 'score', title: 'The models’ pre-label; sorts by P(A better)' },
  { label: 'Split', column: 'dispute', title: 'How much people disagree on it (the review’s dispute), 0–100' },
  { label: 'Gold', title: 'Adjudicated by a lead: the gold label' },
];

export interface TableState {
  cursor: number;
  setCursor(index: number): void;
  selected: ReadonlySet<number>;
  /** Toggles rows (by index) in or out of the selection; `to` sets them all to one state. */
  select(indexes: number[], to?: boolean): void;
  open(row: ItemsRow): void;
}

/** While searching, the prompt's header also sorts by relevance (bm25, best first). */
const RELEVANCE = { label: 'Relevance', column: 'relevance' as const, title: 'How well the item matches the search words (bm25); best first' };

export function ExplorerTable(props: { pages: ExplorerPages; sort: ItemSort; searching: boolean; onSort(sort: ItemSort): void; state: TableState; scroller: RefObject<HTMLDivElement | null>; onSearchKey(): void; onEscape(): void }) {
  const { pages, sort, state, scroller } = props;
  const virtualizer = useVirtualizer({ count: pages.count, getScrollElement: () => scroller.current, estimateSize: () => ROW, overscan: 10 });
  const visible = virtualizer.getVirtualItems();
  const lastVisible = visible[visible.length - 1]?.index ?? 0;
  const { ensure } = pages;
  useEffect(() => ensure(lastVisible), [lastVisible, ensure, pages.count]);
  const anchor = useRef<number | null>(null);
  // One actions object for every row, reading the latest state through a ref: the memoized rows keep it.
  const latest = useRef(state);
  latest.current = state;
  const rowsRef = useRef(pages.rows);
  rowsRef.current = pages.rows;
  const actions = useMemo<RowActions>(
    () => ({
      check: (i) => latest.current.select([i]),
      click: (i) => latest.current.setCursor(i),
      open: (i) => {
        const row = rowsRef.current[i];
        if (row) latest.current.open(row);
      },
    }),
    [],
  );

  const lastRow = pages.rows.length - 1;
  const moveTo = (index: number, extend: boolean) => {
    const target = Math.max(0, Math.min(index, lastRow));
    if (extend) {
      anchor.current ??= state.cursor;
      const lo = Math.min(anchor.current, target);
      const hi = Math.max(anchor.current, target);
      state.select(Array.from({ length: hi - lo + 1 }, (_, i) => lo + i), true);
    } else anchor.current = null;
    state.setCursor(target);
    virtualizer.scrollToIndex(target, { align: 'auto' });
  };
  const pageRows = Math.max(1, Math.floor((scroller.current?.clientHeight ?? ROW * 10) / ROW) - 1);

  const onKey = (event: ReactKeyboardEvent | KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const moves: Record<string, number> = { ArrowDown: 1, j: 1, J: 1, ArrowUp: -1, k: -1, K: -1, PageDown: pageRows, PageUp: -pageRows };
    const row = pages.rows[state.cursor];
    if (event.key in moves) moveTo(state.cursor + moves[event.key]!, event.shiftKey);
    else if (event.key === 'Home') moveTo(0, event.shiftKey);
    else if (event.key === 'End') moveTo(lastRow, event.shiftKey);
    else if (event.key === 'x' && row) state.select([state.cursor]);
    else if (event.key === 'Enter' && row) state.open(row);
    else if (event.key === '/') props.onSearchKey();
    else if (event.key === 'Escape') props.onEscape();
    else return;
    event.preventDefault();
    event.stopPropagation();
  };
  // With nothing focused (after a click on the page), the list's keys work as if it had the focus.
  useGlobalKeys((event) => {
    const idle = document.activeElement === document.body || document.activeElement === null;
    if (!idle || !['j', 'k', 'J', 'K', 'ArrowDown', 'ArrowUp', 'x', 'Enter', 'Escape'].includes(event.key)) return;
    scroller.current?.focus({ preventScroll: true });
    onKey(event);
  });

  // Relevance starts best first (descending); the other columns ascending.
  const sortButton = (h: { label: string; column: SortColumn; title: string; align?: 'right' }) => {
    const active = sort.column === h.column;
    const first = h.column === 'relevance';
    return (
      <button
        key={h.label}
        className={`flex items-center gap-1 py-0.5 uppercase hover:text-fg ${h.align === 'right' ? 'justify-end' : ''} ${active ? 'text-fg' : ''}`}
        title={`${h.title}. Click: sort ${active ? (sort.desc ? 'ascending' : 'descending') : first ? 'descending' : 'ascending'}`}
        aria-sort={active ? (sort.desc ? 'descending' : 'ascending') : 'none'}
        onClick={() => props.onSort({ column: h.column, desc: active ? !sort.desc : first })}
        data-testid={`sort-${h.column}`}
      >
        {h.label}
        <span aria-hidden className={active ? 'text-accent' : 'invisible'}>
          {sort.desc ? '▼' : '▲'}
        </span>
      </button>
    );
  };

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className={`grid ${EXPLORER_COLUMNS} gap-3 border-b border-line bg-surface-2 px-3 py-1 text-[11px] font-semibold tracking-wide text-faint uppercase`} role="row">
        <span />
        {HEADERS.map((h) => {
          if (!h.column)
            return (
              <span key={h.label} title={h.title} className="py-0.5">
                {h.label}
              </span>
            );
          const button = sortButton({ ...h, column: h.column });
          if (h.column !== 'length' || !props.searching) return button;
          return (
            <span key={h.label} className="flex items-center gap-3">
              {button}
              {sortButton(RELEVANCE)}
            </span>
          );
        })}
      </div>
      <div
        ref={scroller}
        tabIndex={0}
        role="listbox"
        aria-multiselectable
        aria-label="Items"
        aria-activedescendant={pages.rows[state.cursor] ? `explorer-row-${state.cursor}` : undefined}
        onKeyDown={onKey}
        className="group/list min-h-0 flex-1 overflow-auto outline-none"
        data-testid="explorer-scroller"
      >
        {pages.done && pages.rows.length === 0 && !pages.error && (
          <div className="px-4 py-6 text-[13px] text-muted" data-testid="explorer-empty">
            {pages.head?.total === 0 ? 'No items yet. Import a file on the Datasets screen (d).' : 'No item matches this query. Take a filter out (× on its chip), or search for fewer words.'}
          </div>
        )}
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {visible.map((v) => {
            const row = pages.rows[v.index];
            return (
              <div key={v.key} className="absolute inset-x-0" style={{ top: v.start, height: ROW }}>
                {row ? (
                  <ExplorerRow row={row} index={v.index} current={v.index === state.cursor} checked={state.selected.has(row.id)} actions={actions} />
                ) : (
                  <div className="flex h-full items-center px-12 text-[12px] text-muted" data-testid="explorer-row-pending">
                    Loading more…
                  </div>
                )}
              </div>
            );
          })}
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 border-t border-line px-3 py-1.5 text-[12px] text-faint" data-testid="explorer-keys">
        <span className="flex items-center gap-1">
          <Kbd>j</Kbd>
          <Kbd>k</Kbd> move
        </span>
        <span className="flex items-center gap-1">
          <Kbd>x</Kbd> select, <Kbd>Shift</Kbd>+<Kbd>j</Kbd> / <Kbd>k</Kbd> extend
        </span>
        <span className="flex items-center gap-1">
          <Kbd>Enter</Kbd> open on its screen
        </span>
        <span className="flex items-center gap-1">
          <Kbd>/</Kbd> search
        </span>
        <span className="flex items-center gap-1">
          <Kbd>Esc</Kbd> clear the selection
        </span>
        <span className="ml-auto">A / B: the file’s first / second response</span>
      </div>
    </div>
  );
}
