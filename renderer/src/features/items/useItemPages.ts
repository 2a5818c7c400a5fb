// The items table's rows as the host pages them. Every item: by row number, so the scrollbar spans the
// whole project and any row loads at once (up to BY_NUMBER_MAX rows: past that the list would be taller
// than a browser lets an element be). A filter, or a bigger project: one page after another from where
// the last ended; the host answers after a bounded look even when few items match, and more is asked for
// while the end of what is loaded is in view.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ITEM_FILTERS, type ItemFilter, type ItemListRow, type ItemOrder } from '../../../../shared/api';
import { api, errorMessage } from '../../api';

const PAGE = 200;
/** Rows listed by number at most: 1M rows of 32 px stay under Chromium's ~33.5M px element height. */
export const BY_NUMBER_MAX = 1_000_000;

export interface ItemPages {
  /** Rows the list shows; a filtered list has one more, a "looking further" row, until its end. */
  count: number;
  row(index: number): ItemListRow | undefined;
  /** Items in the project, once known. */
  total: number | null;
  /** How many the filter matches, where the host knows without looking. */
  matching: number | null;
  /** Rows loaded (a filtered list) and how far the host has looked. */
  loaded: number;
  scanned: number;
  done: boolean;
  error: string | null;
  /** The filters that fit the project's items (every filter until the host has said). */
  filters: readonly ItemFilter[];
  /** Loads what the rows from `first` to `last` need. */
  ensure(first: number, last: number): void;
}

/** `search`: an external id (exact or prefix) or a part of the prompt; empty for none. */
export function useItemPages(project: string, annotator: string, filter: ItemFilter, order: ItemOrder, version: number, search = ''): ItemPages {
  const [total, setTotal] = useState<number | null>(null);
  const [matching, setMatching] = useState<number | null>(null);
  const [byIndex, setByIndex] = useState<Map<number, ItemListRow>>(new Map());
  const [list, setList] = useState<ItemListRow[]>([]);
  const [next, setNext] = useState<number | null | undefined>(undefined);
  const [scanned, setScanned] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [filters, setFilters] = useState<readonly ItemFilter[]>(ITEM_FILTERS);
  // Pages asked for (all) or whether a page is on its way (filtered); a new query starts a new generation.
  const asked = useRef(new Set<number>());
  const busy = useRef(false);
  const generation = useRef(0);

  useEffect(() => {
    generation.current++;
    asked.current = new Set();
    busy.current = false;
    setByIndex(new Map());
    setList([]);
    setNext(undefined);
    setScanned(0);
    setMatching(null);
    setError(null);
  }, [project, annotator, filter, order, version, search]);

  const fail = useCallback((e: unknown) => setError(errorMessage(e)), []);

  const loadPage = useCallback(
    (page: number) => {
      if (asked.current.has(page)) return;
      asked.current.add(page);
      const mine = generation.current;
      api
        .listItems({ project, annotator, filter: 'all', order, offset: page * PAGE, limit: PAGE })
        .then((result) => {
          if (mine !== generation.current) return;
          setTotal(result.total);
          setMatching(result.matching);
          setFilters(result.filters);
          setByIndex((old) => {
            const map = new Map(old);
            result.rows.forEach((row, i) => map.set(page * PAGE + i, row));
            return map;
          });
        })
        .catch((e: unknown) => {
          asked.current.delete(page);
          if (mine === generation.current) fail(e);
        });
    },
    [project, annotator, order, fail],
  );

  const loadMore = useCallback(() => {
    if (busy.current || next === null) return;
    busy.current = true;
    const mine = generation.current;
    api
      .listItems({ project, annotator, filter, order, limit: PAGE, ...(search ? { search } : {}), ...(next === undefined ? {} : { afterSeq: next }) })
      .then((result) => {
        if (mine !== generation.current) return;
        busy.current = false;
        setTotal(result.total);
        setMatching(result.matching);
        setFilters(result.filters);
        setList((old) => [...old, ...result.rows]);
        setScanned(result.scanned);
        setNext(result.next);
      })
      .catch((e: unknown) => {
        if (mine !== generation.current) return;
        busy.current = false;
        fail(e);
      });
  }, [project, annotator, filter, order, next, fail, search]);

  // Every item: the first page tells the size, and the list can then ask for the rows in view.
  useEffect(() => {
    if (filter === 'all' && !search) loadPage(0);
  }, [filter, loadPage, version, search]);
  // A search walks like a filter: one page after another, from where the last ended.
  const all = filter === 'all' && !search && (total === null || total <= BY_NUMBER_MAX);

  const ensure = useCallback(
    (first: number, last: number) => {
      if (all) {
        for (let page = Math.floor(first / PAGE); page <= Math.floor(last / PAGE); page++) loadPage(page);
      } else if (last >= list.length - PAGE / 4 && !error) loadMore();
    },
    [all, loadPage, loadMore, list.length, error],
  );

  const done = all ? total !== null : next === null;
  return {
    count: all ? (total ?? 0) : list.length + (done ? 0 : 1),
    row: (index) => (all ? byIndex.get(index) : list[index]),
    total,
    matching,
    loaded: all ? byIndex.size : list.length,
    scanned: all ? (total ?? 0) : scanned,
    done,
    error,
    filters,
    ensure,
  };
}
