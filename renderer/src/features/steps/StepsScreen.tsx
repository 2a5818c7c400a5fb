// The step screen (process supervision): one response's chain as numbered steps, rated from the
// keyboard. The prompt and the reference stay in view beside the steps; every key saves at once.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Kbd } from '../../components/Kbd';
import { EmptyState } from '../../components/EmptyState';
import { useShell } from '../../context';
import { parseRoute, routeHash } from '../../route';
import { ViewLine } from '../labeling/ViewLine';
import { StepsJudge } from '../judges/StepsJudge';
import { afterPaint } from './ahead';
import { toolsOf } from '../trajectories/tools';
import { ContextPanel } from './ContextPanel';
import { isComplete, setCallCorrection, setCorrection, toggleTag } from './judgement';
import { KeyBar } from './KeyBar';
import { modelStepsFor, suggestedJudgement } from './modelSteps';
import { stepActions } from './stepActions';
import { handleStepKey } from './stepKeys';
import { StepList } from './StepList';
import { StepsBar } from './StepsBar';
import { sourceWords, useSourceSteps } from './SourceSteps';
import { useScreenKeys } from '../../components/useScreenKeys';
import { isTrajectory } from '../../../../shared/trajectory';
import { TurnMinimap } from '../trajectories/TurnMinimap';
import { Filmstrip, filmFrames } from '../trajectories/Filmstrip';
import { TurnPlace } from '../trajectories/TurnScreens';
import { foldable, trajectoryView } from '../trajectories/turnModel';
import { useUnfolded } from '../trajectories/useUnfolded';
import { useStepCursor } from './useStepCursor';
import { agentsOf, turnInfos, TurnJudgingProvider, type TurnJudging } from './TurnJudging';
import { useSteps } from './useSteps';

