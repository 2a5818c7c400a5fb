// GUI and web agents: the action model (what a turn did on the screen, with its coordinates as written),
// the small readers of points, boxes and keys that every shape shares, and how an action is placed on a
// screenshot as fractions of it. The shapes it is read from: ./guiActions.ts; code: ./guiActionCode.ts.
export const GUI_ACTION_KINDS = ['click', 'double_click', 'type', 'scroll', 'select', 'hover', 'key', 'drag', 'navigate', 'wait', 'stop'] as const;
export type GuiActionKind = (typeof GUI_ACTION_KINDS)[number];
export type CoordUnits = 'fraction' | 'pixels' | 'permille';
export type ScrollDirection = 'up' | 'down' | 'left' | 'right';
export type Pair = [number, number];
export type Box = [number, number, number, number];

export interface GuiAction {
  kind: GuiActionKind;
  /** A click with another button than the left one (a triple click says so in `count`). */
  button?: 'right' | 'middle';
  count?: number;
  /** Where it acts, as written. */
  point?: Pair;
  /** The target element's box [x0, y0, x1, y1], as written. */
  box?: Box;
  /** A drag's end (`point` is its start, when the action gives one). */
  to?: Pair;
  /** The units a field named; otherwise placeAction tells them by the values and the image's size. */
  units?: CoordUnits;
  /** The typed text, the option selected, the address navigated to, the answer given at the stop. */
  text?: string;
  keys?: string[];
  scroll?: { direction: ScrollDirection; amount: number | null };
  /** The target as the file names it ("[button] Search", "element 12"). */
  target?: string;
  /** Where it was read from, for people: "computer tool", "pyautogui code", "Mind2Web operation". */
  source: string;
}

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : null);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Numbers in a text ("(100, 200)", "<point>100 200</point>", "[0.1,0.2,0.3,0.4]"). */
export function numbersIn(text: string): number[] {
  return (text.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
}

/** [x, y] from [x, y], {x, y}, "(x, y)" or "x,y". */
export function pairOf(v: unknown): Pair | null {
  if (Array.isArray(v) && v.length === 2) {
    const [x, y] = [num(v[0]), num(v[1])];
    return x !== null && y !== null ? [x, y] : null;
  }
  if (isObject(v)) {
    const [x, y] = [num(v.x), num(v.y)];
    return x !== null && y !== null ? [x, y] : null;
  }
  if (typeof v === 'string') {
    const n = numbersIn(v);
    if (n.length === 2) return [n[0]!, n[1]!];
  }
  return null;
}

/**
 * A box as [x0, y0, x1, y1]: from {x, y, width, height}, {left, top, right, bottom}, a list or text of four
 * numbers. `xywh`: the four numbers are x, y, width, height (Mind2Web's bounding_box_rect, a key named
 * rect or xywh); otherwise corners, unless the corners are not in order (then x, y, width, height).
 */
export function boxOf(v: unknown, xywh = false): Box | null {
  if (isObject(v)) {
    const [x, y, w, h] = [num(v.x ?? v.left), num(v.y ?? v.top), num(v.width ?? v.w), num(v.height ?? v.h)];
    if (x !== null && y !== null && w !== null && h !== null) return [x, y, x + w, y + h];
    const [r, b] = [num(v.right), num(v.bottom)];
    if (x !== null && y !== null && r !== null && b !== null) return [x, y, r, b];
    return null;
  }
  const n = Array.isArray(v) ? v.map(num) : typeof v === 'string' ? numbersIn(v) : null;
  if (!n || n.length !== 4 || n.some((x) => x === null)) return null;
  const [a, b, c, d] = n as number[];
  if (xywh || !(c! > a! && d! > b!)) return c! >= 0 && d! >= 0 ? [a!, b!, a! + c!, b! + d!] : null;
  return [a!, b!, c!, d!];
}

export function keysOf(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.filter((k): k is string => typeof k === 'string');
  if (typeof value === 'string' && value.trim()) return value.trim().split(/\s*\+\s*|\s+/).filter(Boolean);
  return undefined;
}

/** What a name says an action does (a tool's, an action word's, a function's in code). */
export interface KindInfo {
  kind: GuiActionKind;
  button?: 'right' | 'middle';
  count?: number;
}

export const DIRECTIONS: ScrollDirection[] = ['up', 'down', 'left', 'right'];
export const centre = (b: Box): Pair => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];

export interface PlacedAction {
  action: GuiAction;
  /** The units the coordinates were read in (null: the action has no coordinates). */
  units: CoordUnits | null;
  /** Why, in words ("every coordinate is between 0 and 1"). */
  unitsWhy: string;
  /** Fractions of the image (0..1, top left), clamped to it. */
  point: Pair | null;
  box: Box | null;
  to: Pair | null;
  /** Some coordinate lies outside the image: what and where, in words; null when all are inside. */
  outside: string | null;
}

const clamp = (v: number) => Math.min(1, Math.max(0, v));

