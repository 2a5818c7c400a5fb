// The Rubric screen: the project's rubrics with their versions and how many labels each version has, the
// editor for one rubric, and the project's guidelines (second tab). A version labels were made under never
// changes: Save makes the next version when the content changed, and keeps the newest when it did not.
// The rubric in force (the one the compare and verdict screens rate with) is marked and can be changed.
// Keys: Ctrl+S saves, Ctrl+Z / Ctrl+Shift+Z undo and redo any edit (typing included), Alt+↑ / Alt+↓ move
// the criterion with the focus; criteria also move by dragging their handle.
import { DndContext, PointerSensor, closestCenter, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { RubricSummary, RubricView } from '../../../../shared/api';
import { api, errorMessage } from '../../api';
import { Kbd } from '../../components/Kbd';
import { useShell } from '../../context';
import { GuidelinesEditor } from '../guidelines/GuidelinesEditor';
import { CriterionCard } from './CriterionCard';
import { EditHistory } from './editHistory';
import { RubricList } from './RubricList';
import { SaveButton } from './SaveButton';
import { blankCriterion, blankDraft, checkDraft, fromCriterion, helpfulnessSafetyTemplate, imageGenerationTemplate, sameCriteria, starterTemplate, type Draft, type DraftCriterion } from './draft';

type Tab = 'rubric' | 'guidelines';

interface Loaded {
  /** The rubric's newest version (what Save compares with); null for a rubric not saved yet. */
  latest: RubricView | null;
  /** The version the working copy started from. */
  from: number | null;
}

export function RubricsScreen({ project, tab: initialTab }: { project: string; tab?: Tab }) {
  const { navigate } = useShell();
  const [tab, setTab] = useState<Tab>(initialTab ?? 'rubric');
  const [list, setList] = useState<RubricSummary[] | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [draft, setDraftState] = useState<Draft | null>(null);
  const [loaded, setLoaded] = useState<Loaded>({ latest: null, from: null });
  const [message, setMessage] = useState<{ text: string; tone: 'ok' | 'bad' | 'info' } | null>(null);
  const [saving, setSaving] = useState(false);
  const [showProblems, setShowProblems] = useState(false);
  const history = useRef(new EditHistory<Draft>());
  const refocus = useRef<{ card: string; field: string } | null>(null);
  const draftRef = useRef(draft);
  draftRef.current = draft;

  useEffect(() => setTab(initialTab ?? 'rubric'), [initialTab]);

  const refreshList = useCallback(
    () =>
      api
        .listRubrics({ project })
        .then((rubrics) => {
          setList(rubrics);
          setListError(null);
          return rubrics;
        })
        .catch((e: unknown) => {
          setListError(errorMessage(e));
          return null;
        }),
    [project],
  );

  const start = useCallback((next: Draft, from: Loaded) => {
    history.current = new EditHistory<Draft>();
    setDraftState(next);
    setLoaded(from);
    setShowProblems(false);
  }, []);

  const open = useCallback(
    async (name: string, version?: number) => {
      try {
        const latest = await api.getRubric({ project, rubric: name });
        const view = version === undefined || version === latest.version ? latest : await api.getRubric({ project, rubric: name, version });
        start({ name, criteria: view.criteria.map(fromCriterion) }, { latest, from: view.version });
        setMessage(null);
      } catch (e) {
        setMessage({ text: errorMessage(e), tone: 'bad' });
      }
    },
    [project, start],
  );

  // First: the rubric in force (or the first one), else a template to start from.
  useEffect(() => {
    void refreshList().then((rubrics) => {
      if (!rubrics) return;
      const first = rubrics.find((r) => r.inForce) ?? rubrics[0];
      if (first) void open(first.name);
      // No rubric yet: a template that fits the project's items (an image generation project: its own).
      else
        void api
          .getProject({ project })
          .then((overview) => overview, () => null)
          .then((overview) => start(starterTemplate(overview), { latest: null, from: null }));
    });
  }, [refreshList, open, start, project]);

  const check = useMemo(() => (draft ? checkDraft(draft) : null), [draft]);
  const isNew = loaded.latest === null;
  const unchanged = Boolean(draft && check?.criteria && !isNew && draft.name === loaded.latest!.rubric && sameCriteria(check.criteria, loaded.latest!.criteria));
  const dirty = Boolean(draft) && !unchanged;
  const existing = list?.find((r) => r.name === draft?.name) ?? null;
  const problemCount = (check ? [...check.byCard.values()].reduce((n, m) => n + [...m.values()].reduce((k, l) => k + l.length, 0), 0) + check.general.length + (check.name ? 1 : 0) : 0);

  /** Applies an edit; edits of one field in quick succession are one step of undo. */
  const edit = useCallback((next: Draft, field: string) => {
    const current = draftRef.current;
    if (!current) return;
    history.current.record(current, field);
    setDraftState(next);
    setMessage(null);
  }, []);

  const undo = useCallback(() => {
    const current = draftRef.current;
    const previous = current ? history.current.undo(current) : null;
    if (!previous) return setMessage({ text: 'Nothing to undo.', tone: 'info' });
    setDraftState(previous);
  }, []);
  const redo = useCallback(() => {
    const current = draftRef.current;
    const next = current ? history.current.redo(current) : null;
    if (!next) return setMessage({ text: 'Nothing to redo.', tone: 'info' });
    setDraftState(next);
  }, []);

  const changeCriterion = useCallback(
    (id: string, patch: Partial<DraftCriterion>, field: string) => {
      const current = draftRef.current;
      if (!current) return;
      edit({ ...current, criteria: current.criteria.map((c) => (c.id === id ? { ...c, ...patch } : c)) }, `${id}:${field}`);
    },
    [edit],
  );

  const move = useCallback(
    (id: string, to: number) => {
      const current = draftRef.current;
      if (!current) return;
      const from = current.criteria.findIndex((c) => c.id === id);
      if (from < 0 || to < 0 || to >= current.criteria.length || to === from) return;
      const criteria = [...current.criteria];
      const [moved] = criteria.splice(from, 1);
      criteria.splice(to, 0, moved!);
      const active = document.activeElement as HTMLElement | null;
      refocus.current = { card: id, field: active?.getAttribute('data-field') ?? '' };
      edit({ ...current, criteria }, '');
    },
    [edit],
  );
  // A moved card keeps the focus where it was (React moves its node, which drops the focus).
  useLayoutEffect(() => {
    const want = refocus.current;
    if (!want) return;
    refocus.current = null;
    const card = document.querySelector<HTMLElement>(`[data-card="${want.card}"]`);
    const target = (want.field && card?.querySelector<HTMLElement>(`[data-field="${want.field}"]`)) || card?.querySelector<HTMLElement>('[data-field]');
    target?.focus();
  }, [draft]);

  const addCriterion = useCallback(() => {
    const current = draftRef.current;
    if (!current) return;
    const fresh = blankCriterion();
    refocus.current = { card: fresh.id, field: 'key' };
    edit({ ...current, criteria: [...current.criteria, fresh] }, '');
  }, [edit]);

  const save = useCallback(async () => {
    const current = draftRef.current;
    if (!current || !check || saving) return;
    setShowProblems(true);
    if (!check.criteria || check.name) {
      setMessage({ text: `Not saved: ${problemCount} ${problemCount === 1 ? 'problem' : 'problems'} to fix (marked in red).`, tone: 'bad' });
      const bad = document.querySelector<HTMLElement>('[data-testid="criterion-card"] .border-bad, [data-testid="rubric-name"].border-bad');
      bad?.focus();
      return;
    }
    if (unchanged) {
      setMessage({ text: `No changes: version ${loaded.latest!.version} stays in force for this rubric.`, tone: 'info' });
      return;
    }
    setSaving(true);
    try {
      const saved = await api.saveRubric({ project, name: current.name.trim(), criteria: check.criteria });
      const rubrics = await refreshList();
      const latest = await api.getRubric({ project, rubric: saved.rubric });
      setLoaded({ latest, from: latest.version });
      setDraftState({ ...current, name: saved.rubric });
      const inForce = rubrics?.find((r) => r.inForce)?.name ?? null;
      setMessage({
        text: saved.created
          ? `Saved as ${saved.rubric} v${saved.version}.${inForce === saved.rubric ? ' Labeling rates with it from the next item.' : ''}`
          : `Same content as ${saved.rubric} v${saved.version}: no new version.`,
        tone: 'ok',
      });
    } catch (e) {
      setMessage({ text: `Not saved: ${errorMessage(e)}`, tone: 'bad' });
    } finally {
      setSaving(false);
    }
  }, [check, saving, problemCount, unchanged, loaded.latest, project, refreshList]);

  const putInForce = useCallback(
    async (name: string | null) => {
      try {
        await api.setRubricInForce({ project, name });
        await refreshList();
        setMessage({ text: name ? `${name} is in force: the compare and verdict screens rate with its newest version.` : 'No rubric in force: the labeling screens show no ratings.', tone: 'ok' });
      } catch (e) {
        setMessage({ text: errorMessage(e), tone: 'bad' });
      }
    },
    [project, refreshList],
  );

  /** Switching to another rubric or version: not over changes made here and not saved. */
  const guard = (go: () => void) => {
    if (dirty && history.current.past.length > 0) {
      setMessage({ text: 'Save or discard the changes first.', tone: 'bad' });
      return;
    }
    go();
  };

  const discard = () => {
    if (loaded.latest) void open(loaded.latest.rubric, loaded.from ?? undefined);
    else start(blankDraft(list?.map((r) => r.name) ?? []), { latest: null, from: null });
    setMessage(null);
  };

  // Ctrl+S saves from anywhere on the screen (nothing focused, a button, the list); Ctrl+Z / Ctrl+Shift+Z
  // undo and redo any edit of the draft, typing included, wherever the focus is on the screen.
  const keysRef = useRef({ save, undo, redo });
  keysRef.current = { save, undo, redo };
  useEffect(() => {
    if (tab !== 'rubric') return;
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.defaultPrevented) return;
      // A dialog over the screen keeps its own keys (an item's criteria has its own save).
      if (e.target instanceof Element && e.target.closest('[role="dialog"]')) return;
      const key = e.key.toLowerCase();
      if (key === 's') {
        e.preventDefault();
        void keysRef.current.save();
      } else if (key === 'z' && !e.shiftKey) {
        e.preventDefault();
        keysRef.current.undo();
      } else if ((key === 'z' && e.shiftKey) || key === 'y') {
        e.preventDefault();
        keysRef.current.redo();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [tab]);

  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }));
  const onDragEnd = (event: DragEndEvent) => {
    const current = draftRef.current;
    if (!current || !event.over) return;
    const to = current.criteria.findIndex((c) => c.id === event.over!.id);
    move(String(event.active.id), to);
  };

  const fromOlder = loaded.latest && loaded.from !== null && loaded.from !== loaded.latest.version;

  return (
    <main className="flex min-h-0 flex-1 overflow-hidden" data-testid="rubrics-screen">
      <aside className="flex w-[268px] shrink-0 flex-col gap-3 overflow-y-auto border-r border-line bg-surface px-3 py-3" data-testid="rubric-list">
        <nav className="flex rounded-md border border-line bg-bg p-0.5 text-[13px]" aria-label="Rubric or guidelines">
          {(['rubric', 'guidelines'] as const).map((t) => (
            <button
              key={t}
              className={`flex-1 rounded px-2 py-1 ${tab === t ? 'bg-surface font-medium text-fg shadow-sm' : 'text-muted hover:text-fg'}`}
              onClick={() => navigate(t === 'rubric' ? { name: 'rubrics', project } : { name: 'guidelines', project })}
              aria-pressed={tab === t}
              data-testid={`tab-${t}`}
            >
              {t === 'rubric' ? 'Rubrics' : 'Guidelines'}
            </button>
          ))}
        </nav>
        {tab === 'rubric' && (
          <>
            <RubricList
              list={list}
              listError={listError}
              openName={draft && !isNew ? draft.name : null}
              openVersion={loaded.from}
              onOpen={(name, version) => guard(() => void open(name, version))}
              onInForce={(name) => void putInForce(name)}
              onNewBlank={() => guard(() => start(blankDraft(list?.map((r) => r.name) ?? []), { latest: null, from: null }))}
              onNewTemplate={() => guard(() => start(helpfulnessSafetyTemplate(), { latest: null, from: null }))}
              onNewImageTemplate={() => guard(() => start(imageGenerationTemplate(), { latest: null, from: null }))}
            />
          </>
        )}
      </aside>

      <div className="flex min-w-0 flex-1 flex-col overflow-y-auto">
        <div className="mx-auto flex w-full max-w-[1180px] flex-1 flex-col gap-3 px-5 py-4">
          {tab === 'guidelines' ? (
            <GuidelinesEditor project={project} />
          ) : !draft ? (
            <p className="text-[13px] text-muted">Loading…</p>
          ) : (
            <>
              <div className="flex flex-wrap items-end gap-3">
                <label className="flex flex-col gap-0.5">
                  <span className="text-[10.5px] font-semibold tracking-wide text-faint uppercase">Rubric name</span>
                  <input
                    value={draft.name}
                    onChange={(e) => edit({ ...draft, name: e.target.value }, 'name')}
                    readOnly={!isNew}
                    title={isNew ? undefined : 'A saved rubric keeps its name; its versions are listed on the left'}
                    className={`h-8 w-64 rounded border px-2 text-[14px] font-semibold outline-none focus:border-accent ${isNew ? 'bg-surface' : 'bg-bg text-fg'} ${showProblems && check?.name ? 'border-bad' : 'border-line-strong'}`}
                    data-testid="rubric-name"
                  />
                  {showProblems && check?.name && <span className="text-[11.5px] text-bad">{check.name}</span>}
                </label>
                <div className="flex flex-col pb-1 text-[12.5px] text-muted" data-testid="editor-state">
                  {isNew ? (
                    <span>{existing ? `A rubric named ${draft.name} exists: saving adds its next version.` : 'New rubric: saving makes version 1.'}</span>
                  ) : (
                    <span>
                      {fromOlder ? (
                        <>
                          Editing from <b className="font-medium text-fg">v{loaded.from}</b> (the newest is v{loaded.latest!.version}).{' '}
                        </>
                      ) : (
                        <>
                          Newest version <b className="font-medium text-fg">v{loaded.latest!.version}</b>, {loaded.latest!.labels} {loaded.latest!.labels === 1 ? 'label' : 'labels'}.{' '}
                        </>
                      )}
                      {unchanged ? 'No changes.' : <b className="font-medium text-fg">Saving makes v{loaded.latest!.version + 1}; labels keep the version they were made under.</b>}
                    </span>
                  )}
                </div>
                <div className="ml-auto flex items-center gap-1.5 pb-0.5 text-[12.5px]">
                  <button className="flex h-8 items-center gap-1.5 rounded-md border border-line-strong px-2 text-muted hover:bg-surface-2 hover:text-fg" onClick={undo} title="Undo (Ctrl+Z)" data-testid="editor-undo">
                    <Kbd>Ctrl Z</Kbd> Undo
                  </button>
                  <button className="flex h-8 items-center gap-1.5 rounded-md border border-line-strong px-2 text-muted hover:bg-surface-2 hover:text-fg" onClick={redo} title="Redo (Ctrl+Shift+Z)" data-testid="editor-redo">
                    Redo
                  </button>
                  {dirty && history.current.past.length > 0 && (
                    <button className="flex h-8 items-center rounded-md border border-line-strong px-2 text-muted hover:bg-surface-2 hover:text-fg" onClick={discard} data-testid="editor-discard">
                      Discard
                    </button>
                  )}
                  <SaveButton saving={saving} disabled={saving} onSave={() => void save()} testid="rubric-save" />
                </div>
              </div>
              {message && (
                <div
                  className={`rounded-md px-3 py-1.5 text-[13px] ${message.tone === 'bad' ? 'bg-bad-soft text-bad ring-1 ring-bad/40' : message.tone === 'ok' ? 'bg-ok/10 text-ok ring-1 ring-ok/30' : 'bg-surface-2 text-muted'}`}
                  role={message.tone === 'bad' ? 'alert' : 'status'}
                  data-testid="editor-message"
                >
                  {message.text}
                </div>
              )}
              {showProblems && check?.general.map((g) => (
                <p key={g} className="text-[12.5px] text-bad" data-testid="field-error">
                  {g}
                </p>
              ))}
              <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
                <ol className="flex flex-col gap-2" data-testid="criteria">
                  {draft.criteria.map((c, i) => (
                    <CriterionCard
                      key={c.id}
                      criterion={c}
                      index={i}
                      count={draft.criteria.length}
                      errors={showProblems || c.key ? check?.byCard.get(c.id) : undefined}
                      onChange={(patch, field) => changeCriterion(c.id, patch, field)}
                      onMove={(delta) => move(c.id, i + delta)}
                      onRemove={() => edit({ ...draft, criteria: draft.criteria.filter((x) => x.id !== c.id) }, '')}
                    />
                  ))}
                </ol>
              </DndContext>
              <div className="flex items-center gap-3 text-[12.5px]">
                <button className="flex h-8 items-center gap-1 rounded-md border border-dashed border-line-strong px-3 text-muted hover:border-accent hover:text-accent" onClick={addCriterion} data-testid="add-criterion">
                  + Add criterion
                </button>
                <span className="text-faint">
                  Criteria whose key starts with <code className="font-mono">safety</code> form the safety axis: rated apart, with their own winner. A negative weight marks a pitfall.
                </span>
              </div>
            </>
          )}
        </div>
      </div>
    </main>
  );
}
