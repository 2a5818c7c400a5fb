// One project on the start screen: open it, or rename it inline, or delete it after an inline confirm.
// The keys (F2 / r, Del, Enter, Esc) are shown on the controls of the selected row.
import { forwardRef, useEffect, useRef, type ReactNode } from 'react';
import type { ProjectSummary } from '../../../../shared/domain';
import { Kbd } from '../../components/Kbd';

export interface RenameState {
  project: string;
  value: string;
  error: string | null;
  saving: boolean;
}

export interface DeleteState {
  project: string;
  error: string | null;
  busy: boolean;
}

export const GRID = 'grid grid-cols-[minmax(0,1fr)_4.5rem_12.5rem_19.5rem] items-center gap-3';

interface Props {
  project: ProjectSummary;
  selected: boolean;
  rename: RenameState | null;
  confirmDelete: DeleteState | null;
  onSelect(): void;
  onOpen(route: 'compare' | 'datasets'): void;
  onStartRename(): void;
  onRenameChange(value: string): void;
  onRenameSubmit(): void;
  onCancel(): void;
  onStartDelete(): void;
  onConfirmDelete(): void;
}

/** A key cap that keeps its place on rows that are not selected (shown on hover), so the columns do not move. */
function RowKey({ show, children }: { show: boolean; children: ReactNode }) {
  return <Kbd className={show ? '' : 'invisible group-hover:visible'}>{children}</Kbd>;
}

/** A key cap on a filled button: drawn in the button's own text colour. */
function ButtonKey({ children }: { children: ReactNode }) {
  return <kbd className="rounded border border-current/40 px-1 font-mono text-[11px] leading-[1.5] font-medium opacity-90">{children}</kbd>;
}

const action = 'inline-flex items-center gap-1.5 rounded px-2 py-1 text-[13px] outline-none focus-visible:ring-2 focus-visible:ring-accent';

