// The items explorer: every item of every task, found by a word in any text, narrowed by facets with
// their counts under the query, sorted by any column, selected and acted on (gold, review, export), saved
// as a view and labeled through. A dashboard figure opens here with its items' query (route `query`); a
// saved view by its name (route `view`).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ItemSort, ItemsRow, SavedView } from '../../../../shared/api';
import { api, errorMessage } from '../../api';
import { useGlobalKeys } from '../../components/keys';
import { useShell } from '../../context';
import { routeHash } from '../../route';
import { ExportPanel } from '../datasets/ExportPanel';
import { ExplorerBar } from './ExplorerBar';
import { ExplorerTable, type TableState } from './ExplorerTable';
import { FacetSidebar } from './FacetSidebar';
import { clausesOf, formatQuery, readQuery, toggleClauses, withoutClause } from './queryEdits';
import { SelectionBar } from './SelectionBar';
import { useExplorerPages } from './useExplorerPages';
import { useSelectionActions } from './useSelectionActions';
import { ViewsPanel } from './ViewsPanel';

const FILE_ORDER: ItemSort = { column: 'seq', desc: false };
const BEST_FIRST: ItemSort = { column: 'relevance', desc: true };

/** The value once it has stayed the same for `ms`. */
function useSettled(value: string, ms: number): [string, (now: string) => void] {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return [settled, setSettled];
}

