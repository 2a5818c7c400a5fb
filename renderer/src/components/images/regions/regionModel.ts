// Region marks as the screens edit them (pure functions, no React): a box from two corners, the crosshair
// moved by keys, adding, replacing and removing a mark with "not present" kept consistent (a tag marked
// on an image is no longer "not present" there), the marks of one image with their numbers in the item,
// and how each person's marks are drawn in review (colour, line style and a name: never colour alone).
import type { CSSProperties } from 'react';
import type { ImagePlace, RegionMark } from '../../../../../shared/regions';

/** A box or point smaller than this (a fraction of the image) is a click, not a drag. */
export const MIN_BOX = 0.005;

export type Point = [number, number];
export type Box = [number, number, number, number];

const clamp = (v: number) => Math.min(1, Math.max(0, v));
/** Fractions kept to 4 decimals (a 10,000-pixel image to the pixel): files stay short and stable. */
const round = (v: number) => Math.round(clamp(v) * 1e4) / 1e4;

/** The box two corners span, in fractions; null when it is too thin to be a box. */
export function boxFrom(a: Point, b: Point): Box | null {
  const box: Box = [round(Math.min(a[0], b[0])), round(Math.min(a[1], b[1])), round(Math.max(a[0], b[0])), round(Math.max(a[1], b[1]))];
  return box[2] - box[0] < MIN_BOX || box[3] - box[1] < MIN_BOX ? null : box;
}

export function pointAt(p: Point): Point {
  return [round(p[0]), round(p[1])];
}

const ARROW: Record<string, Point> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** The crosshair after an arrow key: 2% of the image a press, 10% with Shift, 0.5% with Alt; null for other keys. */
export function moveCursor(cursor: Point, key: string, mods: { shiftKey?: boolean; altKey?: boolean } = {}): Point | null {
  const d = ARROW[key];
  if (!d) return null;
  const step = mods.shiftKey ? 0.1 : mods.altKey ? 0.005 : 0.02;
  return [round(cursor[0] + d[0] * step), round(cursor[1] + d[1] * step)];
}

export const samePlace = (a: ImagePlace, b: ImagePlace) => String(a) === String(b);

/** The marks on one image, each with its index in the item's list (its number is index + 1). */
export function marksOn(marks: readonly RegionMark[], image: string, place: ImagePlace): { mark: RegionMark; index: number }[] {
  return marks.flatMap((mark, index) => (mark.image === image && samePlace(mark.at, place) ? [{ mark, index }] : []));
}

/** Tags marked (a box or a point) on an image: those cannot be "not present" there too. */
export function placedTags(marks: readonly RegionMark[], image: string, place: ImagePlace): Set<string> {
  return new Set(marksOn(marks, image, place).flatMap(({ mark }) => (mark.kind === 'absent' ? [] : [mark.tag])));
}

/**
 * The list with `mark` added (index undefined) or put in place of the mark at `index`. A box or point
 * with a tag takes away that tag's "not present" on the same image; "not present" for a tag already
 * marked there is refused (returns a sentence saying so), as the host refuses it.
 */
export function withMark(marks: readonly RegionMark[], mark: RegionMark, index?: number): RegionMark[] | string {
  const others = marks.filter((_, i) => i !== index);
  if (mark.kind === 'absent' && placedTags(others, mark.image, mark.at).has(mark.tag))
    return `“${mark.tag}” is marked on this image: it cannot be “not present” there too. Remove that mark first.`;
  const clean = (m: RegionMark) => !(mark.kind !== 'absent' && m.kind === 'absent' && m.tag === mark.tag && m.image === mark.image && samePlace(m.at, mark.at));
  const out = marks.map((m, i) => (i === index ? mark : m)).filter((m, i) => i === index || clean(m));
  if (index === undefined) out.push(mark);
  return out;
}

export function withoutMark(marks: readonly RegionMark[], index: number): RegionMark[] {
  return marks.filter((_, i) => i !== index);
}

/** "1 box: artifact", "2 point: misaligned", "not present: artifact". */
export function markWords(mark: RegionMark, index: number): string {
  if (mark.kind === 'absent') return `not present: ${mark.tag}`;
  return `${index + 1} ${mark.kind}: ${mark.tag}`;
}

/** Marks of several people in review: a colour from the Okabe–Ito palette (told apart with colour-blind
 * vision), a line style and the person's name on every mark, so colour is never the only cue. */
