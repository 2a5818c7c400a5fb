// Every item of the project in a virtualized table: filtered (yours unlabeled or labeled in any task; in a
// project with pairs, by your choice, where the model disagrees), in file order first or last first, and
// driven from the keyboard: ↑ / ↓ or j / k move, Enter opens the item on the screen of its shape (a pair on
// Compare, a ranking on Rank, a chain or trajectory on Steps, a single response on Verdict), f the filter, o the order, / the search
// (an external id exactly or by its start, through an index; else a part of the prompt, walked like a filter).
import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { ITEM_FILTERS, type ItemFilter, type ItemListRow, type ItemOrder } from '../../../../shared/api';
import { useGlobalKeys } from '../../components/keys';
import { COLUMNS, ItemRow } from './ItemRow';
import { EmptyState, PendingRow, TableHeader } from './ItemsTableParts';
import { useItemPages } from './useItemPages';

/** Row height: with 1M rows by number the list is 32M px, under Chromium's element height limit. */
const ROW = 32;

/** The value once it has stayed the same for `ms` (typing in the search box asks once it pauses). */
function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The table's filter and order for a project, kept for the session: back from an item, they are as left. */
function useTableView(project: string) {
  const key = `arbiter.items.${project}`;
  const [view, setView] = useState<{ filter: ItemFilter; order: ItemOrder }>(() => {
    try {
      const saved = JSON.parse(sessionStorage.getItem(key) ?? '{}') as { filter?: ItemFilter; order?: ItemOrder };
      return { filter: ITEM_FILTERS.includes(saved.filter!) ? saved.filter! : 'all', order: saved.order === 'last' ? 'last' : 'first' };
    } catch {
      return { filter: 'all', order: 'first' };
    }
  });
  useEffect(() => sessionStorage.setItem(key, JSON.stringify(view)), [key, view]);
  return [view, setView] as const;
}

