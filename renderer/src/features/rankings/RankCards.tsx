// The responses of an item being ranked, in this annotator's shuffled order, each named by its screen
// position (1, 2, 3 …: the key that picks it; never A / B, which mean the file's order). Side by side when
// the window has room for every column (each scrolls on its own), else a grid of two rows, else stacked
// (the whole list scrolls). A placed response shows its place in words, not by colour alone. Generated
// images (every response only images) fill their cards: four as a 2 x 2 grid, fewer in one row.
import { memo, useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { approxTokens, contentText } from '../../../../shared/choices';
import type { ResponseRecord } from '../../../../shared/domain';
import { imagesOf, isImagePart } from '../../../../shared/images';
import { plural } from '../../../../shared/plural';
import { ContentView } from '../../components/ContentView';
import { ImageView } from '../../components/images/ImageView';
import { useShell } from '../../context';
import { scrollByPage, scrollsItself } from '../../components/keys';
import { keepFocus } from '../../components/screenParts';
import { ordinal } from './ranking';

/** Narrower than this (px), a column would hold too few words per line. */
const MIN_COLUMN = 300;

/** How many columns the responses get: all side by side, two rows, or one column. */
export function columnsFor(width: number, count: number): number {
  if (count <= 1) return 1;
  if (width / count >= MIN_COLUMN) return count;
  const half = Math.ceil(count / 2);
  if (count > 3 && width / half >= MIN_COLUMN) return half;
  return width >= 2 * MIN_COLUMN + 40 ? 2 : 1;
}

export function useCardLayout(count: number, itemId: number | undefined) {
  const container = useRef<HTMLDivElement>(null);
  const [columns, setColumns] = useState(count);
  useLayoutEffect(() => {
    const el = container.current;
    if (!el) return;
    const measure = () => setColumns(columnsFor(el.clientWidth, count));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [count, itemId]);
  // A new item opens at the top of every response.
  useLayoutEffect(() => {
    const el = container.current;
    if (!el) return;
    el.scrollTop = 0;
    for (const body of el.querySelectorAll<HTMLElement>('[data-card-body]')) body.scrollTop = 0;
  }, [itemId]);
  const oneRow = columns >= count;

  /** Space / PageDown: every column a page (or only the one with the focus); a grid or a stack scrolls as one. */
  const scrollPage = useCallback((direction: 1 | -1) => {
    const el = container.current;
    if (!el) return;
    const bodies = [...el.querySelectorAll<HTMLElement>('[data-card-body]')].filter((b) => scrollsItself(b));
    if (bodies.length) {
      const focused = bodies.find((b) => b.contains(document.activeElement));
      for (const body of focused ? [focused] : bodies) scrollByPage(body, direction);
      return;
    }
    if (scrollsItself(el)) scrollByPage(el, direction);
  }, []);

  return { container, columns, oneRow, scrollPage };
}

/** A response that is only images (a generated image): nothing to read, the image is the response. */
export function imageOnly(response: ResponseRecord): boolean {
  if (typeof response.content === 'string' || response.content.length === 0) return false;
  let images = 0;
  for (const message of response.content) {
    if (!Array.isArray(message.content)) {
      if (typeof message.content === 'string' && message.content.trim()) return false;
      continue;
    }
    for (const part of message.content) {
      if (isImagePart(part)) images++;
      else if (part.type !== 'text' || (typeof part.text === 'string' && part.text.trim())) return false;
    }
  }
  return images > 0;
}

export interface CardPlace {
  place: number;
  tied: boolean;
  /** Placed because it was the only one left. */
  implied: boolean;
}

/** A response's screen position as a key cap: the same mark on the card, the strip and the buttons. */
export function PositionMark({ position, placed, first, size = 'md' }: { position: number; placed: boolean; first?: boolean; size?: 'sm' | 'md' }) {
  const dims = size === 'sm' ? 'h-[22px] min-w-[22px] text-[12px]' : 'h-6 min-w-6 text-[13px]';
  const tone = first ? 'border-accent bg-accent text-white dark:text-[#111]' : placed ? 'border-fg/70 bg-fg text-bg' : 'border-line-strong bg-surface-2 text-fg';
  return (
    <span className={`inline-flex items-center justify-center rounded-md border px-1 font-mono font-semibold tabular-nums ${dims} ${tone}`} aria-hidden>
      {position}
    </span>
  );
}

export const RankCard = memo(function RankCard({
  position,
  response,
  place,
  oneRow,
  onPick,
  nextPlace,
  fill = false,
}: {
  position: number;
  response: ResponseRecord;
  place: CardPlace | null;
  oneRow: boolean;
  /** Images only: the image fills the card (a grid cell), fitted both ways. */
  fill?: boolean;
  onPick(): void;
  /** The place the next pick takes, in words ("2nd", "tied 2nd"), for the card's button. */
  nextPlace: string | null;
}) {
  const text = contentText(response.content);
  const first = place?.place === 1;
  return (
    <article
      className={`group/card flex min-w-0 flex-col border-line bg-surface ${fill ? 'min-h-0 border-r border-b' : oneRow ? 'min-h-0 border-r last:border-r-0' : 'border-r border-b'}`}
      data-testid="rank-card"
      data-position={position}
      data-response={response.index}
      data-place={place ? String(place.place) : ''}
      aria-label={`Response ${position}`}
    >
      <header
        className={`sticky top-0 z-10 flex items-center gap-2 border-b border-line px-3 py-1.5 whitespace-nowrap ${
          first ? 'bg-accent-soft shadow-[inset_0_3px_0_var(--accent)]' : place ? 'bg-surface-2' : 'bg-surface'
        }`}
      >
        <PositionMark position={position} placed={place !== null} first={first} />
        {place ? (
          <span className={`text-[13px] font-semibold ${first ? 'text-accent' : 'text-fg'}`} data-testid="card-place">
            {place.tied ? '= ' : ''}
            {ordinal(place.place)}
            {place.implied && <span className="ml-1 text-[11px] font-normal text-faint">(last one left)</span>}
          </span>
        ) : nextPlace ? (
          <button
            className="rounded px-1 text-[12px] text-faint hover:bg-surface-2 hover:text-fg"
            onClick={onPick}
            onMouseDown={keepFocus}
            title={`Not placed yet: ${position <= 9 ? `press ${position} or click` : 'click'} to place it ${nextPlace}`}
            data-testid="card-pick"
          >
            → <span className="text-muted">{nextPlace}</span>
          </button>
        ) : (
          <span className="text-[12px] text-faint">not placed</span>
        )}
        {fill ? (
          <span className="ml-auto truncate text-[12px] tabular-nums text-faint" data-testid="card-length">
            {imageWords(response)}
          </span>
        ) : (
          <span className="ml-auto truncate text-[12px] tabular-nums text-faint" data-testid="card-length" title="Length: characters and approximate tokens">
            {text.length.toLocaleString()} chars · ~{approxTokens(text).toLocaleString()} tok
          </span>
        )}
      </header>
      <div
        tabIndex={0}
        data-card-body
        aria-label={`Response ${position} text`}
        className={`px-4 py-3 outline-none focus-visible:shadow-[inset_0_0_0_2px_var(--accent)] ${fill ? 'flex min-h-0 flex-1 flex-col gap-2' : oneRow ? 'min-h-0 flex-1 overflow-y-auto' : ''}`}
        data-testid="card-body"
      >
        {fill ? <CardImages response={response} /> : <ContentView content={response.content} place={response.index} />}
      </div>
    </article>
  );
});

/** "1024 × 1024" for one image, "2 images" for more: what a card of images says instead of a length. */
function imageWords(response: ResponseRecord): string {
  const images = imagesOf(response.content, response.index);
  const only = images.length === 1 ? images[0]!.image.image : undefined;
  return only ? `${only.width} × ${only.height}` : plural(images.length, 'image');
}

function CardImages({ response }: { response: ResponseRecord }) {
  const { project } = useShell();
  return imagesOf(response.content, response.index).map((placed) => (
    <div key={`${placed.message}:${placed.part}`} className="min-h-0 flex-1">
      <ImageView project={project} part={placed.image} place={response.index} fit="box" />
    </div>
  ));
}

export function RankCards({
  responses,
  order,
  places,
  layout,
  onPick,
  nextPlace,
}: {
  responses: ResponseRecord[];
  order: number[];
  places: Map<number, CardPlace>;
  layout: { container: RefObject<HTMLDivElement | null>; columns: number; oneRow: boolean };
  onPick(response: number): void;
  nextPlace: string | null;
}) {
  // Generated images fill their cards when the cards fit the screen: four as 2 x 2, fewer in one row.
  const images = responses.length > 1 && responses.every(imageOnly);
  const fill = images && (layout.oneRow || (responses.length === 4 && layout.columns >= 2));
  const columns = fill && responses.length === 4 ? 2 : layout.columns;
  const rows = fill ? Math.ceil(responses.length / columns) : 0;
  return (
    <div
      ref={layout.container}
      className={`min-h-0 flex-1 bg-surface ${fill || layout.oneRow ? 'grid overflow-hidden' : 'grid content-start overflow-y-auto'}`}
      style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gridTemplateRows: fill ? `repeat(${rows}, minmax(0, 1fr))` : undefined }}
      data-testid="rank-cards"
      data-columns={columns}
      data-images={fill ? 'grid' : undefined}
    >
      {order.map((index, i) => {
        const response = responses.find((r) => r.index === index) ?? responses[index];
        if (!response) return null;
        return (
          <RankCard
            key={index}
            position={i + 1}
            response={response}
            place={places.get(index) ?? null}
            oneRow={layout.oneRow}
            onPick={() => onPick(index)}
            nextPlace={nextPlace}
            fill={fill}
          />
        );
      })}
    </div>
  );
}