const PEOPLE_COLOURS = ['#E69F00', '#56B4E9', '#009E73', '#F0E442', '#0072B2', '#D55E00', '#CC79A7'];
const LINE_STYLES = ['solid', 'dashed', 'dotted'] as const;

export function personStyle(i: number): { colour: string; line: (typeof LINE_STYLES)[number] } {
  return { colour: PEOPLE_COLOURS[i % PEOPLE_COLOURS.length]!, line: LINE_STYLES[Math.floor(i / PEOPLE_COLOURS.length) % LINE_STYLES.length]! };
}

/** Black or white text, whichever reads on the colour. */
export function textOn(colour: string): string {
  const n = Number.parseInt(colour.slice(1), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? '#111' : '#fff';
}

/**
 * Where a mark's label goes so the image's edge does not cut it off: above the box (inside it when the box
 * touches the top), from its left edge (its right edge when its middle is in the right half); a point's
 * label beside it, on the side with more room.
 */
export function labelPlacement(mark: RegionMark): { inside: boolean; right: boolean } {
  if (mark.kind === 'box' && mark.box) return { inside: mark.box[1] < 0.12, right: (mark.box[0] + mark.box[2]) / 2 > 0.5 };
  if (mark.kind === 'point' && mark.point) return { inside: mark.point[1] < 0.12, right: mark.point[0] > 0.55 };
  return { inside: false, right: false };
}

const pc = (v: number) => `${(v * 100).toFixed(3)}%`;

/** A label's height (11 px text, line height 1.5) and about how wide a character of it is (bold 11 px). */
const LABEL_ROW = 18;
const LABEL_CHAR = 6.6;

/**
 * Several people's labels on one image (the adjudication view): where two would land on each other (nearly
 * the same box), the later one moves a row away, up from a label above its box (down when the image's top
 * is near), down from one inside. `chars`: each label's length, for its width. Returns each label's shift
 * in px, in the order given.
 */
export function labelShifts(labels: readonly { mark: RegionMark; chars: number }[], size: { width: number; height: number }): number[] {
  const placed: { top: number; left: number; right: number }[] = [];
  return labels.map(({ mark, chars }) => {
    const anchor = mark.kind === 'box' && mark.box ? mark.box : mark.kind === 'point' && mark.point ? mark.point : null;
    if (!anchor) return 0;
    const { inside, right } = labelPlacement(mark);
    const y = anchor[1] * size.height;
    const x = (mark.kind === 'box' && mark.box ? (right ? mark.box[2] : mark.box[0]) : anchor[0]) * size.width;
    const top = inside ? y : y - LABEL_ROW;
    const width = Math.min(chars * LABEL_CHAR + 8, right ? x : size.width - x);
    const [left, end] = right ? [x - width, x] : [x, x + width];
    const step = inside || top - LABEL_ROW < 4 ? LABEL_ROW : -LABEL_ROW;
    let shift = 0;
    for (let tries = 0; tries < 12 && placed.some((p) => p.left < end && left < p.right && Math.abs(p.top - (top + shift)) < LABEL_ROW); tries++) shift += step;
    placed.push({ top: top + shift, left, right: end });
    return shift;
  });
}

/**
 * The style of a mark's label, placed in the image's layer (not inside the mark) as labelPlacement says,
 * and never wider than the room between its edge and the image's: a long tag is cut short with an
 * ellipsis (the full text is in its title) rather than by the image's edge.
 */
export function labelStyle(mark: RegionMark): CSSProperties {
  const { inside, right } = labelPlacement(mark);
  if (mark.kind === 'box' && mark.box) {
    const [x0, y0, x1] = mark.box;
    const across: CSSProperties = right ? { right: pc(1 - x1), maxWidth: pc(x1) } : { left: pc(x0), maxWidth: pc(1 - x0) };
    return { position: 'absolute', top: pc(y0), transform: inside ? undefined : 'translateY(-100%)', ...across };
  }
  if (mark.kind === 'point' && mark.point) {
    const [x, y] = mark.point;
    const across: CSSProperties = right ? { right: `calc(${pc(1 - x)} + 11px)`, maxWidth: `calc(${pc(x)} - 11px)` } : { left: `calc(${pc(x)} + 11px)`, maxWidth: `calc(${pc(1 - x)} - 11px)` };
    return { position: 'absolute', top: pc(y), transform: inside ? undefined : y > 0.9 ? 'translateY(-100%)' : 'translateY(-50%)', ...across };
  }
  return {};
}