export const ProjectRow = forwardRef<HTMLDivElement, Props>(function ProjectRow(props, ref) {
  const { project: p, selected, rename, confirmDelete } = props;
  const pct = p.items ? Math.round((p.labeled / p.items) * 100) : 0;
  const renameInput = useRef<HTMLInputElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const renaming = rename !== null;
  const deleting = confirmDelete !== null;

  useEffect(() => {
    if (!renaming) return;
    renameInput.current?.focus();
    renameInput.current?.select();
  }, [renaming]);
  useEffect(() => {
    if (deleting) confirmButton.current?.focus();
  }, [deleting]);

  const items = `${p.items.toLocaleString()} item${p.items === 1 ? '' : 's'}`;

  return (
    <div
      ref={ref}
      tabIndex={selected ? 0 : -1}
      aria-label={`Project ${p.name}`}
      aria-current={selected ? 'true' : undefined}
      data-testid="project-row"
      data-project={p.name}
      data-selected={selected ? 'true' : 'false'}
      onFocus={props.onSelect}
      onMouseDown={props.onSelect}
      className={`group border-b border-line outline-none last:border-b-0 ${
        selected ? 'bg-accent-soft/60 shadow-[inset_3px_0_0_var(--accent)]' : 'hover:bg-surface-2/60'
      }`}
    >
      <div className={`${GRID} px-4 py-2.5`}>
        {rename ? (
          <form
            className="flex min-w-0 items-center gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              props.onRenameSubmit();
            }}
          >
            <input
              ref={renameInput}
              className={`h-8 min-w-0 flex-1 rounded border bg-surface px-2 text-[14px] font-medium outline-none ${
                rename.error ? 'border-bad focus:border-bad' : 'border-line-strong focus:border-accent'
              }`}
              value={rename.value}
              onChange={(e) => props.onRenameChange(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Escape') {
                  e.preventDefault();
                  props.onCancel();
                }
              }}
              maxLength={200}
              aria-label={`New name for ${p.name}`}
              aria-invalid={rename.error ? 'true' : undefined}
              aria-describedby={rename.error ? `rename-error-${p.name}` : undefined}
              disabled={rename.saving}
              data-testid="rename-input"
            />
          </form>
        ) : (
          <button
            className="truncate text-left text-[14px] font-medium outline-none hover:text-accent focus-visible:text-accent"
            onClick={() => props.onOpen('compare')}
            title={p.name}
          >
            {p.name}
          </button>
        )}
        <span className="text-right text-[13px] tabular-nums text-muted">{p.items.toLocaleString()}</span>
        <span className="flex items-center gap-2 text-[12px] tabular-nums text-muted">
          <span className="h-1.5 w-20 overflow-hidden rounded-full bg-surface-2 ring-1 ring-line">
            <span className="block h-full bg-accent" style={{ width: `${pct}%` }} />
          </span>
          {p.labeled.toLocaleString()} ({pct}%)
        </span>
        {rename ? (
          <span className="flex justify-end gap-1">
            <button
              className={`${action} bg-accent font-medium text-white focus-visible:ring-offset-2 focus-visible:ring-offset-surface disabled:opacity-50 dark:text-[#111]`}
              onClick={props.onRenameSubmit}
              disabled={rename.saving}
              data-testid="rename-save"
            >
              {rename.saving ? 'Saving…' : 'Save'} <ButtonKey>Enter</ButtonKey>
            </button>
            <button className={`${action} text-muted hover:bg-surface-2 hover:text-fg`} onClick={props.onCancel}>
              Cancel <Kbd>Esc</Kbd>
            </button>
          </span>
        ) : (
          <span className="flex justify-end gap-1">
            <button className={`${action} text-accent hover:bg-accent-soft`} onClick={() => props.onOpen('compare')}>
              Label
            </button>
            <button className={`${action} text-muted hover:bg-surface-2 hover:text-fg`} onClick={() => props.onOpen('datasets')}>
              Datasets
            </button>
            <button
              className={`${action} text-muted hover:bg-surface-2 hover:text-fg`}
              onClick={props.onStartRename}
              aria-keyshortcuts="F2 r"
              title="Rename (F2 or r)"
              data-testid="rename-project"
            >
              Rename <RowKey show={selected}>F2</RowKey>
            </button>
            <button
              className={`${action} text-muted hover:bg-bad-soft hover:text-bad`}
              onClick={props.onStartDelete}
              aria-keyshortcuts="Delete"
              title="Delete (Del)"
              data-testid="delete-project"
            >
              Delete <RowKey show={selected}>Del</RowKey>
            </button>
          </span>
        )}
      </div>

      {rename?.error && (
        <p id={`rename-error-${p.name}`} className="px-4 pb-2.5 text-[13px] text-bad" role="alert" data-testid="rename-error">
          {rename.error}
        </p>
      )}

      {confirmDelete && (
        <div
          className="mx-4 mb-3 flex flex-wrap items-center gap-x-4 gap-y-2 rounded-md border border-bad/40 bg-bad-soft px-3 py-2.5 text-[13px]"
          role="alertdialog"
          aria-label={`Delete project ${p.name}?`}
          data-testid="delete-confirm"
        >
          <div className="min-w-0 flex-1">
            <div>
              Delete <b className="font-semibold break-words">“{p.name}”</b> and its {items}, with their labels and scores?
            </div>
            <div className="text-muted">A backup of the whole database is written first, into backups/ beside it.</div>
            {confirmDelete.error && (
              <div className="mt-1 text-bad" role="alert" data-testid="delete-error">
                {confirmDelete.error}
              </div>
            )}
          </div>
          <span className="flex shrink-0 gap-1.5">
            <button
              ref={confirmButton}
              className={`${action} bg-bad font-medium text-white focus-visible:ring-bad focus-visible:ring-offset-2 focus-visible:ring-offset-bad-soft disabled:opacity-50 dark:text-[#111]`}
              onClick={props.onConfirmDelete}
              disabled={confirmDelete.busy}
              title={`Delete “${p.name}”`}
              data-testid="delete-confirm-button"
            >
              <span className="max-w-[16rem] truncate">{confirmDelete.busy ? 'Deleting…' : `Delete “${p.name}”`}</span> <ButtonKey>Enter</ButtonKey>
            </button>
            <button className={`${action} bg-surface text-fg ring-1 ring-line-strong hover:bg-surface-2`} onClick={props.onCancel} data-testid="delete-cancel">
              Cancel <Kbd>Esc</Kbd>
            </button>
          </span>
        </div>
      )}
    </div>
  );
});