export function ItemsScreen({ project, query: routeQuery, view }: { project: string; query?: string; view?: string }) {
  const { annotator, navigate } = useShell();
  const [typed, setTyped] = useState(routeQuery ?? '');
  const [settled, settleNow] = useSettled(typed, 300);
  // The sort a person or a view chose (null: none, the default: relevance while searching, else file order).
  const [chosen, setSort] = useState<ItemSort | null>(null);
  const [viewError, setViewError] = useState<string | null>(null);
  // A view named in the address: its query and sort, once read (until then nothing is asked).
  const [viewReady, setViewReady] = useState(view === undefined);
  useEffect(() => {
    if (view === undefined) return;
    api
      .listViews({ project })
      .then((views) => {
        const found = views.find((v) => v.name === view);
        if (!found) setViewError(`There is no saved view “${view}” in this project (deleted, or not synced yet).`);
        else {
          setTyped(found.query);
          settleNow(found.query);
          setSort(found.sort);
        }
        setViewReady(true);
      })
      .catch((e: unknown) => setViewError(errorMessage(e)));
  }, [project, view, settleNow]);

  const read = useMemo(() => readQuery(settled), [settled]);
  // The last query that could be read keeps its rows while the box holds one that cannot.
  const [running, setRunning] = useState<string | null>(null);
  useEffect(() => {
    if (viewReady && read.query) setRunning(settled.trim());
  }, [read, settled, viewReady]);
  const searching = useMemo(() => !!(running && readQuery(running).query?.text.trim()), [running]);
  const sort = useMemo(() => (chosen && (searching || chosen.column !== 'relevance') ? chosen : searching ? BEST_FIRST : FILE_ORDER), [chosen, searching]);
  // The address follows the query in force (replacing itself, not a history entry per keystroke): a reload,
  // or Back from an item opened here, finds the explorer as it was left. A view's address stays the view's.
  useEffect(() => {
    if (running === null || view !== undefined) return;
    const hash = routeHash({ name: 'items', project, ...(running ? { query: running } : {}) });
    if (location.hash !== hash) history.replaceState(history.state, '', hash);
  }, [running, project, view]);
  const [version, setVersion] = useState(0);
  const pages = useExplorerPages(project, annotator, running, sort, version);
  const head = pages.head;

  const [cursor, setCursor] = useState(0);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const scroller = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => {
    setCursor(0);
    scroller.current?.scrollTo({ top: 0 });
  }, [running, sort]);
  // Nothing asked yet: the box has the keys; a drill-down or a view: the list has them.
  useEffect(() => {
    if (routeQuery || view) scroller.current?.focus({ preventScroll: true });
    else box.current?.focus();
  }, [routeQuery, view]);

  const rows = pages.rows;
  const select = useCallback(
    (indexes: number[], to?: boolean) =>
      setSelected((old) => {
        const next = new Set(old);
        for (const i of indexes) {
          const id = rows[i]?.id;
          if (id === undefined) continue;
          if (to ?? !next.has(id)) next.add(id);
          else next.delete(id);
        }
        return next;
      }),
    [rows],
  );
  const open = useCallback((row: ItemsRow) => navigate({ name: row.screen, project, itemId: row.id }), [navigate, project]);
  const state: TableState = { cursor, setCursor, selected, select, open };
  const actions = useSelectionActions(project, annotator, selected, running ?? '', () => setVersion((v) => v + 1));

  const applyQuery = (text: string) => {
    setTyped(text);
    settleNow(text);
  };
  const toggleFacet = (clauseText: string) => {
    if (!read.query) return;
    applyQuery(formatQuery(toggleClauses(read.query, clausesOf(clauseText))));
  };
  const openView = (v: SavedView) => navigate({ name: 'items', project, view: v.name });
  const labelView = (v: SavedView) => {
    api
      .queryItems({ project, annotator, view: v.name, limit: 1, facets: false })
      .then((page) => navigate({ name: page.rows[0]?.screen ?? 'compare', project, view: v.name }))
      .catch((e: unknown) => setViewError(errorMessage(e)));
  };

  useGlobalKeys((event) => {
    if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    box.current?.focus();
    box.current?.select();
  });

  const count = !head
    ? pages.error
      ? ''
      : 'Searching…'
    : `${head.searchCapped ? 'at least ' : ''}${head.matching.toLocaleString()} of ${head.total.toLocaleString()} items${head.query.canonical ? '' : ' (all)'}`;
  // Facets and rows of the previous query stay, dimmed, until the new answer comes (no flash of nothing).
  const stale = head !== null && pages.headFor !== `${running}\u0000${sort.column}\u0000${sort.desc}`;

  return (
    <main className="flex min-h-0 flex-1 overflow-hidden" data-testid="items-explorer">
      <div className="flex w-[232px] shrink-0 flex-col overflow-hidden border-r border-line bg-surface">
        <div className="px-3 pt-3">
          <ViewsPanel project={project} annotator={annotator} open={view} query={running ?? ''} sort={sort} canSave={read.query !== null} onOpen={openView} onLabel={labelView} onDeleted={(name) => name === view && navigate({ name: 'items', project })} />
        </div>
        <FacetSidebar facets={head?.facets ?? []} matching={head?.matching ?? 0} query={read.query} onToggle={toggleFacet} stale={stale} />
      </div>
      <section className="flex min-w-0 flex-1 flex-col bg-surface">
        <ExplorerBar
          typed={typed}
          onType={setTyped}
          onSubmit={() => settleNow(typed)}
          onLeave={() => scroller.current?.focus()}
          box={box}
          error={read.error ?? viewError}
          count={count}
          clauses={read.query?.clauses ?? []}
          onRemoveClause={(i) => read.query && applyQuery(formatQuery(withoutClause(read.query, i)))}
        />
        <SelectionBar
          selected={selected.size}
          matching={head?.matching ?? null}
          busy={actions.busy}
          note={actions.note}
          onSelectAll={() => actions.selectAll(sort).then((ids) => ids && setSelected(new Set(ids)))}
          onClear={() => setSelected(new Set())}
          onSend={actions.sendToReview}
          onGold={actions.markGold}
          onExport={() => actions.setExporting((e) => !e)}
        />
        {pages.error && (
          <div className="border-b border-line px-3 py-2 text-[13px] text-bad" role="alert" data-testid="explorer-error">
            The items could not be listed: {pages.error}
          </div>
        )}
        <div className="flex min-h-0 flex-1">
          <ExplorerTable
            pages={pages}
            sort={sort}
            searching={searching}
            onSort={setSort}
            state={state}
            scroller={scroller}
            onSearchKey={() => box.current?.focus()}
            onEscape={() => (selected.size ? setSelected(new Set()) : typed && applyQuery(''))}
          />
          {actions.exporting && selected.size > 0 && (
            <div className="w-[340px] shrink-0 overflow-auto border-l border-line bg-bg p-3" data-testid="selection-export">
              <ExportPanel project={project} version={version} scope={{ ids: [...selected] }} />
            </div>
          )}
        </div>
      </section>
    </main>
  );
}
