// Saved views at the top of the side panel: the project's views (a query and a sort by name, shared
// through the team hub), open one, delete one, save the query in force under a name, and "label these
// next" on the open one: the labeling screen of its items walks the view as its queue.
import { useEffect, useState } from 'react';
import type { ItemSort, SavedView } from '../../../../shared/api';
import { api, errorMessage } from '../../api';

export function ViewsPanel(props: {
  project: string;
  annotator: string;
  /** The view open now (its name), if any. */
  open: string | undefined;
  query: string;
  sort: ItemSort;
  canSave: boolean;
  onOpen(view: SavedView): void;
  onDeleted(name: string): void;
  onLabel(view: SavedView): void;
}) {
  const { project } = props;
  const [views, setViews] = useState<SavedView[] | null>(null);
  const [naming, setNaming] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    api
      .listViews({ project })
      .then(setViews)
      .catch((e: unknown) => setError(errorMessage(e)));
  }, [project, version]);

  const save = (name: string) => {
    setError(null);
    api
      .saveView({ project, name, query: props.query, sort: props.sort, author: props.annotator })
      .then((view) => {
        setNaming(null);
        setVersion((v) => v + 1);
        props.onOpen(view);
      })
      .catch((e: unknown) => setError(errorMessage(e)));
  };
  const remove = (name: string) => {
    setError(null);
    api
      .deleteView({ project, name })
      .then(() => {
        setVersion((v) => v + 1);
        props.onDeleted(name);
      })
      .catch((e: unknown) => setError(errorMessage(e)));
  };
  const current = views?.find((v) => v.name === props.open);

  return (
    <section className="flex flex-col gap-1 border-b border-line pb-3" data-testid="views">
      <h3 className="flex items-center text-[11px] font-semibold tracking-wide text-faint uppercase">
        Saved views
        {naming === null && (
          <button
            className="ml-auto rounded px-1.5 py-0.5 text-[12px] font-medium tracking-normal text-accent normal-case hover:bg-surface-2 disabled:text-faint"
            onClick={() => setNaming(current?.name ?? '')}
            disabled={!props.canSave}
            title={props.canSave ? 'Save the query and sort in force under a name' : 'Fix the query first'}
            data-testid="view-save"
          >
            + Save
          </button>
        )}
      </h3>
      {naming !== null && (
        <form
          className="flex gap-1"
          onSubmit={(e) => {
            e.preventDefault();
            if (naming.trim()) save(naming.trim());
          }}
        >
          <input
            autoFocus
            value={naming}
            onChange={(e) => setNaming(e.target.value)}
            onKeyDown={(e) => e.key === 'Escape' && setNaming(null)}
            placeholder="Name of the view"
            maxLength={120}
            className="h-7 min-w-0 flex-1 rounded border border-line-strong bg-bg px-1.5 text-[12.5px]"
            data-testid="view-name"
          />
          <button className="h-7 rounded bg-accent px-2 text-[12px] font-medium text-white dark:text-[#111]" data-testid="view-save-confirm">
            Save
          </button>
        </form>
      )}
      {error && (
        <p className="text-[12px] text-bad" role="alert" data-testid="views-error">
          {error}
        </p>
      )}
      {views?.length === 0 && naming === null && <p className="text-[12px] text-faint">None yet: filter the items, then save the query here.</p>}
      <ul className="flex flex-col">
        {views?.map((v) => (
          <li key={v.id} className={`group flex items-center rounded ${v.name === props.open ? 'bg-accent-soft' : 'hover:bg-surface-2'}`} data-testid="view" data-view={v.name}>
            <button className="min-w-0 flex-1 truncate px-1.5 py-[3px] text-left text-[12.5px]" onClick={() => props.onOpen(v)} title={`${v.query || 'every item'}${v.author ? ` — saved by ${v.author}` : ''}`} data-testid="view-open">
              {v.name}
            </button>
            <button className="invisible px-1.5 text-[12px] text-muted group-hover:visible hover:text-bad" onClick={() => remove(v.name)} aria-label={`Delete the view ${v.name}`} data-testid="view-delete">
              ×
            </button>
          </li>
        ))}
      </ul>
      {current && (
        <button className="mt-1 h-7 rounded-md border border-accent px-2 text-[12.5px] font-medium text-accent hover:bg-accent-soft" onClick={() => props.onLabel(current)} data-testid="view-label">
          Label these next →
        </button>
      )}
    </section>
  );
}
