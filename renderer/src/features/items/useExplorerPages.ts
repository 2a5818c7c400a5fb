// The explorer's rows as the host pages them: the first page of a query brings its counts (matching,
// every facet's values), the next pages follow its cursor while the end of what is loaded is in view.
// A new query, sort or version starts over; answers to an older one are dropped.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ItemSort, ItemsPage, ItemsRow } from '../../../../shared/api';
import { api, errorMessage } from '../../api';

const PAGE = 100;
/** How soon counts being recomputed are asked again. */
const RECOUNT_MS = 1_500;

export interface ExplorerPages {
  /** Rows the list shows: the loaded ones, and one "loading" row while there are more. */
  count: number;
  rows: ItemsRow[];
  /** The first page's answer: total, matching, the query as read, the facets; null until it comes. */
  head: ItemsPage | null;
  /** The query (and sort) the head answers: another than asked while a new answer is on its way. */
  headFor: string | null;
  done: boolean;
  error: string | null;
  /** Loads more when row `last` is near the end of what is loaded. */
  ensure(last: number): void;
}

export function useExplorerPages(project: string, annotator: string, query: string | null, sort: ItemSort, version: number): ExplorerPages {
  const [rows, setRows] = useState<ItemsRow[]>([]);
  const [head, setHead] = useState<ItemsPage | null>(null);
  const [headFor, setHeadFor] = useState<string | null>(null);
  const [next, setNext] = useState<string | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const generation = useRef(0);
  const busy = useRef(false);

  const load = useCallback(
    (cursor: string | undefined) => {
      if (query === null || busy.current) return;
      busy.current = true;
      const mine = generation.current;
      api
        .queryItems({ project, annotator, query, sort, limit: PAGE, facets: cursor === undefined, ...(cursor ? { cursor } : {}) })
        .then((page) => {
          if (mine !== generation.current) return;
          busy.current = false;
          if (cursor === undefined) {
            setHead(page);
            setHeadFor(`${query}\u0000${sort.column}\u0000${sort.desc}`);
          }
          setRows((old) => (cursor === undefined ? page.rows : [...old, ...page.rows]));
          setNext(page.next);
        })
        .catch((e: unknown) => {
          if (mine !== generation.current) return;
          busy.current = false;
          setError(errorMessage(e));
          setNext(null);
        });
    },
    [project, annotator, query, sort],
  );

  useEffect(() => {
    generation.current++;
    busy.current = false;
    setError(null);
    setNext(undefined);
    // The rows and counts stay until the new answer replaces them: no flash of an empty table while typing.
    load(undefined);
  }, [load, version]);

  // Counts said to be recomputed (a large project's review part, after a label change): asked again, the
  // counts alone, until they are current; the loaded rows stay.
  useEffect(() => {
    if (!head?.reviewing || query === null) return;
    const mine = generation.current;
    const timer = setTimeout(() => {
      api
        .queryItems({ project, annotator, query, sort, limit: 1, facets: true })
        .then((page) => {
          if (mine === generation.current) setHead({ ...page, rows: head.rows, next: head.next });
        })
        .catch(() => undefined); // the next change asks again
    }, RECOUNT_MS);
    return () => clearTimeout(timer);
  }, [head, project, annotator, query, sort]);

  const ensure = useCallback(
    (last: number) => {
      if (next && last >= rows.length - PAGE / 4) load(next);
    },
    [next, rows.length, load],
  );

  const done = next === null;
  return { count: rows.length + (done || next === undefined ? 0 : 1), rows, head, headFor, done, error, ensure };
}
