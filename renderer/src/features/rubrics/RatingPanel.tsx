// Rubric ratings on screen: the criteria under each response (RatingPanel), and the bar under the
// responses (RatingsBar) that names the rubric version being rated under, holds a pair's winner per
// criterion, and says what a required criterion still lacks. Folded, a response's ratings are one line
// of values; open (while the focus is in them), a row is one line: the criterion's name and marks
// (required, pitfall), its scale as buttons that show their keys, and "n/a", and the row with the focus
// shows its description. A click on a value button rates without taking the keys.
import type { ReactNode } from 'react';
import type { Criterion, RatingValue } from '../../../../shared/rubric';
import { Kbd } from '../../components/Kbd';
import { Markdown } from '../../components/Markdown';
import { SaveMark } from '../../components/SaveMark';
import { keepFocus } from '../../components/screenParts';
import { groupsOf, isPitfall, walkOrder } from './criteria';
import { useItemCriteriaEditor } from './useItemCriteriaEditor';
import { LIKERT_BUTTONS_MAX, scaleKeyHint, scaleOptions, valueText } from './scaleKeys';
import type { Ratings, Winner } from './useRatings';
import { CriterionJudge } from '../judges/CriterionJudge';
import { judgeOf, useItemJudges, type JudgeLoads } from '../judges/judgeLoads';
import { letterIndex } from '../../../../shared/letters';

/** The rubric judge's pre-labels beside the annotator's ratings (features/judges/CriterionJudge.tsx). */
export interface SheetJudge {
  loads: JudgeLoads;
  itemId: number;
  mode: 'blind' | 'assist';
}

function Marks({ criterion }: { criterion: Criterion }) {
  return (
    <>
      {criterion.required && (
        <span className="text-[11px] text-bad" title="Required: the item cannot be labeled without it (n/a counts)" aria-label="required">
          *
        </span>
      )}
      {isPitfall(criterion) && (
        <span className="rounded-sm bg-bad-soft px-1 text-[10.5px] font-medium text-bad" title={`A pitfall: weight ${criterion.weight}`}>
          pitfall
        </span>
      )}
    </>
  );
}

function ValueButton({ active, onClick, children, keyHint, title, testid, wide }: { active: boolean; onClick(): void; children: ReactNode; keyHint?: string; title?: string; testid: string; wide?: boolean }) {
  return (
    <button
      type="button"
      tabIndex={-1}
      onMouseDown={keepFocus}
      onClick={onClick}
      title={title}
      aria-pressed={active}
      data-testid={testid}
      className={`flex h-6 items-center gap-1 rounded border px-1.5 text-[12px] leading-none whitespace-nowrap ${wide ? '' : 'min-w-6 justify-center'} ${
        active ? 'border-accent bg-accent font-semibold text-white dark:text-[#111]' : 'border-line bg-surface text-fg hover:border-line-strong hover:bg-surface-2'
      }`}
    >
      {keyHint && keyHint !== children && <span className={`font-mono text-[10px] ${active ? 'opacity-80' : 'text-faint'}`}>{keyHint}</span>}
      <span>{children}</span>
    </button>
  );
}

function ScaleControl({ criterion, value, onRate, testid }: { criterion: Criterion; value: RatingValue | undefined; onRate(v: RatingValue | undefined): void; testid: string }) {
  const options = scaleOptions(criterion.scale);
  const many = criterion.scale.type === 'likert' && options.length > LIKERT_BUTTONS_MAX;
  return (
    <div className="flex min-w-0 flex-1 flex-wrap items-center justify-end gap-1" role="group" aria-label={`${criterion.key} value`}>
      {many && criterion.scale.type === 'likert' ? (
        <input
          type="number"
          min={criterion.scale.min}
          max={criterion.scale.max}
          value={typeof value === 'number' ? value : ''}
          onChange={(e) => onRate(e.target.value === '' ? undefined : Number(e.target.value))}
          className="h-6 w-16 rounded border border-line-strong bg-surface px-1 text-right text-[12px] tabular-nums"
          aria-label={`${criterion.key}, ${criterion.scale.min} to ${criterion.scale.max}`}
          data-testid={`${testid}-number`}
        />
      ) : (
        options.map((o) => (
          <ValueButton
            key={String(o.value)}
            active={value === o.value}
            onClick={() => onRate(value === o.value ? undefined : o.value)}
            keyHint={criterion.scale.type === 'likert' ? undefined : o.key}
            title={o.key ? `${o.label} (key ${o.key})` : o.label}
            testid={`${testid}-value`}
            wide={criterion.scale.type !== 'likert'}
          >
            {o.label}
          </ValueButton>
        ))
      )}
      <ValueButton active={value === null} onClick={() => onRate(value === null ? undefined : null)} title="Not applicable (key - or x)" testid={`${testid}-na`} wide>
        n/a
      </ValueButton>
    </div>
  );
}