export function ItemsTable({ project, annotator, version, onOpen }: { project: string; annotator: string; version: number; onOpen(row: ItemListRow): void }) {
  const [{ filter, order }, setView] = useTableView(project);
  const [typed, setTyped] = useState('');
  const search = useSettled(typed.trim(), 250);
  const pages = useItemPages(project, annotator, filter, order, version, search);
  // A filter kept from before that this project's items do not fit (a choice where there is no pair): all.
  useEffect(() => {
    if (!pages.filters.includes(filter)) setView((v) => ({ ...v, filter: 'all' }));
  }, [pages.filters, filter, setView]);
  const [cursor, setCursor] = useState(0);
  // The selected row is the focus mark: strong while the table has the keys, quiet otherwise.
  const [focused, setFocused] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);
  const filterSelect = useRef<HTMLSelectElement>(null);
  const orderSelect = useRef<HTMLSelectElement>(null);
  const searchBox = useRef<HTMLInputElement>(null);

  const virtualizer = useVirtualizer({ count: pages.count, getScrollElement: () => scroller.current, estimateSize: () => ROW, overscan: 12 });
  const visible = virtualizer.getVirtualItems();
  const firstVisible = visible[0]?.index ?? 0;
  const lastVisible = visible[visible.length - 1]?.index ?? 0;
  const { ensure } = pages;
  useEffect(() => {
    if (pages.count > 0) ensure(firstVisible, lastVisible);
  }, [firstVisible, lastVisible, pages.count, ensure]);

  // Another filter or order is another list: start at its top.
  useEffect(() => {
    setCursor(0);
    scroller.current?.scrollTo({ top: 0 });
  }, [filter, order, search]);

  const lastRow = pages.done ? pages.count - 1 : pages.count - 2;
  const moveTo = (index: number) => {
    const target = Math.max(0, Math.min(index, lastRow));
    setCursor(target);
    virtualizer.scrollToIndex(target, { align: 'auto' });
  };
  const open = () => {
    const row = pages.row(cursor);
    if (row) onOpen(row);
  };
  const pageRows = Math.max(1, Math.floor((scroller.current?.clientHeight ?? ROW * 10) / ROW) - 1);

  /** The table's own keys; true when the key was one. */
  const handleKey = (event: KeyboardEvent | ReactKeyboardEvent): boolean => {
    if (event.ctrlKey || event.metaKey || event.altKey) return false;
    const moves: Record<string, number> = { ArrowDown: 1, j: 1, ArrowUp: -1, k: -1, PageDown: pageRows, PageUp: -pageRows };
    if (event.key in moves) moveTo(cursor + moves[event.key]!);
    else if (event.key === 'Home') moveTo(0);
    else if (event.key === 'End') moveTo(lastRow);
    else if (event.key === 'Enter') open();
    else return false;
    event.preventDefault();
    return true;
  };

  // From anywhere on the screen but a text box or another control: f and o pick, j / k move the table.
  useGlobalKeys((event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === 'f' || event.key === 'o' || event.key === '/') {
      event.preventDefault();
      (event.key === 'f' ? filterSelect : event.key === 'o' ? orderSelect : searchBox).current?.focus();
      return;
    }
    const idle = document.activeElement === document.body || document.activeElement === null;
    if (idle || event.key === 'j' || event.key === 'k') {
      if (!['ArrowDown', 'ArrowUp', 'j', 'k', 'Enter'].includes(event.key)) return;
      if (scroller.current && document.activeElement !== scroller.current) scroller.current.focus({ preventScroll: true });
      handleKey(event);
    }
  });

  return (
    <section className="flex min-h-0 flex-1 flex-col overflow-hidden rounded-md border border-line bg-surface" data-testid="items-table">
      <TableHeader
        pages={pages}
        filter={filter}
        order={order}
        filterSelect={filterSelect}
        orderSelect={orderSelect}
        onFilter={(f) => setView((v) => ({ ...v, filter: f }))}
        onOrder={(o) => setView((v) => ({ ...v, order: o }))}
        onDone={() => scroller.current?.focus()}
        search={typed}
        searchBox={searchBox}
        onSearch={setTyped}
      />
      {pages.error && (
        <div className="border-b border-line px-4 py-2 text-[13px] text-bad" role="alert">
          The items could not be listed: {pages.error}
        </div>
      )}
      <div className={`grid ${COLUMNS} gap-3 border-b border-line bg-surface-2 px-4 py-1.5 text-[11px] font-semibold tracking-wide text-faint uppercase`}>
        <span className="text-right">#</span>
        <span>ID</span>
        <span>Prompt</span>
        <span title="Your current judgement of each task: a pair's choice, a ranking (best first), step labels, a verdict">You</span>
        <span title="The people's: a pair's majority, else the judgement they share or “split”, and how many gave one">Humans</span>
        <span title="The judgement the imported file carried (annotator “source”); not anyone's progress">Source</span>
        <span title="The models' pre-label: a pair's pick and how sure they are, a ranking by mean reward">Model</span>
        <span title="Whether a lead adjudicated the item (the gold label on export)">Adjudicated</span>
      </div>
      <div
        ref={scroller}
        tabIndex={0}
        role="listbox"
        aria-label="Items"
        aria-activedescendant={pages.row(cursor) ? `item-row-${cursor}` : undefined}
        onKeyDown={(e) => handleKey(e)}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        className="min-h-[160px] flex-1 overflow-auto outline-none"
        data-testid="items-scroller"
      >
        <EmptyState pages={pages} filter={filter} search={search} />
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {visible.map((v) => {
            const row = pages.row(v.index);
            const selected = v.index === cursor && row !== undefined;
            return (
              <div
                key={v.key}
                id={`item-row-${v.index}`}
                role="option"
                aria-selected={selected}
                className={`absolute inset-x-0 grid ${COLUMNS} items-center gap-3 border-b border-line px-4 text-[13px] ${row ? 'cursor-pointer hover:bg-surface-2' : ''} ${selected ? (focused ? 'bg-accent-soft shadow-[inset_3px_0_0_var(--accent)] hover:bg-accent-soft' : 'bg-surface-2 shadow-[inset_3px_0_0_var(--border-strong)]') : ''}`}
                style={{ top: v.start, height: ROW }}
                onClick={() => {
                  if (!row) return;
                  setCursor(v.index);
                  onOpen(row);
                }}
                data-testid={row ? 'item-row' : 'item-row-pending'}
                data-selected={selected || undefined}
              >
                {row ? <ItemRow row={row} selected={selected && focused} /> : <PendingRow pages={pages} index={v.index} />}
              </div>
            );
          })}
        </div>
      </div>
    </section>
  );
}
