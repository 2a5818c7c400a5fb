// The ranking screen: items with three or more responses, shown side by side in this annotator's
// shuffled order and named by position (1, 2, 3 …). Press the number of the best, then the next; `=`
// ties the next pick with the one before; Backspace takes the last pick back; the last response left is
// placed by itself; Enter saves (through the outbox) and the next unranked item follows. Drag works too.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Kbd } from '../../components/Kbd';
import { EmptyState } from '../../components/EmptyState';
import { digitOf, useGlobalKeys } from '../../components/keys';
import { useShell } from '../../context';
import { parseRoute, routeHash } from '../../route';
import { PromptPane } from '../../components/PromptPane';
import { Centered, ItemLine, UnsavedBanner } from '../../components/screenParts';
import { RankBar, type DropTarget } from './RankBar';
import { RankCards, useCardLayout, type CardPlace } from './RankCards';
import { RegionMarking } from '../../components/images/regions/RegionMarking';
import {
  allPicks,
  describeRanking,
  groupsOf,
  joinGroup,
  ordinal,
  picksOf,
  placeAtGap,
  placement,
  placesOf,
  positionOf,
  sameGroups,
  toggleTie,
  unplace,
  type Pick,
} from './ranking';
import { useLabelingLoop, type Loaded } from '../labeling/useLabelingLoop';
import { loopKey } from '../labeling/loopKeys';
import { ViewLine } from '../labeling/ViewLine';
import { ModelRanking } from './ModelRanking';
import { screenFor } from '../../components/ScreenTabs';

/** A control of this screen that has the focus (reached with Tab: a click does not focus them) answers Enter itself. */
const isControl = (target: EventTarget | null) => target instanceof HTMLElement && target.closest('[data-testid="ranking-screen"] :is(button, a[href])') !== null;

const describeLoaded = ({ item, mine }: Loaded) => (mine?.ranking ? describeRanking(mine.ranking, item.shownOrder) : null);

