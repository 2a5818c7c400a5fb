// One disputed item, for the lead: everyone's labels and the models' view above the prompt and the
// responses (side by side, A and B in the file's order), and the decision bar below. The task's keys
// pick the resolution, n writes a note, Ctrl+Enter records it and opens the next item of the queue not
// yet adjudicated; ← / → walk the queue, Esc goes back to it.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AdjudicationView, ItemView, StepsView } from '../../../../shared/api';
import { api, errorMessage } from '../../api';
import { ContentView } from '../../components/ContentView';
import { Kbd } from '../../components/Kbd';
import { pageDirection, scrollByPage } from '../../components/keys';
import { useShell } from '../../context';
import { PromptPane } from '../../components/PromptPane';
import { ReviewMarks } from '../../components/images/regions/ReviewMarks';
import { useScreenKeys } from '../../components/useScreenKeys';
import { draftKey, draftWords, initialDraft, resolution, complete, type Draft } from './drafts';
import { ItemResponses, ItemSteps } from './ItemResponses';
import { EarlierAdjudication, LabelsTable, ModelsTable } from './LabelsPanel';
import { MomentTimelines } from './MomentsReview';
import { ReasonChip } from './QueueView';
import { ResolveBar } from './ResolveBar';
import { saveSelected, useQueue, type QueueFilters } from './useReview';
import { isTrajectory } from '../../../../shared/trajectory';
import { letter, TASK_TITLES, trajectoryWords, votesWords } from './reviewWords';

interface Props {
  project: string;
  itemId: number;
  filters: QueueFilters;
  onBack(): void;
  /** Said on the next item after a Record: what was recorded where. */
  flash: string | null;
  onRecorded(message: string): void;
}

interface Loaded {
  view: AdjudicationView;
  item: ItemView;
  steps: StepsView | null;
}