/** Categories longer than this show only the chosen one until their row has the focus. */
const FOLD_CATEGORIES = 5;

/**
 * The criteria under one response. While the focus is elsewhere they fold into one line of values (the
 * text keeps the room); Tab (or a click on a value) opens them. `first` is the index of the response's
 * first stop in Tab order.
 */
export function RatingPanel({ ratings, letter, side, first, judge }: { ratings: Ratings; letter: string; side: string; first: number; judge?: SheetJudge }) {
  const judged = judgeOf(useItemJudges(judge?.loads, judge?.itemId ?? null), 'rubric', letterIndex(letter));
  const rubric = ratings.rubric;
  if (!rubric) return null;
  const values = ratings.state.ratings[letter] ?? {};
  const missing = new Set(ratings.notice ? (ratings.missing.find((m) => m.letter === letter)?.keys ?? []) : []);
  const groups = groupsOf(rubric.criteria);
  const count = rubric.criteria.length;
  const open = ratings.cursor !== null && ratings.cursor >= first && ratings.cursor < first + count;
  const testid = `ratings-${side.toLowerCase()}`;
  let index = first;
  if (!open) {
    const rated = rubric.criteria.filter((c) => values[c.key] !== undefined).length;
    return (
      <section className="shrink-0 border-t border-line bg-bg/60 px-3 py-1.5" aria-label={`Ratings of the ${side} response`} data-testid={testid} data-open="false">
        <div className="flex flex-wrap items-baseline gap-x-2.5 gap-y-0.5 text-[12.5px]">
          {groups.map((group, g) => (
            <span key={group.title ?? 'all'} className="contents">
              {g > 0 && <span className="text-line-strong" aria-hidden>|</span>}
              {group.criteria.map((c) => {
                const stop = index++;
                const value = values[c.key];
                return (
                  <button
                    key={c.key}
                    type="button"
                    tabIndex={-1}
                    onMouseDown={keepFocus}
                    onClick={() => ratings.setCursor(stop)}
                    className={`rounded px-1 py-px whitespace-nowrap hover:bg-surface-2 ${missing.has(c.key) ? 'bg-bad-soft ring-1 ring-bad/60' : ''}`}
                    title={`Rate ${c.key}`}
                    data-testid="criterion-summary"
                    data-key={c.key}
                  >
                    <span className="text-muted">{c.key}</span>
                    {c.required && value === undefined && <span className="text-bad">*</span>}{' '}
                    {value === undefined ? <span className="text-faint">—</span> : <b className="font-semibold text-fg">{valueText(c.scale, value)}</b>}
                    {judge && (
                      <>
                        {' '}
                        <CriterionJudge result={judged} criterion={c.key} format={(v) => valueText(c.scale, v)} mode={judge.mode} rated={value !== undefined} focused={false} folded />
                      </>
                    )}
                  </button>
                );
              })}
            </span>
          ))}
          {rated === 0 && (
            <span className="ml-auto text-[12px] text-faint">
              <Kbd>Tab</Kbd> to rate
            </span>
          )}
        </div>
      </section>
    );
  }
  return (
    <section className="shrink-0 border-t border-line bg-bg/60 px-2 py-1" aria-label={`Ratings of the ${side} response`} data-testid={testid} data-open="true">
      {groups.map((group) => (
        <div key={group.title ?? 'all'} className={group.title === 'Safety' ? 'mt-0.5 border-t border-dashed border-line pt-0.5' : ''} data-group={group.title ?? ''}>
          {group.title && <div className="px-1.5 pt-0.5 text-[10.5px] font-semibold tracking-wide text-faint uppercase">{group.title}</div>}
          {group.criteria.map((c) => {
            const stop = index++;
            const focused = ratings.cursor === stop;
            const value = values[c.key];
            const pending = focused ? ratings.pendingDigits : null;
            const folded = !focused && c.scale.type === 'categories' && c.scale.values.length > FOLD_CATEGORIES;
            return (
              <div
                key={c.key}
                tabIndex={-1}
                data-stop={stop}
                data-testid="criterion"
                data-letter={letter}
                data-key={c.key}
                data-value={value === undefined ? '' : value === null ? 'n/a' : String(value)}
                data-focused={focused ? 'true' : undefined}
                className={`rounded px-1.5 outline-none ${focused ? 'bg-accent-soft/70 shadow-[inset_2px_0_0_var(--accent)]' : ''} ${missing.has(c.key) ? 'bg-bad-soft shadow-[inset_2px_0_0_var(--bad)]' : ''}`}
              >
                <div className="flex items-start gap-2 py-[3px]">
                  <div className="flex w-44 shrink-0 items-center gap-1.5 pt-[3px]">
                    {c.hotkey && <Kbd className="shrink-0">{c.hotkey}</Kbd>}
                    <span className={`truncate text-[13px] ${focused ? 'font-semibold text-fg' : value === undefined ? 'text-muted' : 'text-fg'}`} title={c.key}>
                      {c.key}
                    </span>
                    <Marks criterion={c} />
                    {pending && (
                      <span className="font-mono text-[12px] text-accent" data-testid="pending-digits">
                        {pending}…
                      </span>
                    )}
                  </div>
                  {folded ? (
                    <div className="flex flex-1 items-center justify-end gap-1.5 pt-[3px] text-[12.5px]">
                      {value === undefined ? <span className="text-faint">—</span> : <b className="font-semibold">{valueText(c.scale, value)}</b>}
                      <button type="button" tabIndex={-1} onMouseDown={keepFocus} onClick={() => ratings.setCursor(stop)} className="text-faint hover:text-accent">
                        {c.scale.type === 'categories' ? c.scale.values.length : 0} options
                      </button>
                    </div>
                  ) : (
                    <ScaleControl criterion={c} value={value} onRate={(v) => ratings.rate(letter, c.key, v)} testid={`rate-${side.toLowerCase()}-${c.key}`} />
                  )}
                </div>
                {judge && <CriterionJudge result={judged} criterion={c.key} format={(v) => valueText(c.scale, v)} mode={judge.mode} rated={value !== undefined} focused={focused} />}
                {focused && (
                  <div className="mb-1 ml-0.5 pl-1 text-muted" data-testid="criterion-description">
                    {c.description ? <Markdown text={c.description} className="md-small" /> : <p className="text-[12.5px] text-faint italic">No description.</p>}
                    <p className="mt-0.5 text-[11.5px] text-faint">
                      {scaleKeyHint(c.scale)} · - n/a · ⌫ clear · Tab next · Esc done
                      {c.weight !== 1 && <> · weight {c.weight}</>}
                    </p>
                  </div>
                )}
              </div>
            );
          })}
        </div>
      ))}
    </section>
  );
}

