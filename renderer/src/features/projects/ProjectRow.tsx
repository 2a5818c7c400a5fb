// One project on the start screen: open it, or rename it inline, or delete it after an inline confirm.
// The keys (F2 / r, Del, Enter, Esc) are shown on the controls of the selected row.
import { forwardRef, useEffect, useRef, type ReactNode } from 'react';
import type { ProjectOverview, TaskCount } from '../../../../shared/api';
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

export const GRID = 'grid grid-cols-[minmax(10rem,1fr)_4rem_minmax(12.5rem,21rem)_19.5rem] items-center gap-3';

interface Props {
  project: ProjectOverview;
  selected: boolean;
  rename: RenameState | null;
  confirmDelete: DeleteState | null;
  onSelect(): void;
  /** 'open': the screen the project's items need. */
  onOpen(route: 'open' | 'datasets'): void;
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

const TASK_WORD: Record<TaskCount['task'], string> = { pairwise: 'pairs', ranking: 'ranks', steps: 'steps', verdict: 'verdicts' };
const TASK_TITLE: Record<TaskCount['task'], string> = {
  pairwise: 'pairs with a label',
  ranking: 'items of three or more responses with a ranking',
  steps: 'chains with step labels (single responses, and a pair’s responses rated step by step)',
  verdict: 'single responses with a verdict',
};

/** Progress per task, each over its own items: "pairs 3/10 · ranks 1/4 · steps 2/5", a done task in the accent colour. */
function TaskProgress({ tasks }: { tasks: TaskCount[] }) {
  if (!tasks.length) return <span className="text-[12px] text-faint">no items yet</span>;
  return (
    <span className="text-[12px] leading-5 text-muted tabular-nums" data-testid="task-progress">
      {tasks.map((t, i) => {
        const done = t.total !== null && t.total > 0 && t.labeled >= t.total;
        return (
          <span key={t.task}>
            {i > 0 && <span className="text-faint"> · </span>}
            <span className="whitespace-nowrap" title={`${t.labeled.toLocaleString()} of ${t.total === null ? 'the (still counting)' : t.total.toLocaleString()} ${TASK_TITLE[t.task]}, by anyone`}>
              {TASK_WORD[t.task]} <span className={done ? 'font-medium text-accent' : t.labeled > 0 ? 'font-medium text-fg' : ''}>{t.labeled.toLocaleString()}</span>/
              {t.total === null ? '…' : t.total.toLocaleString()}
            </span>
          </span>
        );
      })}
    </span>
  );
}

/** A key cap on a filled button: drawn in the button's own text colour. */
function ButtonKey({ children }: { children: ReactNode }) {
  return <kbd className="rounded border border-current/40 px-1 font-mono text-[11px] leading-[1.5] font-medium opacity-90">{children}</kbd>;
}

const action = 'inline-flex items-center gap-1.5 rounded px-2 py-1 text-[13px] outline-none focus-visible:ring-2 focus-visible:ring-accent';

export const ProjectRow = forwardRef<HTMLDivElement, Props>(function ProjectRow(props, ref) {
  const { project: p, selected, rename, confirmDelete } = props;
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
            onClick={() => props.onOpen('open')}
            title={p.name}
          >
            {p.name}
          </button>
        )}
        <span className="text-right text-[13px] tabular-nums text-muted">{p.items.toLocaleString()}</span>
        <TaskProgress tasks={p.tasks} />
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
            <button className={`${action} text-accent hover:bg-accent-soft`} onClick={() => props.onOpen('open')} title="Open it on the screen its items need">
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
