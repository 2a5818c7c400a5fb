// An item's own criteria (a per-prompt rubric), written or edited from the labeling screens: "Criteria
// for this item…" on the ratings bar, or Shift+E, opens a dialog of the rubric editor's criterion cards.
// It starts from the item's own criteria when it has them, else from one blank criterion (or, on request,
// from the project's rubric in force). Save stores them as the next version of the item's rubric
// (saveItemCriteria; the same criteria keep their version) and the item is rated under them from then on.
// The dialog keeps its keys: Esc closes (asking first when there are edits), Ctrl+S saves, Ctrl+Z /
// Ctrl+Shift+Z undo and redo, Alt+↑ / Alt+↓ move the criterion with the focus; no key reaches the screen.
import { DndContext, PointerSensor, closestCenter, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from 'react';
import type { RubricView } from '../../../../shared/api';
import { api, ApiError, errorMessage } from '../../api';
import { Kbd } from '../../components/Kbd';
import { CriterionCard } from './CriterionCard';
import { blankCriterion, checkDraft, fromCriterion, sameCriteria, toInput, type DraftCriterion } from './draft';
import { EditHistory } from './editHistory';
import { SaveButton } from './SaveButton';

/** The draft's content as text (local ids aside): what "unsaved edits" compares. */
const contentOf = (criteria: DraftCriterion[]) => JSON.stringify(criteria.map(toInput));

type Message = { text: string; tone: 'ok' | 'bad' | 'info' };

interface Loaded {
  /** The item's own criteria now (null: it has none). */
  own: RubricView | null;
  /** The project's rubric in force, to start from (null: none). */
  project: RubricView | null;
}

export function ItemCriteriaDialog({
  project,
  itemId,
  itemNumber,
  inForce,
  onClose,
  onSaved,
}: {
  project: string;
  itemId: number;
  itemNumber: number | null;
  inForce: string | null;
  onClose(): void;
  /** After a save (or a save of the same criteria): the sentence to show. */
  onSaved(words: string): Promise<void> | void;
}) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [criteria, setCriteriaState] = useState<DraftCriterion[]>([]);
  const [initial, setInitial] = useState('');
  const [message, setMessage] = useState<Message | null>(null);
  const [showProblems, setShowProblems] = useState(false);
  const [saving, setSaving] = useState(false);
  const [confirmClose, setConfirmClose] = useState(false);
  const history = useRef(new EditHistory<DraftCriterion[]>());
  const criteriaRef = useRef(criteria);
  criteriaRef.current = criteria;
  const refocus = useRef<{ card: string; field: string } | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  const discardButton = useRef<HTMLButtonElement>(null);
  const beforeConfirm = useRef<HTMLElement | null>(null);

  useEffect(() => {
    let live = true;
    const own = api.getRubric({ project, rubric: 'item', itemId }).catch((e: unknown) => {
      if (e instanceof ApiError && e.code === 'not_found') return null;
      throw e;
    });
    const fromProject = inForce ? api.getRubric({ project, rubric: inForce }).catch(() => null) : Promise.resolve(null);
    Promise.all([own, fromProject]).then(
      ([ownView, projectView]) => {
        if (!live) return;
        const start = ownView ? ownView.criteria.map(fromCriterion) : [blankCriterion()];
        setLoaded({ own: ownView, project: projectView });
        setCriteriaState(start);
        setInitial(contentOf(start));
        refocus.current = start[0] ? { card: start[0].id, field: 'key' } : null;
      },
      (e: unknown) => live && setLoadError(errorMessage(e)),
    );
    return () => {
      live = false;
    };
  }, [project, itemId, inForce]);

  const check = useMemo(() => checkDraft({ name: 'item-criteria', criteria }), [criteria]);
  const problemCount = [...check.byCard.values()].reduce((n, m) => n + [...m.values()].reduce((k, l) => k + l.length, 0), 0) + check.general.length;
  const dirty = loaded !== null && contentOf(criteria) !== initial;
  const own = loaded?.own ?? null;
  const unchanged = Boolean(own?.stored && check.criteria && sameCriteria(check.criteria, own.criteria));

  /** Applies an edit; edits of one field in quick succession are one step of undo. */
  const edit = useCallback((next: DraftCriterion[], field: string) => {
    history.current.record(criteriaRef.current, field);
    setCriteriaState(next);
    setMessage(null);
    setConfirmClose(false);
  }, []);
  const undo = useCallback(() => {
    const previous = history.current.undo(criteriaRef.current);
    if (!previous) return setMessage({ text: 'Nothing to undo.', tone: 'info' });
    setCriteriaState(previous);
  }, []);
  const redo = useCallback(() => {
    const next = history.current.redo(criteriaRef.current);
    if (!next) return setMessage({ text: 'Nothing to redo.', tone: 'info' });
    setCriteriaState(next);
  }, []);

  const move = useCallback(
    (id: string, to: number) => {
      const current = criteriaRef.current;
      const from = current.findIndex((c) => c.id === id);
      if (from < 0 || to < 0 || to >= current.length || to === from) return;
      const next = [...current];
      const [moved] = next.splice(from, 1);
      next.splice(to, 0, moved!);
      refocus.current = { card: id, field: (document.activeElement as HTMLElement | null)?.getAttribute('data-field') ?? '' };
      edit(next, '');
    },
    [edit],
  );
  // A moved or new card gets the focus (React moves a node, which drops the focus).
  useLayoutEffect(() => {
    const want = refocus.current;
    if (!want) return;
    refocus.current = null;
    const card = panel.current?.querySelector<HTMLElement>(`[data-card="${want.card}"]`);
    const target = (want.field && card?.querySelector<HTMLElement>(`[data-field="${want.field}"]`)) || card?.querySelector<HTMLElement>('[data-field]');
    target?.focus();
  }, [criteria]);
  useEffect(() => {
    if (confirmClose) discardButton.current?.focus();
  }, [confirmClose]);
  // The focus starts in the dialog (on the panel until the criteria are read).
  useEffect(() => {
    if (!panel.current?.contains(document.activeElement)) panel.current?.focus();
  }, []);

  const addCriterion = () => {
    const fresh = blankCriterion();
    refocus.current = { card: fresh.id, field: 'key' };
    edit([...criteriaRef.current, fresh], '');
  };

  const startFromProject = () => {
    const from = loaded?.project;
    if (!from) return;
    const next = from.criteria.map(fromCriterion);
    refocus.current = next[0] ? { card: next[0].id, field: 'key' } : null;
    edit(next, '');
    setMessage({ text: `Started from ${from.rubric} v${from.version}: edit them for this item, then save (Ctrl+Z takes this back).`, tone: 'info' });
  };

  const save = async () => {
    if (!loaded || saving) return;
    setShowProblems(true);
    setConfirmClose(false);
    if (!check.criteria) {
      setMessage({ text: `Not saved: ${problemCount} ${problemCount === 1 ? 'problem' : 'problems'} to fix (marked in red).`, tone: 'bad' });
      panel.current?.querySelector<HTMLElement>('[data-testid="criterion-card"] .border-bad')?.focus();
      return;
    }
    if (unchanged) {
      setMessage({ text: `No changes: this item’s criteria stay v${own!.version}.`, tone: 'info' });
      return;
    }
    setSaving(true);
    try {
      const saved = await api.saveItemCriteria({ project, itemId, criteria: check.criteria });
      await onSaved(saved.created ? `Saved as this item’s criteria v${saved.version}.` : `Same criteria as v${saved.version}: no new version.`);
    } catch (e) {
      setMessage({ text: `Not saved: ${errorMessage(e)}`, tone: 'bad' });
      setSaving(false);
    }
  };

  /** Esc, Cancel or a click beside the dialog: closes, asking first when there are edits not saved. */
  const requestClose = () => {
    if (!dirty || confirmClose) return onClose();
    const active = document.activeElement as HTMLElement | null;
    beforeConfirm.current = active && panel.current?.contains(active) ? active : null;
    setConfirmClose(true);
  };
  /** Back from "close without saving?" to where the focus was. */
  const keepEditing = () => {
    setConfirmClose(false);
    const back = beforeConfirm.current;
    beforeConfirm.current = null;
    (back?.isConnected ? back : panel.current)?.focus();
  };

  /** Esc: closes (or asks first); while asking, keeps editing. */
  const escape = () => {
    if (confirmClose) keepEditing();
    else requestClose();
  };
  const escapeRef = useRef(escape);
  escapeRef.current = escape;

  // Modal: a key pressed with the focus outside the dialog (it was on a control that went away) never
  // reaches the screen behind; the focus comes back to the dialog, and Esc still closes it.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const root = panel.current;
      if (!root || (event.target instanceof Node && root.contains(event.target))) return;
      event.preventDefault();
      event.stopPropagation();
      root.focus();
      if (event.key === 'Escape') escapeRef.current();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);

  const onKeyDown = (e: ReactKeyboardEvent) => {
    // Nothing typed or pressed here reaches the screen's keys (which listen on the window).
    e.stopPropagation();
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key.toLowerCase();
    if (e.key === 'Escape') {
      e.preventDefault();
      escape();
    } else if (mod && !e.altKey && (key === 's' || e.key === 'Enter')) {
      e.preventDefault();
      void save();
    } else if (mod && !e.altKey && key === 'z' && !e.shiftKey) {
      e.preventDefault();
      undo();
    } else if (mod && !e.altKey && ((key === 'z' && e.shiftKey) || key === 'y')) {
      e.preventDefault();
      redo();
    } else if (e.key === 'Tab' && panel.current) {
      // The focus stays in the dialog.
      const stops = [...panel.current.querySelectorAll<HTMLElement>('input, select, textarea, button:not([tabindex="-1"])')].filter((el) => !(el as HTMLButtonElement).disabled && el.offsetParent !== null);
      const first = stops[0];
      const last = stops[stops.length - 1];
      if (!first || !last) return;
      if (e.shiftKey && (document.activeElement === first || document.activeElement === panel.current)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
    }
  };

  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }));
  const onDragEnd = (event: DragEndEvent) => {
    if (!event.over) return;
    move(String(event.active.id), criteriaRef.current.findIndex((c) => c.id === event.over!.id));
  };

  const from = loaded?.project ?? null;
  let state: ReactNode = null;
  if (loaded && !own)
    state = (
      <>
        No criteria of its own yet{inForce ? <>: it is rated under the project’s {inForce}</> : ''}. <b className="font-medium text-fg">Saving makes its v1</b>, and the item is rated under them from then on.
      </>
    );
  else if (own)
    state = (
      <>
        {own.stored ? (
          <>
            Newest version <b className="font-medium text-fg">v{own.version}</b>, {own.labels} {own.labels === 1 ? 'label' : 'labels'}.{' '}
          </>
        ) : (
          <>Imported with the item, not rated yet (v{own.version}). </>
        )}
        {unchanged ? 'No changes.' : own.stored && dirty ? <b className="font-medium text-fg">Saving makes v{own.version + 1}; labels keep the version they were made under.</b> : null}
      </>
    );

  return (
    <div
      className="fixed inset-0 z-50 flex items-start justify-center bg-black/40 p-4 pt-[6vh] backdrop-blur-[1px] dark:bg-black/60"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) requestClose();
      }}
      data-testid="item-criteria-backdrop"
    >
      <div
        ref={panel}
        tabIndex={-1}
        role="dialog"
        aria-modal="true"
        aria-label="Criteria for this item"
        data-own-keys=""
        onKeyDown={onKeyDown}
        className="flex max-h-[88vh] w-full max-w-[1120px] flex-col overflow-hidden rounded-lg border border-line bg-bg shadow-xl outline-none"
        data-testid="item-criteria-dialog"
      >
        <div className="flex shrink-0 flex-wrap items-center gap-x-3 gap-y-1.5 border-b border-line bg-surface px-4 py-2.5">
          <h2 className="text-[15px] font-semibold">
            Criteria for this item{itemNumber !== null && <span className="ml-1.5 font-normal text-muted">· item {itemNumber}</span>}
          </h2>
          <span className="text-[12.5px] text-muted" data-testid="item-criteria-state">
            {state}
          </span>
          <div className="ml-auto flex items-center gap-1.5 text-[12.5px]">
            <button className="flex h-8 items-center gap-1.5 rounded-md border border-line-strong px-2 text-muted hover:bg-surface-2 hover:text-fg" onClick={requestClose} data-testid="item-criteria-cancel">
              Cancel <Kbd>Esc</Kbd>
            </button>
            <SaveButton saving={saving} disabled={!loaded || saving} onSave={() => void save()} testid="item-criteria-save" />
          </div>
        </div>

        {confirmClose && (
          <div className="flex shrink-0 flex-wrap items-center gap-2 border-b border-bad/30 bg-bad-soft px-4 py-2 text-[13px]" role="alertdialog" aria-label="Discard the changes?" data-testid="item-criteria-confirm">
            <span className="font-medium text-bad">Close without saving? Your changes to this item’s criteria will be lost.</span>
            <button
              ref={discardButton}
              className="ml-auto rounded-md border border-bad bg-bad px-2.5 py-1 font-medium text-white dark:text-[#1a0a0d]"
              onClick={onClose}
              data-testid="item-criteria-discard"
            >
              Discard changes
            </button>
            <button className="flex items-center gap-1.5 rounded-md border border-line-strong bg-surface px-2.5 py-1 text-fg hover:bg-surface-2" onClick={keepEditing} data-testid="item-criteria-keep">
              Keep editing <Kbd>Esc</Kbd>
            </button>
          </div>
        )}

        <div className="min-h-0 flex-1 overflow-y-auto px-4 py-3">
          {loadError ? (
            <p className="text-[13px] text-bad" role="alert">
              This item’s criteria could not be read: {loadError}
            </p>
          ) : !loaded ? (
            <p className="text-[13px] text-muted">Loading…</p>
          ) : (
            <div className="flex flex-col gap-2.5">
              {message && (
                <div
                  className={`rounded-md px-3 py-1.5 text-[13px] ${message.tone === 'bad' ? 'bg-bad-soft text-bad ring-1 ring-bad/40' : message.tone === 'ok' ? 'bg-ok/10 text-ok ring-1 ring-ok/30' : 'bg-surface-2 text-muted'}`}
                  role={message.tone === 'bad' ? 'alert' : 'status'}
                  data-testid="item-criteria-message"
                >
                  {message.text}
                </div>
              )}
              {showProblems &&
                check.general.map((g) => (
                  <p key={g} className="text-[12.5px] text-bad" data-testid="field-error">
                    {g}
                  </p>
                ))}
              <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
                <ol className="flex flex-col gap-2" data-testid="criteria">
                  {criteria.map((c, i) => (
                    <CriterionCard
                      key={c.id}
                      criterion={c}
                      index={i}
                      count={criteria.length}
                      errors={showProblems || c.key ? check.byCard.get(c.id) : undefined}
                      onChange={(patch, field) => edit(criteriaRef.current.map((x) => (x.id === c.id ? { ...x, ...patch } : x)), `${c.id}:${field}`)}
                      onMove={(delta) => move(c.id, i + delta)}
                      onRemove={() => edit(criteriaRef.current.filter((x) => x.id !== c.id), '')}
                    />
                  ))}
                </ol>
              </DndContext>
              <div className="flex flex-wrap items-center gap-3 text-[12.5px]">
                <button className="flex h-8 items-center gap-1 rounded-md border border-dashed border-line-strong px-3 text-muted hover:border-accent hover:text-accent" onClick={addCriterion} data-testid="item-criteria-add">
                  + Add criterion
                </button>
                {from && (
                  <button
                    className="flex h-8 items-center gap-1 rounded-md border border-line-strong px-3 text-muted hover:bg-surface-2 hover:text-fg"
                    onClick={startFromProject}
                    title={`Replace these criteria with a copy of ${from.rubric} v${from.version} (Ctrl+Z takes it back)`}
                    data-testid="item-criteria-from-project"
                  >
                    Start from the project’s rubric ({from.rubric} v{from.version})
                  </button>
                )}
                <span className="text-faint">Rated the same way as the project’s rubric; labels keep the version they were made under.</span>
              </div>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
