// The pairwise compare screen: prompt pinned on top, the two responses side by side in the order
// this annotator sees them, the decision bar at the bottom. The keyboard drives everything.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { describeScreenChoice, toScreenChoice, toSourceChoice, type ScreenChoice } from '../../../../shared/choices';
import type { PairwiseRevision } from '../../../../shared/api';
import type { Strength } from '../../../../shared/domain';
import { responseLetter } from '../../../../shared/letters';
import { Kbd } from '../../components/Kbd';
import { EmptyState } from '../../components/EmptyState';
import { digitOf, useGlobalKeys } from '../../components/keys';
import { useShell } from '../../context';
import { DecisionBar } from './DecisionBar';
import { ItemBar } from './ItemBar';
import { columnSteps, SuggestionButton } from './PrelabelViews';
import { prelabelLine, type Reveal } from './PrelabelLine';
import { suggestion } from '../../components/prelabels';
import { Centered } from '../../components/screenParts';
import { screenFor } from '../../components/ScreenTabs';
import { PromptPane } from '../../components/PromptPane';
import { PairTools } from '../trajectories/ToolsSchema';
import { toolsOf } from '../trajectories/tools';
import { ResponseColumn, type Verdict } from './ResponseColumn';
import { compareTexts } from './ahead';
import { prepareAhead } from '../../components/renderAhead';
import { useColumnDiffs, useReading } from './useReading';
import { CritiqueBox } from '../critiques/CritiqueBox';
import { JudgeLine } from '../judges/JudgeLine';
import { RegionMarking } from '../../components/images/regions/RegionMarking';
import { RatingPanel, RatingsBar } from '../rubrics/RatingPanel';
import { useLabelingLoop, type Loaded } from '../labeling/useLabelingLoop';
import { loopKey } from '../labeling/loopKeys';
import { ViewLine } from '../labeling/ViewLine';

/** A pairwise label in the screen's words ("Left better"), or null for none. */
export function describeLabel(label: PairwiseRevision | null, order: number[]): string | null {
  if (!label || !label.choice) return null;
  return describeScreenChoice(toScreenChoice(label.choice, label.shownOrder ?? order), label.strength);
}
const describeLoaded = ({ item }: Loaded) => describeLabel(item.label, item.shownOrder);

const SCREEN_BY_DIGIT: Record<number, ScreenChoice> = { 1: 'left', 2: 'right', 3: 'tie', 4: 'both_bad' };

function verdicts(choice: ScreenChoice | null): [Verdict, Verdict] {
  switch (choice) {
    case 'left':
      return ['better', 'worse'];
    case 'right':
      return ['worse', 'better'];
    case 'tie':
      return ['tie', 'tie'];
    case 'both_bad':
      return ['both_bad', 'both_bad'];
    default:
      return [null, null];
  }
}