export function RankingScreen({ project, itemId, view }: { project: string; itemId?: number; view?: string }) {
  const { annotator, keysEnabled, navigate, countLabelWrite, prelabelMode, scoresVersion } = useShell();
  const loop = useLabelingLoop({ project, annotator, task: 'ranking', startItemId: itemId, view, countWrite: countLabelWrite, describe: describeLoaded });
  const { shown, phase, outbox } = loop;
  const item = shown?.item ?? null;
  const saved = shown?.mine?.ranking ?? null;
  const [picks, setPicks] = useState<Pick[]>([]);
  const [tieArmed, setTieArmed] = useState(false);
  const [folded, setFolded] = useState(true);
  const rationaleBox = useRef<HTMLTextAreaElement>(null);
  const layout = useCardLayout(item?.responses.length ?? 0, item?.id);
  const count = item?.responses.length ?? 0;
  const order = useMemo(() => item?.shownOrder ?? [], [item]);

  // A new item starts from this annotator's saved ranking of it, or from nothing.
  useEffect(() => {
    setPicks(picksOf(saved));
    setTieArmed(false);
    setFolded(true);
  }, [shown, saved]);

  // An item of another shape asked for by its address opens on its own screen.
  useEffect(() => {
    if (phase === 'elsewhere' && loop.elsewhere) navigate({ name: screenFor(loop.elsewhere.responses.length), project, itemId: loop.elsewhere.id });
  }, [phase, loop.elsewhere, navigate, project]);

  // The address names the item, so a reload finds it again.
  useEffect(() => {
    if (!item) return;
    const hash = routeHash({ name: 'rank', project, itemId: item.id });
    // Only while the address is still this screen's: a save that moved on after the user left (a tab key,
    // a link) must not write this screen's address over the one they went to.
    const here = parseRoute(location.hash);
    if (location.hash !== hash && here.name === 'rank' && here.project === project) history.replaceState(null, '', hash);
  }, [project, item]);

  const state = placement(picks, count, tieArmed);
  const effective = allPicks(state);
  const groups = groupsOf(effective);
  const dirty = state.complete && (!sameGroups(groups, saved) || (shown?.mine?.rationale ?? '') !== loop.rationale);
  const places = useMemo(() => {
    const map = new Map<number, CardPlace>();
    for (const [response, place] of placesOf(effective)) map.set(response, { ...place, implied: response === state.implied?.response });
    return map;
  }, [effective, state.implied]);
  const placed = new Set(effective.map((p) => p.response));
  const unplaced = order.filter((r) => !placed.has(r));
  const nextPlace = state.complete ? null : tieArmed ? `tied ${ordinal(groupsOf(picks).length)}` : ordinal(groupsOf(picks).length + 1);

  const say = outbox.say;
  const info = useCallback((text: string) => say({ text, itemNumber: null, state: 'info' }), [say]);

  const pick = useCallback(
    (response: number) => {
      if (!item) return;
      const at = positionOf(item.shownOrder, response);
      const already = picks.find((p) => p.response === response);
      if (already) {
        const place = placesOf(picks).get(response)!.place;
        info(`Response ${at} is already ${ordinal(place)} — Backspace takes picks back`);
        return;
      }
      if (state.complete && state.implied === null) {
        info('Every response is placed — Enter saves, Backspace takes the last pick back');
        return;
      }
      setPicks([...picks, { response, tied: tieArmed && picks.length > 0 }]);
      setTieArmed(false);
    },
    [item, picks, tieArmed, state.complete, state.implied, info],
  );

  const tie = useCallback(() => {
    if (picks.length === 0) {
      info('= ties the next pick with the one before: pick the best first');
      return;
    }
    if (state.complete && state.implied === null) {
      info('Every response is placed — take the last pick back first (Backspace)');
      return;
    }
    setTieArmed((v) => !v);
  }, [picks.length, state.complete, state.implied, info]);

  const back = useCallback(
    (all: boolean) => {
      if (tieArmed && !all) return setTieArmed(false);
      setTieArmed(false);
      setPicks(all ? [] : picks.slice(0, -1));
    },
    [tieArmed, picks],
  );

  const save = useCallback(() => {
    if (!item) return;
    if (!state.complete) {
      const left = count - effective.length;
      info(`Place every response first: ${left} ${left === 1 ? 'is' : 'are'} not placed`);
      return;
    }
    if (!dirty) {
      void loop.go('next');
      return;
    }
    const ranking = groupsOf(allPicks(state));
    // The models' view is on screen before the judgement in assist mode: saved with the revision.
    loop.judge({ ranking }, `Ranked ${describeRanking(ranking, item.shownOrder)}`, prelabelMode === 'assist');
  }, [item, state, count, effective.length, dirty, loop, info, prelabelMode]);

  const drop = useCallback(
    (response: number, target: DropTarget) => {
      setTieArmed(false);
      if (target.kind === 'unplaced') setPicks(unplace(picks, response));
      else if (target.kind === 'gap') setPicks(placeAtGap(effective, response, target.gap));
      else setPicks(joinGroup(effective, response, groupsOf(effective)[target.group]?.[0] ?? response));
    },
    [picks, effective],
  );

  useGlobalKeys((event) => {
    const shared = loopKey(event, {
      undo: loop.undo,
      next: () => void loop.go('next'),
      previous: () => void loop.go('previous'),
      rationale: () => rationaleBox.current?.focus(),
      fold: () => setFolded((v) => !v),
      page: (direction) => layout.scrollPage(direction),
      leaveView: view ? () => navigate({ name: 'rank', project }) : undefined,
    });
    if (shared || event.altKey || !item) return;
    const digit = digitOf(event);
    if (digit !== null && digit >= 1 && !event.shiftKey) {
      event.preventDefault();
      const response = item.shownOrder[digit - 1];
      if (response === undefined) info(`There is no response ${digit}: this item has ${count}`);
      else pick(response);
      return;
    }
    switch (event.key) {
      case '=':
      case '+':
        event.preventDefault();
        tie();
        break;
      case 'Backspace':
        event.preventDefault();
        back(event.shiftKey);
        break;
      case 'Enter':
        // A button with the focus answers Enter itself.
        if (isControl(event.target)) return;
        event.preventDefault();
        save();
        break;
      case 'Escape':
        if (document.activeElement instanceof HTMLElement && document.activeElement !== document.body) document.activeElement.blur();
        break;
    }
  }, keysEnabled);

  return (
    <main className="flex min-h-0 flex-1 flex-col" data-testid="ranking-screen" data-item-id={item?.id ?? ''}>
      <UnsavedBanner unsaved={outbox.unsaved} status={outbox.status} onRetry={outbox.retryNow} what="ranking" />
      <ViewLine project={project} screen="rank" view={view} />
      {(phase === 'loading' || phase === 'elsewhere') && <div className="p-6 text-[13px] text-muted">Loading…</div>}
      {phase === 'error' && (
        <Centered>
          <p className="font-semibold text-bad">Could not open the project “{project}”.</p>
          <p>{loop.loadError}</p>
          <button className="mt-2 text-accent underline" onClick={() => navigate({ name: 'start' })}>
            Back to projects
          </button>
        </Centered>
      )}
      {phase === 'empty' && <EmptyState screen="rank" project={project} navigate={navigate} />}
      {phase === 'done' && (
        <Centered testid="all-done">
          <p className="text-[15px] font-medium">Every item with three or more responses has your ranking.</p>
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

      {item && phase === 'ready' && (
        <RegionMarking itemId={item.id} marks={loop.regions} onChange={loop.editRegions} enabled={keysEnabled} placeName={(p) => `response ${order.indexOf(p as number) + 1}`}>
          <ItemLine itemNumber={item.position} total={item.total} externalId={item.externalId}>
            <span className="h-4 border-l border-line" aria-hidden />
            <span data-testid="rank-progress">
              {count} responses · <b className="font-semibold text-fg tabular-nums">{effective.length}</b> of {count} placed
            </span>
            {saved && (
              <span className="truncate text-fg" data-testid="current-ranking">
                your ranking: <b className="font-semibold">{describeRanking(saved, order)}</b>
                {!sameGroups(saved, groups) && <span className="ml-1 font-normal text-faint">(changing)</span>}
              </span>
            )}
            <ModelRanking
              project={project}
              itemId={item.id}
              order={order}
              mode={prelabelMode}
              scoresVersion={scoresVersion}
              complete={state.complete || (saved !== null && sameGroups(saved, groups))}
              best={groups[0]?.length === 1 ? positionOf(order, groups[0][0]!) : null}
            />
            <span className="ml-auto hidden text-faint lg:inline" title="The numbers are places on your screen (shuffled per annotator). Exports name responses by the file’s order: A, B, C …">
              numbers are screen positions, not the file’s order
            </span>
          </ItemLine>
          <PromptPane prompt={item.prompt} folded={folded} onToggle={() => setFolded((v) => !v)} />
          <RankCards responses={item.responses} order={order} places={places} layout={layout} onPick={pick} nextPlace={nextPlace} />
        </RegionMarking>
      )}

      {(phase === 'ready' || phase === 'done') && (
        <RankBar
          ref={rationaleBox}
          order={order}
          picks={item ? effective : []}
          implied={state.implied?.response ?? null}
          unplaced={item ? unplaced : []}
          tieArmed={tieArmed}
          complete={Boolean(item) && state.complete}
          dirty={dirty}
          saved={saved !== null}
          status={outbox.status}
          rationale={loop.rationale}
          onRationale={loop.editRationale}
          onRationaleDone={loop.flushRationale}
          onDrop={drop}
          onToggleTie={(index) => {
            setTieArmed(false);
            setPicks(toggleTie(effective, index));
          }}
          onTie={tie}
          onBack={() => back(false)}
          onSave={save}
          onPrev={() => void loop.go('previous')}
          onNext={() => void loop.go('next')}
          onUndo={loop.undo}
          onRetry={outbox.retryNow}
        />
      )}
    </main>
  );
}
