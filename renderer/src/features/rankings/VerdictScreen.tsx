// The verdict screen: items with one response, judged good (`1`) or bad (`2`) for unpaired (KTO-style)
// data. The key saves at once, through the outbox, and the next item without your verdict follows. The
// prompt is pinned above the response; the response's length is shown; a response with steps of its own
// opens on the step screen with `s`.
import { useCallback, useEffect, useRef, useState } from 'react';
import { approxTokens, contentText } from '../../../../shared/choices';
import type { Verdict } from '../../../../shared/domain';
import { ContentView } from '../../components/ContentView';
import { RegionMarking } from '../../components/images/regions/RegionMarking';
import { Kbd } from '../../components/Kbd';
import { EmptyState } from '../../components/EmptyState';
import { digitOf, scrollByPage, scrollsItself, useGlobalKeys } from '../../components/keys';
import { useShell } from '../../context';
import { parseRoute, routeHash } from '../../route';
import { PromptPane } from '../../components/PromptPane';
import { RationaleBox } from '../../components/RationaleBox';
import { BarButton, Centered, ItemLine, StatusLine, UnsavedBanner } from '../../components/screenParts';
import { screenFor } from '../../components/ScreenTabs';
import { CritiqueBox } from '../critiques/CritiqueBox';
import { RatingPanel, RatingsBar } from '../rubrics/RatingPanel';
import { OutcomeJudgeLine } from '../judges/OutcomeJudgeLine';
import { useLabelingLoop, type Loaded } from '../labeling/useLabelingLoop';
import { loopKey } from '../labeling/loopKeys';
import { ViewLine } from '../labeling/ViewLine';
import { plural } from '../../../../shared/plural';

const VERDICTS: { verdict: Verdict; key: string; icon: string; label: string; tone: string; active: string }[] = [
  { verdict: 'good', key: '1', icon: '✓', label: 'Good', tone: 'text-ok', active: 'bg-ok/12 ring-ok' },
  { verdict: 'bad', key: '2', icon: '✕', label: 'Bad', tone: 'text-bad', active: 'bg-bad-soft ring-bad' },
];

const WORDS: Record<Verdict, string> = { good: 'Good', bad: 'Bad' };
const describeLoaded = ({ mine }: Loaded) => (mine?.verdict ? WORDS[mine.verdict] : null);
const NOTES = { sideName: () => 'the response' };