/** The action on an image of `size` (pixels, as shown): its coordinates as fractions of the image. */
export function placeAction(action: GuiAction, size: { width: number; height: number } | null): PlacedAction {
  const xs = [action.point?.[0], action.box?.[0], action.box?.[2], action.to?.[0]].filter((v): v is number => v !== undefined);
  const ys = [action.point?.[1], action.box?.[1], action.box?.[3], action.to?.[1]].filter((v): v is number => v !== undefined);
  const empty: PlacedAction = { action, units: null, unitsWhy: '', point: null, box: null, to: null, outside: null };
  if (!xs.length) return empty;
  const all = [...xs, ...ys];
  let units: CoordUnits;
  let why: string;
  if (action.units) {
    units = action.units;
    why = `the ${action.source} says ${units === 'permille' ? 'thousandths of the image' : units === 'fraction' ? 'fractions of the image' : 'pixels'}`;
  } else if (all.every((v) => v >= 0 && v <= 1)) {
    units = 'fraction';
    why = 'every coordinate is between 0 and 1: fractions of the image';
  } else if (size && (Math.max(...xs) > size.width || Math.max(...ys) > size.height) && all.every((v) => v >= 0 && v <= 1000)) {
    units = 'permille';
    why = `${Math.max(...xs) > size.width ? `x ${fmt(Math.max(...xs))} is past the image's ${size.width} px width` : `y ${fmt(Math.max(...ys))} is past the image's ${size.height} px height`} and every coordinate is within 0–1000: thousandths of the image`;
  } else {
    units = 'pixels';
    why = size ? `pixels of the ${size.width} × ${size.height} image` : 'pixels';
  }
  if (units === 'pixels' && !size) return { ...empty, units, unitsWhy: 'pixels, but the image’s size is not known' };
  const fx = (v: number) => (units === 'fraction' ? v : units === 'permille' ? v / 1000 : v / size!.width);
  const fy = (v: number) => (units === 'fraction' ? v : units === 'permille' ? v / 1000 : v / size!.height);
  const off: string[] = [];
  const place = (p: Pair, what: string): Pair => {
    const f: Pair = [fx(p[0]), fy(p[1])];
    if (f[0] < 0 || f[0] > 1 || f[1] < 0 || f[1] > 1) off.push(`${what} (${fmt(p[0])}, ${fmt(p[1])})`);
    return [clamp(f[0]), clamp(f[1])];
  };
  const box = action.box ? ([...place([action.box[0], action.box[1]], 'the box corner'), ...place([action.box[2], action.box[3]], 'the box corner')] as Box) : null;
  const point = action.point ? place(action.point, `the ${action.kind === 'drag' ? 'drag start' : action.kind.replace('_', ' ')}`) : box ? centre(box) : null;
  const to = action.to ? place(action.to, 'the drag end') : null;
  const outside = off.length ? `${[...new Set(off)].join(' and ')} ${off.length === 1 ? 'is' : 'are'} outside the ${size ? `${size.width} × ${size.height} ` : ''}screenshot` : null;
  return { action, units, unitsWhy: why, point, box, to, outside };
}

export function fmt(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 1000) / 1000);
}

const KIND_WORDS: Record<GuiActionKind, string> = {
  click: 'click',
  double_click: 'double-click',
  type: 'type',
  scroll: 'scroll',
  select: 'select',
  hover: 'hover',
  key: 'key',
  drag: 'drag',
  navigate: 'go to',
  wait: 'wait',
  stop: 'stop',
};

/**
 * The action in a few words: "right-click at (412, 300)", "type “hello”", "scroll down 3", "key ctrl+s";
 * `short`: without its target and coordinates (a label drawn at the place itself).
 */
export function actionWords(action: GuiAction, short = false): string {
  let head = KIND_WORDS[action.kind];
  if (action.kind === 'click' && action.button) head = `${action.button}-click`;
  if (action.kind === 'click' && action.count === 3) head = 'triple-click';
  const parts = [head];
  if (action.kind === 'scroll' && action.scroll) parts.push(action.scroll.direction + (action.scroll.amount !== null ? ` ${fmt(action.scroll.amount)}` : ''));
  if (action.keys?.length) parts.push(action.keys.join('+'));
  if (action.text !== undefined) parts.push(`“${action.text.length > 60 ? `${action.text.slice(0, 59)}…` : action.text}”`);
  if (short) return parts.join(' ');
  if (action.target) parts.push(`on ${action.target}`);
  if (action.point && action.kind !== 'drag') parts.push(`at (${fmt(action.point[0])}, ${fmt(action.point[1])})`);
  else if (action.box && action.kind !== 'drag') parts.push(`in the box (${fmt(action.box[0])}, ${fmt(action.box[1])})–(${fmt(action.box[2])}, ${fmt(action.box[3])})`);
  if (action.kind === 'drag') {
    if (action.point) parts.push(`from (${fmt(action.point[0])}, ${fmt(action.point[1])})`);
    if (action.to) parts.push(`to (${fmt(action.to[0])}, ${fmt(action.to[1])})`);
  }
  return parts.join(' ');
}