export function AdjudicationScreen({ project, itemId, filters, onBack, flash, onRecorded }: Props) {
  const { annotator, navigate, keysEnabled } = useShell();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [note, setNote] = useState('');
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [finished, setFinished] = useState(false);
  const [folded, setFolded] = useState(true);
  const noteRef = useRef<HTMLTextAreaElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const queue = useQueue(project, filters, 0);
  const task = filters.task;

  useEffect(() => {
    let live = true;
    Promise.all([
      api.adjudicationView({ project, itemId, task }),
      api.getItem({ project, annotator, itemId }),
      task === 'steps' ? api.getSteps({ project, annotator, itemId }) : Promise.resolve(null),
    ])
      .then(([view, item, steps]) => {
        if (!live) return;
        if (!item) throw new Error(`Item ${itemId} is not in project ${project}.`);
        setLoaded({ view, item, steps });
        setDraft(initialDraft(task, view.adjudication, item.responses.filter((r) => isTrajectory(r.content)).map((r) => letter(r.index))));
      })
      .catch((e) => live && setLoadError(errorMessage(e)));
    return () => {
      live = false;
    };
    // The annotator is the lead; a switch of annotator does not change what the item shows.
  }, [project, itemId, task]);
  useEffect(() => saveSelected(project, itemId), [project, itemId]);

  const responses = loaded?.item.responses ?? [];
  const stepsOf = useCallback(
    (r: number): string[] => {
      const fromView = loaded?.steps?.responses.find((s) => s.index === r)?.steps;
      if (fromView?.length) return fromView;
      const response = loaded?.item.responses[r];
      if (response?.steps?.length) return response.steps;
      return response ? [typeof response.content === 'string' ? response.content : ''] : [];
    },
    [loaded],
  );

  const position = queue.rows.findIndex((r) => r.itemId === itemId);
  const row = position >= 0 ? queue.rows[position] : undefined;
  const go = (by: number) => {
    const target = queue.rows[position + by];
    if (target) navigate({ name: 'review', project, task, itemId: target.itemId });
  };

  const record = async () => {
    if (!draft || !loaded || saving || !complete(draft, responses.length)) return;
    setSaving(true);
    setSaveError(null);
    const words = draftWords(draft, responses.length);
    try {
      await api.adjudicate({ project, annotator, itemId, task, note: note.trim(), ...resolution(draft, responses.length) });
      const name = loaded.item.externalId ?? `item ${loaded.item.seq + 1}`;
      onRecorded(`Recorded ${name}: ${words}${note.trim() ? ', with a note' : ''}.`);
      // The next item of this queue a lead has not resolved, after this one in its order (then from the top).
      const fresh = await api.reviewQueue({ project, task, reason: filters.reason === 'all' ? undefined : filters.reason, includeAdjudicated: true, limit: 500 });
      const at = fresh.rows.findIndex((r) => r.itemId === itemId);
      const ordered = [...fresh.rows.slice(at + 1), ...fresh.rows.slice(0, Math.max(0, at))];
      const next = ordered.find((r) => !r.adjudicated && r.itemId !== itemId);
      if (next) navigate({ name: 'review', project, task, itemId: next.itemId });
      else {
        setFinished(true);
        setSaving(false);
        setLoaded({ ...loaded, view: await api.adjudicationView({ project, itemId, task }) });
      }
    } catch (e) {
      setSaveError(errorMessage(e));
      setSaving(false);
    }
  };

  useScreenKeys((event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      void record();
      return true;
    }
    if (event.ctrlKey || event.metaKey) return false;
    const direction = pageDirection(event);
    if (direction !== null && scroller.current) {
      scrollByPage(scroller.current, direction);
      return true;
    }
    if (event.key === 'Escape') onBack();
    else if (event.key === 'ArrowRight' && !event.altKey) go(1);
    else if (event.key === 'ArrowLeft' && !event.altKey) go(-1);
    else if (event.key === 'n' && !event.altKey) noteRef.current?.focus();
    else if (event.key === 'f' && task !== 'steps' && !event.altKey) setFolded((f) => !f);
    else if (draft) {
      const next = draftKey(draft, event, responses.length, (r) => stepsOf(r).length);
      if (next === null) return false;
      setDraft(next);
      setSaveError(null);
    } else return false;
    return true;
  }, keysEnabled);

  // The current step stays in view as j / k move it.
  const stepCursor = draft?.task === 'steps' ? `${draft.response}:${draft.step}` : null;
  useEffect(() => {
    if (stepCursor) scroller.current?.querySelector('[data-testid="adjudication-step"][data-current="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [stepCursor]);

  const content = useMemo(() => {
    if (!loaded || !draft) return null;
    if (draft.task === 'steps') return <ItemSteps responses={responses} stepsOf={stepsOf} labels={loaded.view.labels} draft={draft} />;
    return <ItemResponses responses={responses} />;
  }, [loaded, draft, responses, stepsOf]);

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="adjudication" data-item-id={itemId} data-task={task}>
      <div className="flex shrink-0 flex-wrap items-center gap-x-3 gap-y-1 border-b border-line bg-surface px-4 py-1.5 text-[13px]">
        <button className="flex items-center gap-1.5 text-muted hover:text-fg" onClick={onBack} data-testid="adjudication-back">
          ← Queue <Kbd>Esc</Kbd>
        </button>
        <span className="text-faint">/</span>
        <span className="font-mono text-[12px] font-medium" data-testid="adjudication-item">
          {loaded ? (loaded.item.externalId ?? `item ${loaded.item.seq + 1}`) : `item ${itemId}`}
        </span>
        <span className="text-[12px] text-faint">{TASK_TITLES[task].toLowerCase()}</span>
        {row && (
          <>
            <span className="flex gap-1">
              {row.reasons.map((r) => (
                <ReasonChip key={r} reason={r} sent={row.sent} />
              ))}
            </span>
            {row.trajectory && (
              <span className="text-[12px] text-muted" data-testid="adjudication-trajectory">
                {trajectoryWords(row.trajectory)}
              </span>
            )}
            <span className="text-[12px] text-muted tabular-nums">{votesWords(row.votes, row.task)}</span>
          </>
        )}
        <div className="ml-auto flex items-center gap-2 text-[12px] text-muted">
          {flash && (
            <span className="font-medium text-ok" role="status" data-testid="adjudication-flash">
              ✓ {flash}
            </span>
          )}
          {position >= 0 && (
            <span className="tabular-nums" data-testid="adjudication-position">
              {position + 1} of {queue.total ?? queue.rows.length} in the queue
            </span>
          )}
          <button className="flex items-center gap-1 rounded px-1 hover:text-fg disabled:opacity-40" onClick={() => go(-1)} disabled={position <= 0} title="Previous item of the queue (←)">
            <Kbd>←</Kbd> previous
          </button>
          <button className="flex items-center gap-1 rounded px-1 hover:text-fg disabled:opacity-40" onClick={() => go(1)} disabled={position < 0 || position >= queue.rows.length - 1} title="Next item of the queue (→)">
            next <Kbd>→</Kbd>
          </button>
        </div>
      </div>
      <div ref={scroller} className="min-h-0 flex-1 overflow-auto" data-testid="adjudication-scroll">
        {loadError ? (
          <div className="m-4 max-w-xl rounded-md border border-bad/40 bg-bad-soft p-3 text-[13px]" role="alert">
            <div className="font-medium text-bad">This item cannot be shown.</div>
            <p className="mt-1">{loadError}</p>
            <p className="mt-1 text-muted">Go back to the queue (Esc) and recompute it; the item may have been removed.</p>
          </div>
        ) : !loaded ? (
          <div className="p-4 text-[13px] text-muted">Reading the item…</div>
        ) : (
          <ReviewMarks labels={loaded.view.labels}>
            {finished && (
              <div className="border-b border-line bg-accent-soft px-4 py-2 text-[13px]" role="status" data-testid="adjudication-finished">
                Every item of this queue is adjudicated. <span className="text-muted">Esc goes back to the queue; the Agreement tab (a) shows the figures.</span>
              </div>
            )}
            <div className="mx-auto grid max-w-[1800px] items-start gap-3 p-4 xl:grid-cols-[minmax(0,1fr)_minmax(320px,420px)]">
              <LabelsTable view={loaded.view} trajectories={draft?.task === 'steps' ? draft.trajectories : []} />
              <div className="flex min-w-0 flex-col gap-3">
                <ModelsTable view={loaded.view} />
                <EarlierAdjudication view={loaded.view} trajectories={draft?.task === 'steps' ? draft.trajectories : []} />
              </div>
            </div>
            <MomentTimelines labels={loaded.view.labels} item={loaded.item} />
            <div className="mx-auto max-w-[1800px] px-4">
              <div className="overflow-hidden rounded-md border border-line [&>section]:border-b-0">
                {task === 'steps' ? (
                  // Here f marks a first error: the prompt scrolls in its box instead of folding.
                  <section className="flex gap-3 bg-surface px-4 pt-2.5 pb-3" data-testid="prompt">
                    <div className="w-16 shrink-0 pt-0.5 text-[11px] font-semibold tracking-wide text-faint uppercase">Prompt</div>
                    <div className="max-h-[30vh] min-w-0 flex-1 overflow-y-auto">
                      <ContentView content={loaded.item.prompt} />
                    </div>
                  </section>
                ) : (
                  <PromptPane prompt={loaded.item.prompt} folded={folded} onToggle={() => setFolded((f) => !f)} />
                )}
              </div>
            </div>
            <div className="mx-auto max-w-[1800px] p-4">{content}</div>
          </ReviewMarks>
        )}
      </div>
      {loaded && draft && (
        <ResolveBar draft={draft} setDraft={setDraft} responses={responses.length} note={note} setNote={setNote} noteRef={noteRef} onRecord={() => void record()} saving={saving} error={saveError} />
      )}
    </div>
  );
}
