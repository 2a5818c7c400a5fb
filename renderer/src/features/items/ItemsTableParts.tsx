// The items table's header (count, filter and order pickers, the keys) and the rows that stand for
// what is not there: a filtered list still looking further, a list with nothing in it.
import type { KeyboardEvent as ReactKeyboardEvent, RefObject } from 'react';
import type { ItemFilter, ItemOrder } from '../../../../shared/api';
import { Kbd } from '../../components/Kbd';
import type { ItemPages } from './useItemPages';

export const FILTER_TITLES: Record<ItemFilter, string> = {
  all: 'All items',
  unlabeled: 'Not labeled by you',
  labeled: 'Labeled by you',
  A: 'You chose A',
  B: 'You chose B',
  tie: 'You chose tie',
  both_bad: 'You chose both bad',
  disagrees: 'Model disagrees',
};

export function TableHeader(props: {
  pages: ItemPages;
  filter: ItemFilter;
  order: ItemOrder;
  filterSelect: RefObject<HTMLSelectElement | null>;
  orderSelect: RefObject<HTMLSelectElement | null>;
  onFilter(filter: ItemFilter): void;
  onOrder(order: ItemOrder): void;
  /** Enter or Esc on a picker: back to the table, to move in what it now shows. */
  onDone(): void;
  search: string;
  searchBox: RefObject<HTMLInputElement | null>;
  onSearch(text: string): void;
}) {
  const { pages, filter, order } = props;
  const backToTable = (event: ReactKeyboardEvent) => {
    if (event.key !== 'Enter' && event.key !== 'Escape') return;
    event.preventDefault();
    props.onDone();
  };
  return (
    <div className="flex flex-col gap-1.5 border-b border-line px-4 py-2.5">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <h2 className="text-[14px] font-semibold">Items</h2>
        <span className="text-[12px] text-muted" data-testid="items-count">
          {countText(pages, filter, props.search)}
        </span>
        <label className="flex items-center gap-1.5 text-[12px] text-muted">
          <span className="sr-only">Search by id or prompt</span>
          <input
            ref={props.searchBox}
            type="search"
            value={props.search}
            onChange={(e) => props.onSearch(e.target.value)}
            onKeyDown={(e) => {
              if (e.key !== 'Enter' && e.key !== 'Escape') return;
              e.preventDefault();
              if (e.key === 'Escape' && props.search) props.onSearch('');
              props.onDone();
            }}
            placeholder="Search an id or the prompt"
            maxLength={200}
            className="h-7 w-64 rounded-md border border-line-strong bg-surface px-2 text-[13px] text-fg placeholder:text-faint"
            data-testid="items-search"
          />
          <Kbd>/</Kbd>
        </label>
        <label className="ml-auto flex items-center gap-1.5 text-[12px] text-muted">
          Show <Kbd>f</Kbd>
          <select
            ref={props.filterSelect}
            value={filter}
            onChange={(e) => props.onFilter(e.target.value as ItemFilter)}
            onKeyDown={backToTable}
            className="h-7 rounded-md border border-line-strong bg-surface px-1.5 text-[13px] text-fg"
            data-testid="items-filter"
          >
            {/* Only the filters the project's items fit: no "You chose A" where there is no pair. */}
            {(pages.filters.includes(filter) ? pages.filters : [...pages.filters, filter]).map((f) => (
              <option key={f} value={f}>
                {FILTER_TITLES[f]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-1.5 text-[12px] text-muted" title="Only file order is offered: it pages at once in a project of any size">
          Order <Kbd>o</Kbd>
          <select
            ref={props.orderSelect}
            value={order}
            onChange={(e) => props.onOrder(e.target.value as ItemOrder)}
            onKeyDown={backToTable}
            className="h-7 rounded-md border border-line-strong bg-surface px-1.5 text-[13px] text-fg"
            data-testid="items-order"
          >
            <option value="first">File order, first first</option>
            <option value="last">File order, last first</option>
          </select>
        </label>
      </div>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-[12px] text-faint" data-testid="items-keys">
        <span className="flex items-center gap-1">
          <Kbd>↑</Kbd>
          <Kbd>↓</Kbd> or <Kbd>j</Kbd>
          <Kbd>k</Kbd> move
        </span>
        <span className="flex items-center gap-1">
          <Kbd>Enter</Kbd> opens the item on its screen
        </span>
        <span className="flex items-center gap-1">
          <Kbd>/</Kbd> search: an id (exact or its start) or a part of the prompt
        </span>
        <span>A / B: the file’s first / second response</span>
        <span className="ml-auto">File order only: the one order that stays instant at a million items.</span>
      </div>
    </div>
  );
}

function countText(pages: ItemPages, filter: ItemFilter, search: string): string {
  if (pages.total === null) return search ? 'Searching…' : 'Loading…';
  const total = pages.total.toLocaleString();
  if (filter === 'all' && !search) return `${total} in this project`;
  const what = search ? `“${search}”${filter === 'all' ? '' : `, ${FILTER_TITLES[filter].toLowerCase()}`}` : FILTER_TITLES[filter].toLowerCase();
  if (pages.matching !== null) return `${pages.matching.toLocaleString()} of ${total} · ${what}`;
  if (pages.done) return `${pages.loaded.toLocaleString()} of ${total} · ${what}`;
  return `${pages.loaded.toLocaleString()} so far · looked through ${pages.scanned.toLocaleString()} of ${total}`;
}

export function PendingRow({ pages, index }: { pages: ItemPages; index: number }) {
  // A filtered list's last row: the host is looking further.
  if (index >= pages.loaded && pages.total !== null && !pages.done)
    return (
      <span className="col-span-8 text-[12px] text-muted">
        Looking further… {pages.scanned.toLocaleString()} of {pages.total.toLocaleString()} items looked through
      </span>
    );
  return <span className="col-span-8 h-3 w-1/3 rounded bg-surface-2" />;
}

export function EmptyState({ pages, filter, search }: { pages: ItemPages; filter: ItemFilter; search: string }) {
  if (!pages.done || pages.count > 0 || pages.error) return null;
  let text: string;
  if (pages.total === 0) text = 'No items yet. Import a file above.';
  else if (search) text = `No item has an id starting with “${search}” or a prompt holding it${filter === 'all' ? '' : ` among “${FILTER_TITLES[filter]}”`}.`;
  else if (filter === 'disagrees')
    text = 'No item where the models pick the other response than your label (or, where you have none, the label that decides it). Items no model has scored are not compared: score them on the Models screen.';
  else if (filter === 'unlabeled') text = 'You have labeled every item in this project.';
  else text = `No item matches “${FILTER_TITLES[filter]}”.`;
  return (
    <div className="px-4 py-6 text-[13px] text-muted" data-testid="items-empty">
      {text}
    </div>
  );
}