const SIDES = {
  left: { icon: '◀', label: 'Left', tone: 'text-side-l', active: 'bg-side-l-soft text-side-l ring-1 ring-side-l font-semibold' },
  right: { icon: '▶', label: 'Right', tone: 'text-side-r', active: 'bg-side-r-soft text-side-r ring-1 ring-side-r font-semibold' },
} as const;

/** The per-criterion winners of a pair: 1 Left, 2 Right, 3 (or =) tie while one has the focus. */
function Winners({ ratings, first, leftLetter, rightLetter }: { ratings: Ratings; first: number; leftLetter: string; rightLetter: string }) {
  const rubric = ratings.rubric!;
  const groups = groupsOf(rubric.criteria);
  let index = first;
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1" data-testid="criterion-winners">
      <span className="text-[12px] text-faint">Better on</span>
      {groups.map((group) => (
        <div key={group.title ?? 'all'} className="flex flex-wrap items-center gap-x-3 gap-y-1">
          {group.title && <span className="text-[10.5px] font-semibold tracking-wide text-faint uppercase">{group.title}</span>}
          {group.criteria.map((c) => {
            const stop = index++;
            const focused = ratings.cursor === stop;
            const winner = ratings.state.winners[c.key];
            const cell = (w: Winner, content: ReactNode, activeCls: string, title: string) => (
              <button
                type="button"
                tabIndex={-1}
                onMouseDown={keepFocus}
                onClick={() => ratings.setWinner(c.key, winner === w ? undefined : w)}
                aria-pressed={winner === w}
                title={title}
                className={`h-6 px-1.5 text-[12px] ${winner === w ? activeCls : 'text-muted hover:bg-surface-2 hover:text-fg'}`}
              >
                {content}
              </button>
            );
            return (
              <div
                key={c.key}
                tabIndex={-1}
                data-stop={stop}
                data-testid="winner"
                data-key={c.key}
                data-value={winner ?? ''}
                className={`flex items-center gap-1.5 rounded-md px-1 py-0.5 outline-none ${focused ? 'bg-accent-soft ring-1 ring-accent' : ''}`}
              >
                <span className={`text-[12.5px] ${winner ? 'font-medium text-fg' : 'text-muted'}`}>{c.key}</span>
                <span className="flex overflow-hidden rounded border border-line bg-surface" role="group" aria-label={`Better on ${c.key}`}>
                  {cell(leftLetter as Winner, <span className={winner === leftLetter ? '' : SIDES.left.tone}>◀</span>, SIDES.left.active, 'Left is better here (1)')}
                  {cell('tie', '=', 'bg-tie-soft text-tie ring-1 ring-tie font-semibold', 'Tie here (3 or =)')}
                  {cell(rightLetter as Winner, <span className={winner === rightLetter ? '' : SIDES.right.tone}>▶</span>, SIDES.right.active, 'Right is better here (2)')}
                </span>
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
}

/** The winners chosen so far, in a few words; a click (or Tab past the right response) opens them. */
function WinnerSummary({ ratings, first, leftLetter }: { ratings: Ratings; first: number; leftLetter: string }) {
  const chosen = walkOrder(ratings.rubric!.criteria).filter((c) => ratings.state.winners[c.key]);
  return (
    <button type="button" tabIndex={-1} onMouseDown={keepFocus} onClick={() => ratings.setCursor(first)} className="flex flex-wrap items-baseline gap-x-2 rounded px-1 text-left hover:bg-surface-2" data-testid="winner-summary">
      <span className="text-faint">Better on</span>
      {chosen.length === 0 ? (
        <span className="text-faint">— not chosen (Tab past the right response’s criteria)</span>
      ) : (
        chosen.map((c) => {
          const w = ratings.state.winners[c.key]!;
          return (
            <span key={c.key} className="whitespace-nowrap">
              <span className="text-muted">{c.key}</span>{' '}
              {w === 'tie' ? <b className="font-semibold text-tie">= tie</b> : w === leftLetter ? <b className="font-semibold text-side-l">◀ Left</b> : <b className="font-semibold text-side-r">Right ▶</b>}
            </span>
          );
        })
      )}
    </button>
  );
}

/** The bar under the responses: which rubric version, the winners of a pair, what is missing, the save mark. */
export function RatingsBar({ ratings, winners, leftLetter, rightLetter }: { ratings: Ratings; winners: boolean; leftLetter?: string; rightLetter?: string }) {
  const sheet = ratings.sheet;
  // The item's own criteria (Shift+E): also where the item is not rated yet, to give it criteria.
  const itemCriteria = useItemCriteriaEditor(ratings);
  if (ratings.loadError)
    return (
      <div className="shrink-0 border-t border-line bg-bad-soft px-4 py-1 text-[12.5px]" role="alert" data-testid="ratings-bar">
        <b className="font-semibold text-bad">Ratings could not be read:</b> {ratings.loadError}
        {itemCriteria.dialog}
      </div>
    );
  const rubric = ratings.rubric;
  if (!sheet || !rubric) return itemCriteria.dialog;
  const criteria = rubric.criteria;
  const letters = Object.keys(ratings.state.ratings);
  const rated = letters.reduce((n, l) => n + Object.keys(ratings.state.ratings[l] ?? {}).length, 0);
  const perResponse = criteria.length;
  const total = perResponse * (winners ? 2 : 1);
  const mine = sheet.mine;
  const olderVersion = mine && (mine.rubric !== rubric.rubric || mine.version !== rubric.version);
  const own = rubric.rubric === 'item';
  const onWinners = ratings.cursor !== null && ratings.cursor >= perResponse * 2;
  return (
    <div className="shrink-0 border-t border-line bg-surface px-4 py-1.5 text-[12.5px]" data-testid="ratings-bar">
      <div className="mx-auto flex max-w-[1800px] flex-wrap items-center gap-x-4 gap-y-1">
        <span className="flex items-center gap-1.5 whitespace-nowrap" data-testid="rubric-version" data-rubric={rubric.rubric} data-version={rubric.version}>
          <span className="text-faint">Rating under</span>
          <b className="font-semibold">{own ? 'this item’s criteria' : rubric.rubric}</b>
          <span className="rounded bg-surface-2 px-1 font-mono text-[11.5px] text-muted">v{rubric.version}</span>
          {!own && sheet.inForce === rubric.rubric && <span className="text-faint">in force</span>}
          <button
            type="button"
            tabIndex={-1}
            onMouseDown={keepFocus}
            onClick={itemCriteria.open}
            className="ml-1 flex items-center gap-1 rounded px-1 text-muted hover:bg-surface-2 hover:text-accent"
            title={own ? 'Edit this item’s own criteria (Shift+E)' : 'Write criteria for this item only; it is then rated under them (Shift+E)'}
            data-testid="item-criteria-open"
          >
            Criteria for this item… <Kbd>Shift E</Kbd>
          </button>
        </span>
        {itemCriteria.note && (
          <span className="text-ok" role="status" data-testid="item-criteria-note">
            {itemCriteria.note}
          </span>
        )}
        <span className="whitespace-nowrap text-muted tabular-nums" data-testid="ratings-count">
          {rated} / {total} rated
        </span>
        {olderVersion && (
          <span className="text-muted" data-testid="ratings-older">
            Your ratings here were made under {mine.rubric === rubric.rubric ? '' : `${mine.rubric} `}v{mine.version}
            {sheet.carried.length ? `; unchanged criteria carried over (${sheet.carried.join(', ')})` : '; rate again under this version'}.
          </span>
        )}
        {winners && leftLetter && rightLetter && !onWinners && <WinnerSummary ratings={ratings} first={perResponse * 2} leftLetter={leftLetter} />}
        <span className="ml-auto flex items-center gap-2 whitespace-nowrap">
          {ratings.status && ratings.status.state !== 'info' && (
            <span data-testid="ratings-status" data-state={ratings.status.state}>
              <span className="text-faint">{ratings.status.text}</span> <SaveMark status={ratings.status} onRetry={ratings.retryNow} />
            </span>
          )}
          <span className="text-faint">
            {ratings.cursor === null ? (
              <>
                <Kbd>Tab</Kbd> rate
              </>
            ) : (
              <>
                <Kbd>Esc</Kbd> done rating
              </>
            )}{' '}
            · <Kbd>g</Kbd> guidelines
          </span>
        </span>
      </div>
      {winners && leftLetter && rightLetter && onWinners && (
        <div className="mx-auto mt-1 max-w-[1800px]">
          <Winners ratings={ratings} first={perResponse * 2} leftLetter={leftLetter} rightLetter={rightLetter} />
        </div>
      )}
      {ratings.notice && (
        <div className="mx-auto mt-1 max-w-[1800px] rounded-md bg-bad-soft px-2 py-1 font-medium text-bad ring-1 ring-bad/50" role="alert" data-testid="ratings-required">
          {ratings.notice}
        </div>
      )}
      {itemCriteria.dialog}
    </div>
  );
}