export function StepsScreen({ project, itemId, response, view }: { project: string; itemId?: number; response?: number; view?: string }) {
  const { annotator, keysEnabled, navigate, prelabelMode, scoresVersion } = useShell();
  const s = useSteps(project, annotator, { itemId, response, view }, scoresVersion);
  const scroller = useRef<HTMLDivElement>(null);
  const item = s.loaded?.item ?? null;
  const seg = s.segmentation;
  const j = s.judgement;
  const steps = useMemo(() => seg?.steps ?? [], [seg]);
  const at = item ? `${item.id}:${s.response}` : '';
  // Until the project's setting is known, behave as blind: never show a pre-label that might anchor.
  const mode = prelabelMode ?? 'blind';

  // A trajectory's steps are its turns, drawn as turn cards (features/trajectories).
  const content = item?.responses[s.response]?.content;
  const trajectory = useMemo(() => (content !== undefined && isTrajectory(content) ? trajectoryView(content) : null), [content]);
  const turns = trajectory && trajectory.turns.length === steps.length ? trajectory : null;
  const fold = useUnfolded(at);
  const minimap = useMemo(() => (turns ? { sizes: turns.turns.map((t) => t.size), errors: turns.turns.map((t) => t.error) } : null), [turns]);
  // A GUI agent's screenshots, a frame per turn, across the top of the turns.
  const film = useMemo(() => (turns ? filmFrames(turns) : null), [turns]);

  const place = useStepCursor(at, steps.length);
  const { cursor, cursorRef, setCursor, ui, setUi } = place;
  // Judging the turns (tool call verdicts, corrected calls, severity, attribution): what the keys and editors know of them.
  const infos = useMemo(() => (turns ? turnInfos(turns.turns.map((t) => t.turn)) : null), [turns]);

  // The address names the item and response, so a reload (or the way back from elsewhere) finds it again.
  // Written once the item is painted: replacing the address costs the frame that shows the item.
  const shownId = item?.id;
  useEffect(() => {
    if (shownId === undefined) return;
    return afterPaint(() => {
      const hash = routeHash({ name: 'steps', project, itemId: shownId, response: s.response });
      const now = parseRoute(location.hash);
      if (location.hash !== hash && now.name === 'steps' && now.project === project) history.replaceState(null, '', hash);
    });
  }, [project, shownId, s.response]);

  // A new item or response starts at the top of its steps, in the frame that shows it; the scroller is
  // only moved (a layout read) when it is not there already.
  const scrolled = useRef(false);
  useLayoutEffect(() => {
    if (!scrolled.current) return;
    scrolled.current = false;
    scroller.current?.scrollTo({ top: 0 });
  }, [at]);

  const models = useMemo(() => modelStepsFor(s.prelabels?.data ?? null, s.response, steps), [s.prelabels, s.response, steps]);
  const hasModels = models.some((m) => m.steps);
  // Blind: only once this response is judged (first error set, or every step rated). Assist: up front.
  const visible = Boolean(j && hasModels && (mode === 'assist' || isComplete(j)));
  const suggestion = mode === 'assist' && hasModels ? suggestedJudgement(models, steps.length) : null;
  const noSuggestion = !models.length
    ? 'Nothing to accept (a): no process model has scored this item. Add one and score the project on the Models screen (m).'
    : !hasModels
      ? 'Nothing to accept (a): the process models scored other steps than these (split or merged since).'
      : mode === 'blind'
        ? 'Nothing to accept (a): pre-labels are blind here; the models’ scores show once you have judged the chain.'
        : 'Nothing to accept (a) on this response.';
  const backToCompare = item && item.responses.length >= 2 ? () => navigate({ name: 'compare', project, itemId: item.id }) : null;

  // `v`: the file's own step ratings beside the annotator's (kept on from item to item until `v` again).
  const [sourceOn, setSourceOn] = useState(false);
  const source = useSourceSteps(project, item?.id ?? null, s.response, seg?.version ?? null, sourceOn);
  const sourceState = source?.state ?? null;
  const say = s.say;
  useEffect(() => {
    if (source && source.state !== 'loading') say({ text: sourceWords(source), itemNumber: null, state: 'info' });
    // Said once per answer, not on every render.
  }, [sourceState, item?.id, s.response]);

  const edit = s.apply;
  const latest = s.latest;
  // `x` on a turn with nothing folded says so, rather than doing nothing.
  const toggleFold = (index: number) => {
    const turn = turns?.turns[index];
    if (!turn || foldable(turn)) fold.toggle(index);
    else say({ text: `Turn ${index + 1} shows everything already: nothing is folded (x unfolds a long result)`, itemNumber: item ? item.position : null, state: 'info' });
  };
  const actions = stepActions({ s, place, steps, visible, suggestion, noSuggestion, scroller, backToCompare, toggleSource: () => setSourceOn((v) => !v), toggleFold: turns ? toggleFold : undefined, turns: infos });

  useScreenKeys((event) => handleStepKey(event, actions), keysEnabled);

  const onCorrection = (text: string) => {
    const now = latest();
    setUi({ mode: 'keys' });
    if (now) edit(setCorrection(now, cursorRef.current, text, steps[cursorRef.current] ?? ''), visible);
  };

  const onCalls: TurnJudging['onCalls'] = (result) => {
    const now = latest();
    setUi({ mode: 'keys' });
    if ('cancelled' in result) say({ text: result.cancelled, itemNumber: item ? item.position : null, state: 'info' });
    else if (now) {
      const e = setCallCorrection(now, cursorRef.current, result.calls);
      if (e) edit(e, visible);
    }
  };
  const onCallsRef = useRef(onCalls);
  onCallsRef.current = onCalls;
  const judging = useMemo<TurnJudging | null>(
    () => (infos && j ? { turns: infos, judgement: j, cursor, askSeverity: ui.askSeverity, onCalls: (r) => onCallsRef.current(r) } : null),
    [infos, j, cursor, ui.askSeverity],
  );

  const pickRef = useRef((_: number) => {});
  pickRef.current = (i: number) => ui.mode === 'keys' && setCursor(i);
  const pickTurn = useCallback((i: number) => pickRef.current(i), []);

  const minusWithoutError = j && j.firstError === null ? j.ratings.findIndex((r) => r === -1) : -1;

  return (
    <main className="flex min-h-0 flex-1 flex-col" data-testid="steps-screen" data-item-id={item?.id ?? ''} data-response={s.response} data-prelabels={mode}>
      <ViewLine project={project} screen="steps" view={view} />
      {s.unsaved > 0 && s.status?.state === 'failed' && (
        <div className="shrink-0 bg-bad px-4 py-1.5 text-[13px] font-medium text-white dark:text-[#1a0a0d]" role="alert" data-testid="unsaved-banner">
          {s.unsaved === 1 ? '1 step judgement is' : `${s.unsaved} step judgements are`} not saved yet. Arbiter keeps retrying and keeps them on this machine
          meanwhile — do not clear the browser data.
          <button className="ml-3 underline" onClick={s.retryNow}>
            Retry now
          </button>
        </div>
      )}
      {s.phase === 'loading' && <div className="p-6 text-[13px] text-muted">Loading…</div>}
      {s.phase === 'error' && (
        <Centered>
          <p className="font-semibold text-bad">Could not open the project “{project}”.</p>
          <p>{s.loadError}</p>
          <button className="mt-2 text-accent underline" onClick={() => navigate({ name: 'start' })}>
            Back to projects
          </button>
        </Centered>
      )}
      {s.phase === 'empty' && <EmptyState screen="steps" project={project} navigate={navigate} />}
      {s.phase === 'done' && (
        <Centered testid="steps-all-done">
          <p className="text-[15px] font-medium">Every single response in this project has your step labels.</p>
          <p className="text-muted">Go back over them with ← / →, or export them from the Datasets screen.</p>
        </Centered>
      )}

      {item && seg && j && s.phase === 'ready' && (
        <>
          <StepsBar
            itemNumber={item.position}
            total={item.total}
            externalId={item.externalId}
            response={s.response}
            responseCount={item.responses.length}
            model={item.responses[s.response]?.model ?? null}
            method={seg.method}
            version={seg.version}
            judgement={j}
            labeledHere={s.labeledHere}
            noun={turns ? 'turn' : 'step'}
            onBack={backToCompare}
          />
          <div className="flex min-h-0 flex-1 flex-col wide:flex-row">
            <aside className="max-h-[36vh] shrink-0 overflow-y-auto border-b border-line bg-surface wide:max-h-none wide:w-[clamp(340px,34%,540px)] wide:border-r wide:border-b-0" data-testid="steps-context">
              <ContextPanel
                prompt={item.prompt}
                reference={item.reference}
                judgement={j}
                models={models}
                modelsVisible={visible}
                mode={mode}
                prelabelError={s.prelabels?.error ?? null}
                trajectory={infos !== null}
                tools={infos !== null ? toolsOf(item.metadata, s.response) : null}
                fileOutcome={s.loaded?.view.fileOutcomes?.[s.response] ?? null}
                onOutcome={() => actions.outcome()}
                onFinish={() => actions.finish()}
                onReference={() => actions.reference()}
                judge={<StepsJudge loads={s.judges} itemId={item.id} response={s.response} mode={mode} labeled={isComplete(j)} stepCount={steps.length} mine={j.firstError} noun={turns ? 'turn' : 'step'} />}
              />
            </aside>
            <div className="flex min-h-0 min-w-0 flex-1">
            <div className="flex min-h-0 min-w-0 flex-1 flex-col">
            {film && <Filmstrip project={project} frames={film} cursor={cursor} onPick={pickTurn} />}
            <div
              ref={scroller}
              className="min-h-0 flex-1 overflow-y-auto bg-surface px-2 wide:px-4"
              data-testid="steps-scroller"
              onScroll={(e) => (scrolled.current = e.currentTarget.scrollTop > 0)}
            >
              {s.notices && (
                <div className="mx-auto mt-3 flex max-w-[900px] items-start gap-2 rounded-md border border-accent/40 bg-accent-soft/60 px-3 py-2 text-[13px]" role="status" data-testid="steps-notices">
                  <span className="text-accent" aria-hidden>
                    ⓘ
                  </span>
                  <ul className="flex-1">
                    {s.notices.map((n) => (
                      <li key={n} data-testid="steps-notice">
                        {n}
                      </li>
                    ))}
                  </ul>
                  <button className="text-[12px] text-muted hover:text-fg" onClick={s.dismissNotices} aria-label="Dismiss">
                    ✕
                  </button>
                </div>
              )}
              <TurnPlace.Provider value={s.response}>
              <TurnJudgingProvider value={judging}>
              <StepList
                at={at}
                steps={steps}
                judgement={j}
                cursor={cursor}
                mode={ui.mode}
                tags={s.loaded?.view.tags ?? []}
                tagHighlight={ui.tagHighlight}
                tagFilter={ui.tagFilter}
                splitAt={ui.splitAt}
                models={visible ? models : []}
                showAgreement={visible}
                source={source?.state === 'shown' ? source : null}
                scroller={scroller}
                onPick={(i) => ui.mode === 'keys' && setCursor(i)}
                onToggleTag={(tag) => {
                  const now = latest();
                  if (now) edit(toggleTag(now, cursorRef.current, tag), visible);
                }}
                onCorrection={onCorrection}
                trajectory={turns}
                unfolded={fold.unfolded}
                onToggleFold={fold.toggle}
              />
              </TurnJudgingProvider>
              </TurnPlace.Provider>
              <EndOfChain count={steps.length} noun={turns ? 'turn' : 'step'} hint={minusWithoutError >= 0 ? minusWithoutError : null} />
            </div>
            </div>
            {minimap && <TurnMinimap sizes={minimap.sizes} ratings={j.ratings} firstError={j.firstError} errors={minimap.errors} cursor={cursor} onPick={pickTurn} />}
            </div>
          </div>
        </>
      )}
      {(s.phase === 'ready' || s.phase === 'done') && (
        <KeyBar
          status={s.status}
          disabled={!item || ui.mode !== 'keys'}
          hasReference={item?.reference != null}
          canAccept={Boolean(suggestion)}
          trajectory={infos ? { calls: infos[cursor]?.calls.length ?? 0, multiAgent: agentsOf(infos).length > 1 } : null}
          onRate={actions.rate}
          onFirstError={actions.firstError}
          onTags={actions.openTags}
          onCorrect={actions.openCorrection}
          onSplit={actions.startSplit}
          onMerge={actions.merge}
          onAccept={() => void actions.accept()}
          onUndo={actions.undo}
          onPrev={actions.previous}
          onNext={() => actions.next(false)}
          onRetry={s.retryNow}
        />
      )}
    </main>
  );
}

function EndOfChain({ count, noun, hint }: { count: number; noun: string; hint: number | null }) {
  return (
    <div className="mx-auto mb-8 flex max-w-[900px] flex-col items-center gap-1 pt-2 text-[12px] text-faint">
      <span>
        — end of the {noun === 'turn' ? 'trajectory' : 'response'} · {count} {count === 1 ? noun : `${noun}s`} —
      </span>
      {hint !== null && (
        <span className="text-muted" data-testid="first-error-hint">
          {noun === 'turn' ? 'Turn' : 'Step'} {hint + 1} is rated −1 but no first error is set: go to it and press <Kbd>f</Kbd> (the {noun}s after the first error need no rating).
        </span>
      )}
    </div>
  );
}

function Centered({ children, testid }: { children: ReactNode; testid?: string }) {
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-1 p-8 text-center text-[14px]" data-testid={testid}>
      {children}
    </div>
  );
}