export function VerdictScreen({ project, itemId, view }: { project: string; itemId?: number; view?: string }) {
  const { annotator, keysEnabled, navigate, countLabelWrite, prelabelMode } = useShell();
  const loop = useLabelingLoop({ project, annotator, task: 'verdict', startItemId: itemId, view, countWrite: countLabelWrite, describe: describeLoaded, notes: NOTES });
  const { shown, phase, outbox, notes } = loop;
  const item = shown?.item ?? null;
  const current = shown?.mine?.verdict ?? null;
  const response = item?.responses[0];
  const steps = response?.steps ?? null;
  const [folded, setFolded] = useState(true);
  const rationaleBox = useRef<HTMLTextAreaElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const critiqueBox = useRef<HTMLTextAreaElement>(null);
  const { ratings, critiques } = notes;

  useEffect(() => {
    setFolded(true);
    if (body.current) body.current.scrollTop = 0;
  }, [item?.id]);

  useEffect(() => {
    if (phase === 'elsewhere' && loop.elsewhere) navigate({ name: screenFor(loop.elsewhere.responses.length), project, itemId: loop.elsewhere.id });
  }, [phase, loop.elsewhere, navigate, project]);

  useEffect(() => {
    if (!item) return;
    const hash = routeHash({ name: 'verdict', project, itemId: item.id });
    // Only while the address is still this screen's: a save that moved on after the user left (a tab key,
    // a link) must not write this screen's address over the one they went to.
    const here = parseRoute(location.hash);
    if (location.hash !== hash && here.name === 'verdict' && here.project === project) history.replaceState(null, '', hash);
  }, [project, item]);

  const choose = useCallback(
    (verdict: Verdict) => {
      if (!item) return;
      // Required criteria first: the loop saves nothing while one has no value, and the ratings say which.
      loop.judge({ verdict }, WORDS[verdict]);
    },
    [item, loop],
  );

  const { undo } = loop;
  const goNext = useCallback(() => void loop.go('next'), [loop]);
  const goPrevious = useCallback(() => void loop.go('previous'), [loop]);

  const openSteps = useCallback(() => {
    if (!item || !steps) return;
    loop.flushRationale();
    navigate({ name: 'steps', project, itemId: item.id, response: 0 });
  }, [item, steps, loop, navigate, project]);

  // Rating mode (Tab enters it, Esc leaves) sees each key first: while a criterion has the focus, its keys
  // are the ratings' and no digit gives a verdict, no letter leaves the screen.
  useGlobalKeys((event) => void ratings.handleKey(event), keysEnabled, true);

  useGlobalKeys((event) => {
    const shared = loopKey(event, {
      undo,
      next: goNext,
      previous: goPrevious,
      rationale: () => rationaleBox.current?.focus(),
      fold: () => setFolded((v) => !v),
      page: (direction) => {
        if (scrollsItself(body.current)) scrollByPage(body.current, direction);
      },
      leaveView: view ? () => navigate({ name: 'verdict', project }) : undefined,
    });
    if (shared || event.altKey) return;
    const digit = digitOf(event);
    if (digit !== null && !event.shiftKey && (digit === 1 || digit === 2)) {
      event.preventDefault();
      choose(digit === 1 ? 'good' : 'bad');
      return;
    }
    switch (event.key) {
      case 'k':
        if (critiques.ready) {
          event.preventDefault();
          critiqueBox.current?.focus();
        }
        break;
      case 's':
        if (steps) {
          event.preventDefault();
          openSteps();
        }
        break;
    }
  }, keysEnabled);

  const text = response ? contentText(response.content) : '';

  return (
    <main className="flex min-h-0 flex-1 flex-col" data-testid="verdict-screen" data-item-id={item?.id ?? ''}>
      <UnsavedBanner unsaved={outbox.unsaved} status={outbox.status} onRetry={outbox.retryNow} what="verdict" />
      <ViewLine project={project} screen="verdict" view={view} />
      {(phase === 'loading' || phase === 'elsewhere') && <div className="p-6 text-[13px] text-muted">Loading…</div>}
      {phase === 'error' && (
        <Centered>
          <p className="font-semibold text-bad">Could not open the project “{project}”.</p>
          <p>{loop.loadError}</p>
        </Centered>
      )}
      {phase === 'empty' && <EmptyState screen="verdict" project={project} navigate={navigate} />}
      {phase === 'done' && (
        <Centered testid="all-done">
          <p className="text-[15px] font-medium">Every single-response item has your verdict.</p>
          <p className="text-muted">Go back over them with ← / →, or export from the Datasets screen.</p>
          <div className="mt-2 flex gap-2">
            <button className="rounded border border-line-strong px-3 py-1.5 text-[13px]" onClick={() => void loop.go('previous')}>
              <Kbd className="mr-1">←</Kbd> Last item
            </button>
            <button className="rounded bg-accent px-3 py-1.5 text-[13px] font-medium text-white dark:text-[#111]" onClick={() => navigate({ name: 'datasets', project })}>
              Export… <Kbd className="ml-1">d</Kbd>
            </button>
          </div>
        </Centered>
      )}

      {item && response && phase === 'ready' && (
        <RegionMarking itemId={item.id} marks={loop.regions} onChange={loop.editRegions} enabled={keysEnabled} placeName={() => 'the response'}>
          <ItemLine itemNumber={item.position} total={item.total} externalId={item.externalId}>
            {current && (
              <span className="text-fg" data-testid="current-verdict" data-verdict={current}>
                your verdict: <b className={`font-semibold ${current === 'good' ? 'text-ok' : 'text-bad'}`}>{WORDS[current]}</b>
              </span>
            )}
          </ItemLine>
          <PromptPane prompt={item.prompt} folded={folded} onToggle={() => setFolded((v) => !v)} />
          <article
            className={`flex min-h-0 flex-1 flex-col bg-surface ${current === 'good' ? 'shadow-[inset_3px_0_0_var(--ok)]' : current === 'bad' ? 'shadow-[inset_3px_0_0_var(--bad)]' : ''}`}
            data-testid="verdict-response"
            aria-label="Response"
          >
            <div ref={body} tabIndex={0} aria-label="Response text" className="min-h-0 flex-1 overflow-y-auto outline-none focus-visible:shadow-[inset_0_0_0_2px_var(--accent)]" data-testid="verdict-body">
              {/* Laid out as the prompt is: a label column, then the text, so the two read down one edge. */}
              <div className="mx-auto flex max-w-[1800px] gap-3 px-4 pt-3 pb-6">
                <div className="w-16 shrink-0 pt-0.5 text-[11px] font-semibold tracking-wide text-faint uppercase">Response</div>
                <div className="min-w-0 flex-1">
                  <div className="mb-2.5 flex flex-wrap items-center gap-x-3 gap-y-1 text-[12px] whitespace-nowrap">
                    <span className="tabular-nums text-faint" data-testid="verdict-length">
                      {plural(text.length, 'char')} · ~{plural(approxTokens(text), 'token')}
                    </span>
                    {current && (
                      <span className={`rounded px-1.5 py-px font-semibold ${current === 'good' ? 'bg-ok/12 text-ok' : 'bg-bad-soft text-bad'}`} data-testid="verdict-mark">
                        {current === 'good' ? '✓ good' : '✕ bad'}
                      </span>
                    )}
                    {steps && (
                      <button
                        className="flex items-center gap-1 rounded border border-line-strong px-1.5 py-px text-muted hover:bg-surface-2 hover:text-fg"
                        onClick={openSteps}
                        title="This response has steps of its own: rate them one by one on the step screen (s)"
                        data-testid="open-steps"
                      >
                        {plural(steps.length, 'step')}: rate them one by one <Kbd>s</Kbd>
                      </button>
                    )}
                  </div>
                  <ContentView content={response.content} place={response.index} />
                </div>
              </div>
            </div>
            <div className="shrink-0 overflow-y-auto md:max-h-[52%]" data-testid="response-footer">
              <div className="max-w-[960px] pl-[76px] max-md:pl-0">
                <RatingPanel ratings={ratings} letter="A" side="Response" first={0} judge={{ loads: notes.judges, itemId: item.id, mode: prelabelMode ?? 'blind' }} />
                <CritiqueBox ref={critiqueBox} critiques={critiques} letter="A" side="Response" keyHint="k" showStatus />
              </div>
            </div>
          </article>
          <RatingsBar ratings={ratings} winners={false} />
          <OutcomeJudgeLine loads={notes.judges} itemId={item.id} response={0} mode={prelabelMode ?? 'blind'} labeled={current !== null} />
        </RegionMarking>
      )}

      {(phase === 'ready' || phase === 'done') && (
        <footer className="shrink-0 border-t border-line bg-surface px-3 py-2" data-testid="verdict-bar">
          <div className="mx-auto flex max-w-[1800px] flex-wrap items-center gap-2">
            <div className="flex items-center gap-1.5" role="group" aria-label="Verdict">
              {VERDICTS.map((v) => {
                const active = current === v.verdict;
                return (
                  <button
                    key={v.verdict}
                    disabled={!item}
                    onClick={() => choose(v.verdict)}
                    className={`flex h-8 items-center gap-2 rounded-md border px-3 text-[13px] disabled:opacity-50 ${
                      active ? `${v.active} border-transparent font-semibold ring-2` : 'border-line-strong bg-surface hover:bg-surface-2'
                    }`}
                    aria-pressed={active}
                    data-testid={`verdict-${v.verdict}`}
                  >
                    <Kbd>{v.key}</Kbd>
                    <span className={`${v.tone} font-bold`} aria-hidden>
                      {v.icon}
                    </span>
                    <span>{v.label}</span>
                  </button>
                );
              })}
            </div>
            <div className="ml-auto flex items-center gap-1.5">
              <BarButton onClick={undo} title="Undo the last verdict or rating (Ctrl+Z)" testid="undo">
                <Kbd>Ctrl Z</Kbd> Undo
              </BarButton>
              <BarButton onClick={goPrevious} title="Previous single-response item (←)" testid="prev">
                <Kbd>←</Kbd> Prev
              </BarButton>
              <BarButton onClick={goNext} title="Next single-response item (→)" testid="next">
                Next <Kbd>→</Kbd>
              </BarButton>
            </div>
          </div>
          <div className="mx-auto mt-2 flex max-w-[1800px] flex-wrap items-start gap-3">
            <RationaleBox ref={rationaleBox} value={loop.rationale} onChange={loop.editRationale} onDone={loop.flushRationale} />
            <div className="w-full md:w-[460px] md:shrink-0">
              <StatusLine status={outbox.status} onRetry={outbox.retryNow} hint="1 good · 2 bad: it saves at once and the next response follows." />
            </div>
          </div>
        </footer>
      )}
    </main>
  );
}