export function CompareScreen({ project, itemId, view }: { project: string; itemId?: number; view?: string }) {
  const { annotator, keysEnabled, countLabelWrite, navigate, prelabelMode, scoresVersion } = useShell();
  const stopAhead = useRef<() => void>(() => undefined);
  useEffect(() => () => stopAhead.current(), []);
  const letters = useRef({ left: 'A', right: 'B' });
  const loop = useLabelingLoop({
    project,
    annotator,
    task: 'pairwise',
    startItemId: itemId,
    view,
    countWrite: countLabelWrite,
    describe: describeLoaded,
    notes: { sideName: (letter) => (letter === letters.current.left ? 'Left' : letter === letters.current.right ? 'Right' : letter) },
    prelabels: { version: scoresVersion },
    onPrefetched: (next) => {
      // The next pair's Markdown is rendered while this one is read, so its key parses nothing (ahead.ts).
      stopAhead.current();
      stopAhead.current = prepareAhead(compareTexts(next));
    },
  });
  const { item, phase, outbox, notes } = loop;
  const notice = outbox.status;
  const unsaved = outbox.unsaved;
  // An item of another shape asked for here by its address (a ranking, a single response) opens on its own
  // screen, as Rank and Verdict send a pair here: Compare would show two of its responses and refuse to save.
  useEffect(() => {
    if (phase === 'elsewhere' && loop.elsewhere) navigate({ name: screenFor(loop.elsewhere.responses.length), project, itemId: loop.elsewhere.id }, true);
  }, [phase, loop.elsewhere, navigate, project]);
  const leftLetter = item ? responseLetter(item.shownOrder[0]!) : 'A';
  const rightLetter = item ? responseLetter(item.shownOrder[1]!) : 'B';
  letters.current = { left: leftLetter, right: rightLetter };
  const { ratings, critiques } = notes;
  const leftCritique = useRef<HTMLTextAreaElement>(null);
  const rightCritique = useRef<HTMLTextAreaElement>(null);
  const [slight, setSlight] = useState(false);
  const [folded, setFolded] = useState(true);
  const [revealSource, setRevealSource] = useState(false);
  // The same functions from render to render: the item bar and the prompt are memoised.
  const showSourceNow = useCallback(() => setRevealSource(true), []);
  const toggleFold = useCallback(() => setFolded((v) => !v), []);
  const [reveal, setReveal] = useState<Reveal | null>(null);
  const rationaleBox = useRef<HTMLTextAreaElement>(null);
  const reading = useReading(item?.id);
  // Until the project's setting is known, behave as blind: never show a pre-label that might anchor.
  const mode = prelabelMode ?? 'blind';

  // A new item opens folded, its source label hidden. Set only when not so already: a state set to what it
  // holds still renders the screen again right after a key's render (React's bail-out comes too late).
  const shownState = useRef({ revealSource, folded });
  shownState.current = { revealSource, folded };
  useEffect(() => {
    if (shownState.current.revealSource) setRevealSource(false);
    if (!shownState.current.folded) setFolded(true);
  }, [item?.id]);

  const pre = loop.prelabels;
  const loaded = item && pre?.itemId === item.id ? pre : null;
  const prelabels = loaded?.data ?? null;
  const hasModels = Boolean(prelabels && prelabels.models.length > 0);
  const labeled = Boolean(item?.label?.choice);
  // Blind: only while this annotator has a label on the item. An undo returns it to blind: the votes
  // hide again and the next label is stored as made without them. Assist: up front.
  const showPrelabels = hasModels && (mode === 'assist' || labeled);
  const suggested = mode === 'assist' && item ? suggestion(prelabels, item.shownOrder) : null;

  const { judge, loadPrelabels, peekPrelabels } = loop;
  const sheetJudge = item ? { loads: notes.judges, itemId: item.id, mode } : undefined;
  const choose = useCallback(
    (choice: ScreenChoice, strength: Strength | null) => {
      const on = item;
      const effective: Strength | null = choice === 'left' || choice === 'right' ? (strength ?? 2) : null;
      const words = describeScreenChoice(choice, effective);
      const saved = on ? judge({ choice: toSourceChoice(choice, on.shownOrder), strength: effective }, words, showPrelabels) : false;
      setSlight(false);
      if (!saved || !on) return;
      if (mode !== 'blind') {
        setReveal(null);
        return;
      }
      const id = on.id;
      // Loaded with the item as a rule: then the line says the votes in the key's own render.
      const ready = peekPrelabels(id) ?? null;
      setReveal({
        itemId: id,
        itemNumber: on.position,
        choice: toSourceChoice(choice, on.shownOrder),
        words,
        order: on.shownOrder,
        loaded: ready,
      });
      if (ready) return;
      void loadPrelabels(id).then((result) => {
        setReveal((r) => (r && r.itemId === id ? { ...r, loaded: result } : r));
      });
    },
    [judge, item, showPrelabels, mode, loadPrelabels, peekPrelabels],
  );

  const accept = useCallback(
    (strength: Strength | null) => {
      if (!suggested) return;
      choose(suggested.screen === 'tie' ? 'tie' : suggested.screen, suggested.screen === 'tie' ? null : strength);
    },
    [suggested, choose],
  );

  /** Ctrl+Z: the last thing done here, a rating or a choice (ratings of an item no longer shown are passed over). */
  const { undo: undoLoop, go } = loop;
  const undo = useCallback(() => {
    if (undoLoop() === 'judgement') setReveal(null);
  }, [undoLoop]);

  /** → : on to the next item, unless a required criterion started here still has no value. */
  const goNext = useCallback(() => void go('next'), [go]);
  const goPrevious = useCallback(() => void go('previous'), [go]);

  // Rating mode (Tab enters it, Esc leaves) sees each key first: while a criterion has the focus, its keys
  // are the ratings' and no digit chooses, no letter leaves the screen.
  useGlobalKeys((event) => void ratings.handleKey(event), keysEnabled, true);

  useGlobalKeys((event) => {
    const shared = loopKey(event, {
      undo,
      next: goNext,
      previous: goPrevious,
      rationale: () => rationaleBox.current?.focus(),
      fold: toggleFold,
      page: (direction) => reading.scrollPage(direction),
      leaveView: view ? () => navigate({ name: 'compare', project }) : undefined,
    });
    if (shared) return;
    const digit = digitOf(event);
    if (digit !== null && SCREEN_BY_DIGIT[digit]) {
      event.preventDefault();
      const screen = SCREEN_BY_DIGIT[digit]!;
      const strength: Strength | null = event.altKey || slight ? 1 : event.shiftKey ? 3 : null;
      choose(screen, strength);
      return;
    }
    if (event.altKey) return;
    switch (event.key) {
      case 'k':
      case 'K':
        if (critiques.ready) {
          event.preventDefault();
          (event.shiftKey ? rightCritique : leftCritique).current?.focus();
        }
        break;
      case 's':
      case 'S':
        setSlight((v) => !v);
        break;
      case 'v':
        setRevealSource((v) => !v);
        break;
      case 'w':
        reading.toggleDiff();
        break;
      case 'l':
        reading.toggleSync();
        break;
      case 'a':
      case 'A':
        event.preventDefault();
        if (suggested) accept(event.shiftKey ? 3 : slight ? 1 : null);
        else if (item) {
          // Say why there is nothing to accept, rather than nothing at all.
          const why = !hasModels
            ? 'no model has scored this pair. Add one and score the project on the Models screen (m).'
            : mode === 'blind'
              ? 'pre-labels are blind here; the models’ votes show once you have chosen.'
              : 'the models have no vote on this pair.';
          outbox.say({ text: `Nothing to accept (a): ${why}`, itemNumber: item.position, state: 'info' });
        }
        break;
      case 'Escape':
        setSlight(false);
        reading.releaseColumn();
        break;
    }
  }, keysEnabled);

  const current: ScreenChoice | null = item?.label?.choice ? toScreenChoice(item.label.choice, item.shownOrder) : null;
  const [leftVerdict, rightVerdict] = verdicts(current);
  const left = item ? item.responses.find((r) => r.index === item.shownOrder[0]) ?? item.responses[item.shownOrder[0]!] : undefined;
  const right = item ? item.responses.find((r) => r.index === item.shownOrder[1]) ?? item.responses[item.shownOrder[1]!] : undefined;
  const source = item?.sourceLabel ? describeLabel(item.sourceLabel, item.shownOrder) : null;
  const showSource = Boolean(source && (current || revealSource));
  const diff = useColumnDiffs(reading.diffOn, left?.content, right?.content);
  // A tool-calling pair: the tools each run was given, shown folded under the prompt.
  const tools = useMemo(
    () => ({ left: left ? toolsOf(item?.metadata, left.index) : null, right: right ? toolsOf(item?.metadata, right.index) : null }),
    [item?.metadata, left, right],
  );
  const toolsLine = useMemo(() => (tools.left || tools.right ? <PairTools left={tools.left} right={tools.right} /> : undefined), [tools]);

  // The process models' step scores of each column: the same arrays while the pre-labels are, so the
  // columns' memo holds across renders of the screen (a save's notice, a rating).
  const leftIndex = item?.shownOrder[0];
  const rightIndex = item?.shownOrder[1];
  const steps = useMemo(
    () => (showPrelabels ? { left: columnSteps(prelabels, leftIndex), right: columnSteps(prelabels, rightIndex) } : { left: undefined, right: undefined }),
    [showPrelabels, prelabels, leftIndex, rightIndex],
  );

  const preLine = prelabelLine({ item, mode, prelabels, show: showPrelabels, labeled, reveal, loaded });

  return (
    <main className="flex min-h-0 flex-1 flex-col" data-testid="compare" data-item-id={item?.id ?? ''} data-prelabels={mode}>
      {unsaved > 0 && notice?.state === 'failed' && (
        <div className="shrink-0 bg-bad px-4 py-1.5 text-[13px] font-medium text-white dark:text-[#1a0a0d]" role="alert" data-testid="unsaved-banner">
          {unsaved === 1 ? '1 label is' : `${unsaved} labels are`} not saved yet. Arbiter keeps retrying and keeps {unsaved === 1 ? 'it' : 'them'} on
          this machine meanwhile — do not clear the browser data.
          <button className="ml-3 underline" onClick={outbox.retryNow}>
            Retry now
          </button>
        </div>
      )}

      <ViewLine project={project} screen="compare" view={view} />
      {(phase === 'loading' || phase === 'elsewhere') && <div className="p-6 text-[13px] text-muted">Loading…</div>}
      {phase === 'error' && (
        <div className="m-6 max-w-xl rounded-md border border-bad/40 bg-bad-soft p-4 text-[14px]" role="alert">
          <div className="font-semibold text-bad">Could not open the project “{project}”.</div>
          <p className="mt-1">{loop.loadError}</p>
          <button className="mt-2 text-accent underline" onClick={() => navigate({ name: 'start' })}>
            Back to projects
          </button>
        </div>
      )}
      {phase === 'empty' && <EmptyState screen="compare" project={project} navigate={navigate} />}
      {phase === 'done' && (
        <Centered testid="all-done">
          <p className="text-[15px] font-medium">Every pair in this project has your label.</p>
          <p className="text-muted">Go back over them with ← / →, or export the labels from the Datasets screen.</p>
          <div className="mt-2 flex gap-2">
            <button className="rounded border border-line-strong px-3 py-1.5 text-[13px]" onClick={goPrevious}>
              <Kbd className="mr-1">←</Kbd> Last item
            </button>
            <button className="rounded bg-accent px-3 py-1.5 text-[13px] font-medium text-white dark:text-[#111]" onClick={() => navigate({ name: 'datasets', project })}>
              Export… <Kbd className="ml-1">d</Kbd>
            </button>
          </div>
        </Centered>
      )}

      {item && phase === 'ready' && (
        <RegionMarking itemId={item.id} marks={loop.regions} onChange={loop.editRegions} enabled={keysEnabled} placeName={(p) => (p === item.shownOrder[0] ? 'Left' : 'Right')}>
          <ItemBar
            itemNumber={item.position}
            total={item.total}
            externalId={item.externalId ?? null}
            label={current ? describeLabel(item.label, item.shownOrder) : null}
            source={source}
            showSource={showSource}
            onRevealSource={showSourceNow}
            diffOn={reading.diffOn}
            onDiff={reading.toggleDiff}
            syncOn={reading.syncOn}
            onSync={reading.toggleSync}
          />
          <PromptPane prompt={item.prompt} folded={folded} onToggle={toggleFold} extra={toolsLine} />
          <div ref={reading.responses} className="min-h-0 flex-1 overflow-y-auto bg-surface wide:grid wide:grid-cols-2 wide:overflow-hidden" data-testid="responses">
            <ResponseColumn
              side="left"
              response={left}
              verdict={leftVerdict}
              steps={steps.left}
              diff={diff?.left}
              bodyRef={reading.leftBody}
              project={project}
              itemId={item.id}
              rating={ratings.cursor !== null}
              footer={
                <>
                  <RatingPanel ratings={ratings} letter={leftLetter} side="Left" first={0} judge={sheetJudge} />
                  <CritiqueBox ref={leftCritique} critiques={critiques} letter={leftLetter} side="Left" keyHint="k" showStatus />
                </>
              }
            />
            <ResponseColumn
              side="right"
              response={right}
              verdict={rightVerdict}
              steps={steps.right}
              diff={diff?.right}
              bodyRef={reading.rightBody}
              project={project}
              itemId={item.id}
              rating={ratings.cursor !== null}
              footer={
                <>
                  <RatingPanel ratings={ratings} letter={rightLetter} side="Right" first={ratings.rubric ? ratings.rubric.criteria.length : 0} judge={sheetJudge} />
                  <CritiqueBox ref={rightCritique} critiques={critiques} letter={rightLetter} side="Right" keyHint="Shift+K" />
                </>
              }
            />
          </div>
          <RatingsBar ratings={ratings} winners leftLetter={leftLetter} rightLetter={rightLetter} />
          <JudgeLine project={project} loads={notes.judges} annotator={annotator} item={item} mode={mode} labeled={labeled} critiques={critiques} />
        </RegionMarking>
      )}

      {(phase === 'ready' || phase === 'done') && (
        <DecisionBar
          ref={rationaleBox}
          current={current}
          currentStrength={item?.label?.strength ?? null}
          slight={slight}
          notice={notice}
          rationale={loop.rationale}
          disabled={!item}
          onChoose={choose}
          onSlight={() => setSlight((v) => !v)}
          onRationale={loop.editRationale}
          onRationaleDone={loop.flushRationale}
          onPrev={goPrevious}
          onNext={goNext}
          onUndo={undo}
          prelabelLine={preLine}
          suggestion={
            suggested && item ? <SuggestionButton suggestion={suggested} disabled={!item} onAccept={() => accept(slight ? 1 : null)} /> : null
          }
          onRetry={outbox.retryNow}
        />
      )}
    </main>
  );
}

