// A narrow map of the turns down the side of the step screen: each turn a bar as tall as its length
// (square-root scaled, so a 2 MB result does not swallow the rest), placed by its rating as well as
// coloured: +1 reaches right, −1 reaches left, 0 is a short tick in the middle, unrated a faint hairline.
// The first error has a red rule and ▲, a turn whose tool result failed a dot, the current turn an accent
// frame. A click goes to the turn.
import { memo, useLayoutEffect, useRef } from 'react';
import type { StepRating } from '../../../../shared/segment';

interface Props {
  /** Characters per turn. */
  sizes: number[];
  ratings: (StepRating | null)[];
  firstError: number | null;
  /** Turns whose tool results are errors (or exited non-zero). */
  errors: boolean[];
  cursor: number;
  onPick(index: number): void;
}

const WORD: Record<string, string> = { '1': '+1 good', '0': '0 neutral', '-1': '−1 bad' };

export const TurnMinimap = memo(function TurnMinimap({ sizes, ratings, firstError, errors, cursor, onPick }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const current = useRef<HTMLButtonElement>(null);
  // The current turn stays in view when the map is taller than its column.
  useLayoutEffect(() => {
    const b = box.current;
    const c = current.current;
    if (!b || !c || b.scrollHeight <= b.clientHeight) return;
    const top = c.offsetTop;
    if (top < b.scrollTop || top + c.offsetHeight > b.scrollTop + b.clientHeight) b.scrollTop = top - b.clientHeight / 2;
  }, [cursor]);
  // Heights from 4 to 28 px by the square root of the length, relative to the longest turn; when they do
  // not all fit, they shrink in proportion (flex-shrink), down to 2 px.
  const weights = sizes.map((s) => Math.sqrt(Math.max(1, s)));
  const heaviest = Math.max(1, ...weights);
  const rated = ratings.filter((r) => r !== null).length;
  return (
    <nav className="flex h-full w-[58px] shrink-0 flex-col border-l border-line bg-surface" aria-label="Turns" data-testid="turn-minimap">
      <div className="shrink-0 px-1 pt-2 pb-1 text-center text-[10.5px] leading-tight text-faint" title={`${rated} of ${sizes.length} turns rated`}>
        <div className="font-semibold tracking-wide uppercase">Turns</div>
        <div className="tabular-nums">
          {cursor + 1}/{sizes.length}
        </div>
      </div>
      <div ref={box} className="flex min-h-0 flex-1 flex-col gap-px overflow-y-auto px-1 pb-2">
        {sizes.map((_, i) => {
          const r = ratings[i] ?? null;
          const after = firstError !== null && firstError >= 0 && i > firstError;
          const isFirst = firstError === i;
          const isCurrent = i === cursor;
          const words = `Turn ${i + 1}: ${isFirst ? 'first error' : after ? 'after the first error' : r === null ? 'unrated' : WORD[String(r)]}${errors[i] ? ', a tool error' : ''}`;
          return (
            <button
              key={i}
              ref={isCurrent ? current : undefined}
              type="button"
              tabIndex={-1}
              title={words}
              aria-label={words}
              onClick={() => onPick(i)}
              className={`relative flex min-h-[2px] w-full items-stretch rounded-[2px] ${isCurrent ? 'ring-2 ring-accent ring-offset-1 ring-offset-surface' : ''} ${isFirst ? 'mt-[3px]' : ''}`}
              style={{ flex: '0 1 auto', height: 4 + 24 * (weights[i]! / heaviest) }}
              data-testid="minimap-turn"
              data-index={i}
              data-rating={after ? 'none' : r === null ? 'unrated' : String(r)}
              data-current={isCurrent}
              data-first-error={isFirst}
              data-tool-error={errors[i]}
            >
              {isFirst && <span className="absolute -top-[3px] right-0 left-0 h-[2px] bg-bad" aria-hidden />}
              <span className="flex w-[6px] shrink-0 items-center justify-center" aria-hidden>
                {errors[i] && <span className="h-[5px] w-[5px] rounded-full bg-bad" />}
              </span>
              <Bar rating={after ? null : r} after={after} first={isFirst} />
            </button>
          );
        })}
      </div>
      <div className="shrink-0 border-t border-line px-1 py-1 text-center font-mono text-[10px] leading-tight text-faint" aria-hidden>
        <span className="text-bad">−</span> · <span className="text-ok">+</span>
      </div>
    </nav>
  );
});

function Bar({ rating, after, first }: { rating: StepRating | null; after: boolean; first: boolean }) {
  // A diverging bar: bad to the left of the middle, good to the right; the shape says it without colour.
  const base = 'absolute top-0 bottom-0 rounded-[1px]';
  return (
    <span className="relative flex-1" aria-hidden>
      <span className="absolute top-0 bottom-0 left-1/2 w-px bg-line" />
      {after ? (
        <span className="absolute top-1/2 right-[30%] left-[30%] h-px bg-line-strong opacity-60" />
      ) : rating === null ? (
        <span className="absolute top-0 right-0 bottom-0 left-0 rounded-[1px] bg-line-strong/45" />
      ) : rating === 1 ? (
        <span className={`${base} right-0 left-1/2 bg-ok`} />
      ) : rating === -1 ? (
        <span className={`${base} right-1/2 left-0 ${first ? 'bg-bad' : 'bg-bad/80'}`} />
      ) : (
        <span className={`${base} right-[38%] left-[38%] bg-tie`} />
      )}
    </span>
  );
}
