// GUI and web agents: what a turn did on the screen (a click, a typed text, a scroll…), read from its tool
// call or from the step's recorded action, and on which screenshot of the trajectory to draw it. Pure: the
// turn cards' overlay, the filmstrip and the importers use it. The action model and its placing on an
// image (fractions) are in ./guiActionModel.ts, code (pyautogui, UI-TARS) in ./guiActionCode.ts; this
// module exports all of it.
//
// Shapes read (docs/formats.md, "GUI and web agents"):
// - Anthropic's `computer` tool: {action: "left_click" | "right_click" | "middle_click" | "double_click" |
//   "triple_click" | "mouse_move" | "left_click_drag" | "type" | "key" | "scroll" | …, coordinate: [x, y],
//   start_coordinate, text, scroll_direction, scroll_amount};
// - OpenAI computer use: an action {type: "click" (button) | "double_click" | "move" | "drag" (path) |
//   "scroll" (scroll_x, scroll_y) | "type" (text) | "keypress" (keys) | "wait" | "screenshot", x, y}, given
//   as the call's arguments, under `action`, or a list under `actions`;
// - tools named for what they do (click, double_click, type / input_text, scroll, select_option, hover,
//   press_key / hotkey, drag, navigate, done) with a point (x / y, coordinate, point, position) or a
//   target box (bbox, box, bounding_box, rect, Mind2Web's bounding_box_rect "x,y,width,height");
// - Mind2Web's operation {op: CLICK | TYPE | SELECT, original_op (HOVER, ENTER), value} with the target
//   element's box;
// - code: pyautogui calls (`pyautogui.click(x=100, y=200)`, doubleClick, rightClick, moveTo, dragTo, scroll,
//   write / typewrite, press, hotkey) and UI-TARS-style calls (`click(start_box='(100,200)')`,
//   `type(content='…')`, `scroll(start_box=…, direction='down')`, `drag(start_box, end_box)`, `hotkey(key=…)`,
//   `finished()`), in a call's code / action / command argument or on their own lines of the agent's text.
//
// Coordinates are kept as written; placeAction turns them into fractions of one image (0..1, origin top
// left) once its size is known. Units: what a field says (`units`, `coordinate_type`, a `normalized…`
// key), else every coordinate within 0..1 is a fraction, else pixels; pixels past the image's size but
// within 0..1000 are read as thousandths of the image (Qwen-VL and UI-TARS write 0..1000), and a point
// outside the image is said so and drawn at its edge.
//
// Which screenshot an action belongs to (turnScreens): the last image before the agent's action message,
// that is the screen the agent saw when it chose where to act (the turn's own context, else the previous
// turn's tool result or observation). Images after the action (the turn's results) are what came of it
// and are drawn without a mark.
import type { ChatMessage } from './domain';
import { actionsOfCode } from './guiActionCode';
import { boxOf, centre, DIRECTIONS, isObject, keysOf, num, numbersIn, pairOf, str, type Box, type CoordUnits, type GuiAction, type GuiActionKind, type Json, type KindInfo, type Pair, type ScrollDirection } from './guiActionModel';
import { isImagePart, type ImagePart } from './images';
import { arbiterFields, parseArguments, type Turn } from './trajectory';

export * from './guiActionModel';
export { actionsOfCode } from './guiActionCode';

const UNIT_WORDS: [RegExp, CoordUnits][] = [
  [/^(px|pixels?|absolute|abs|screen)$/i, 'pixels'],
  [/^(permille|thousandths?|0-1000|normali[sz]ed_?1000|relative_?1000)$/i, 'permille'],
  [/^(fraction|normali[sz]ed|relative|rel|ratio|0-1)$/i, 'fraction'],
];

/** The units a record names: `units` / `coordinate_type` / `coordinates` words, `normalized: true`, a normalized… key. */
function unitsOf(record: Json): CoordUnits | undefined {
  for (const key of ['units', 'unit', 'coordinate_type', 'coordinate_units', 'coordinates_type', 'coord_type', 'coordinate_space']) {
    const word = str(record[key]);
    if (word) for (const [re, units] of UNIT_WORDS) if (re.test(word.trim())) return units;
  }
  if (record.normalized === false || record.relative === false) return 'pixels';
  return undefined;
}

/** Keys whose value is a point, in the order tried; a normalized… / relative… key says its units. */
const POINT_KEYS = ['coordinate', 'coordinates', 'point', 'position', 'center', 'location', 'coords', 'xy', 'click_point', 'normalized_coords', 'normalized_point', 'relative_point', 'start_box', 'start_point', 'start_coordinate'];
const BOX_KEYS = ['bbox', 'box', 'bounding_box', 'boundingBox', 'bounding_box_rect', 'rect', 'xywh', 'element_box', 'target_box', 'normalized_bbox', 'relative_bbox'];

function normalizedKey(key: string): boolean {
  return /normali[sz]ed|relative|^rel_/i.test(key);
}

/** A point (and the units its key says) in a record: x / y, or one of POINT_KEYS. */
function pointIn(record: Json, keys = POINT_KEYS): { point: Pair; units?: CoordUnits } | null {
  const x = num(record.x ?? record.rel_x ?? record.x_norm);
  const y = num(record.y ?? record.rel_y ?? record.y_norm);
  if (x !== null && y !== null) return { point: [x, y], ...('rel_x' in record || 'x_norm' in record ? { units: 'fraction' as const } : {}) };
  for (const key of keys) {
    if (!(key in record)) continue;
    const value = record[key];
    // A box where a point was expected (UI-TARS's start_box of four numbers): its centre.
    const box = Array.isArray(value) && value.length === 4 ? boxOf(value) : typeof value === 'string' && numbersIn(value).length === 4 ? boxOf(value) : null;
    const point = box ? centre(box) : pairOf(value);
    if (point) return { point, ...(normalizedKey(key) ? { units: fractionOrPermille([point[0], point[1]]) } : {}) };
  }
  return null;
}

function boxIn(record: Json): { box: Box; units?: CoordUnits } | null {
  for (const key of BOX_KEYS) {
    if (!(key in record)) continue;
    const box = boxOf(record[key], /rect|xywh/i.test(key) || record.box_format === 'xywh' || record.bbox_format === 'xywh');
    if (box) return { box, ...(normalizedKey(key) ? { units: fractionOrPermille(box) } : {}) };
  }
  return null;
}

const fractionOrPermille = (values: number[]): CoordUnits => (values.every((v) => v >= 0 && v <= 1) ? 'fraction' : 'permille');

/** What a tool's or action's name says it does. */
function kindOfName(name: string): KindInfo | null {
  const n = name.toLowerCase().replace(/[\s-]+/g, '_');
  if (/triple_?click/.test(n)) return { kind: 'click', count: 3 };
  if (/double_?click|dblclick|left_double|doubleclick/.test(n)) return { kind: 'double_click' };
  if (/right_?click|right_single|context_?click|rightclick/.test(n)) return { kind: 'click', button: 'right' };
  if (/middle_?click|middleclick/.test(n)) return { kind: 'click', button: 'middle' };
  if (/drag/.test(n)) return { kind: 'drag' };
  if (/scroll|swipe/.test(n)) return { kind: 'scroll' };
  if (/hover|mouse_?move|^move(_?to)?$|moveto/.test(n)) return { kind: 'hover' };
  if (/select/.test(n)) return { kind: 'select' };
  if (/key_?press|hotkey|press_?key|^key$|^keys$|^press$|send_?keys|key_?down/.test(n)) return { kind: 'key' };
  if (/click|tap|^left_single$|^press_element$/.test(n)) return { kind: 'click' };
  if (/^type$|type_?text|^input|fill|^write$|typewrite|enter_?text|^text$/.test(n)) return { kind: 'type' };
  if (/navigate|go_?to|goto|open_?url|visit|^open$|^url$/.test(n)) return { kind: 'navigate' };
  if (/^wait|sleep/.test(n)) return { kind: 'wait' };
  if (/^(done|finish(ed)?|stop|terminate|answer|submit|complete|end|call_user|fail)$/.test(n)) return { kind: 'stop' };
  return null;
}

function scrollOf(record: Json, name: string): GuiAction['scroll'] {
  const word = str(record.scroll_direction ?? record.direction)?.toLowerCase();
  const amount = num(record.scroll_amount ?? record.amount ?? record.clicks ?? record.distance ?? record.pixels);
  if (word && (DIRECTIONS as string[]).includes(word)) return { direction: word as ScrollDirection, amount };
  const dx = num(record.scroll_x ?? record.delta_x ?? record.dx);
  const dy = num(record.scroll_y ?? record.delta_y ?? record.dy);
  if (dy !== null && dy !== 0) return { direction: dy > 0 ? 'down' : 'up', amount: Math.abs(dy) };
  if (dx !== null && dx !== 0) return { direction: dx > 0 ? 'right' : 'left', amount: Math.abs(dx) };
  const named = DIRECTIONS.find((d) => name.toLowerCase().includes(d));
  return { direction: named ?? 'down', amount };
}

/** A target element named by the record (an element's words, an index). */
function targetOf(record: Json): string | undefined {
  const t = record.target ?? record.element ?? record.element_description ?? record.description;
  if (typeof t === 'string' && t.trim()) return t.trim();
  const index = num(record.index ?? record.element_index ?? record.element_id);
  return index !== null ? `element ${index}` : undefined;
}

/** One action from a record whose kind is known (a tool call's arguments, an OpenAI action object). */
function actionOfRecord(kind: KindInfo, record: Json, name: string, source: string): GuiAction {
  const action: GuiAction = { kind: kind.kind, source };
  if (kind.button) action.button = kind.button;
  if (kind.count) action.count = kind.count;
  if (record.button === 'right' || record.button === 'middle') action.button = record.button;
  if (record.button === 'wheel') action.button = 'middle';
  const units = unitsOf(record);
  const at = pointIn(record);
  const box = boxIn(record);
  if (kind.kind === 'drag') {
    const path = Array.isArray(record.path) ? record.path.map(pairOf).filter((p): p is Pair => p !== null) : [];
    const start = path[0] ?? pairOf(record.start_coordinate ?? record.start ?? record.from ?? record.start_point) ?? pointIn(record, ['start_box'])?.point ?? null;
    const end = path.length > 1 ? path[path.length - 1]! : (pairOf(record.coordinate ?? record.end ?? record.to ?? record.end_point ?? record.end_coordinate) ?? pointIn(record, ['end_box'])?.point ?? null);
    if (start) action.point = start;
    if (end) action.to = end;
  } else if (at) action.point = at.point;
  if (box) action.box = box.box;
  const u = units ?? at?.units ?? box?.units;
  if (u) action.units = u;
  const text = str(record.text ?? record.value ?? record.content ?? record.option ?? record.url ?? record.answer);
  if (kind.kind === 'key') {
    const keys = keysOf(record.keys ?? record.key ?? record.text ?? record.hotkey);
    if (keys?.length) action.keys = keys;
  } else if (text !== undefined && text !== '' && kind.kind !== 'scroll') action.text = text;
  if (kind.kind === 'scroll') action.scroll = scrollOf(record, name);
  const target = targetOf(record);
  if (target) action.target = target;
  return action;
}

/** The kinds of Anthropic's computer tool `action` words. */
const ANTHROPIC: Record<string, KindInfo | null> = {
  left_click: { kind: 'click' },
  right_click: { kind: 'click', button: 'right' },
  middle_click: { kind: 'click', button: 'middle' },
  double_click: { kind: 'double_click' },
  triple_click: { kind: 'click', count: 3 },
  mouse_move: { kind: 'hover' },
  left_click_drag: { kind: 'drag' },
  type: { kind: 'type' },
  key: { kind: 'key' },
  hold_key: { kind: 'key' },
  scroll: { kind: 'scroll' },
  wait: { kind: 'wait' },
  screenshot: null,
  cursor_position: null,
  zoom: null,
  left_mouse_down: null,
  left_mouse_up: null,
};

/** OpenAI computer-use action types. */
const OPENAI: Record<string, KindInfo | null> = {
  click: { kind: 'click' },
  double_click: { kind: 'double_click' },
  move: { kind: 'hover' },
  drag: { kind: 'drag' },
  scroll: { kind: 'scroll' },
  type: { kind: 'type' },
  keypress: { kind: 'key' },
  wait: { kind: 'wait' },
  screenshot: null,
};

/**
 * The GUI actions of one tool call (none when the call is not a GUI action: a screenshot, a search, a
 * file edit). `args` as the file had them (a JSON string is parsed).
 */
export function actionsOfCall(name: string, args: unknown): GuiAction[] {
  const value = typeof args === 'string' ? (parseArguments(args) ?? args) : args;
  if (typeof value === 'string') return actionsOfCode(value);
  if (!isObject(value)) {
    const kind = kindOfName(name);
    return kind && (kind.kind === 'stop' || kind.kind === 'wait') ? [{ kind: kind.kind, source: `${name} call` }] : [];
  }
  // OpenAI computer use: {type, x, y…}, {action: {type…}} or {actions: [...]}.
  const openai = (a: unknown): GuiAction[] => {
    if (!isObject(a) || typeof a.type !== 'string' || !(a.type in OPENAI)) return [];
    const kind = OPENAI[a.type];
    return kind ? [actionOfRecord(kind, a, a.type, 'computer use action')] : [];
  };
  if (Array.isArray(value.actions)) return value.actions.flatMap(openai);
  if (isObject(value.action)) return openai(value.action);
  if (typeof value.type === 'string' && value.type in OPENAI) return openai(value);
  // Anthropic's computer tool: {action: "left_click", coordinate…}.
  if (typeof value.action === 'string' && value.action in ANTHROPIC) {
    const kind = ANTHROPIC[value.action];
    return kind ? [actionOfRecord(kind, value, value.action, `${name || 'computer'} tool`)] : [];
  }
  // Mind2Web's operation, as the call's arguments or under `operation`.
  const op = isObject(value.operation) ? value.operation : typeof value.op === 'string' ? value : null;
  if (op) {
    const found = actionOfOperation(op, value);
    if (found) return [found];
  }
  // Code in an argument (pyautogui, UI-TARS).
  for (const key of ['code', 'command', 'action', 'script']) {
    const code = str(value[key]);
    if (code) {
      const found = actionsOfCode(code);
      if (found.length) return found;
    }
  }
  // Mind2Web's and SeeAct's action text ("[button] Search -> CLICK") as the action.
  const repr = str(value.action) ?? str(value.action_repr);
  if (repr) {
    const found = actionOfRepr(repr);
    if (found) return [found];
  }
  // A tool named for what it does, or an `action` word naming it.
  const word = str(value.action) ?? str(value.action_type) ?? str(value.type) ?? name;
  const kind = kindOfName(word) ?? kindOfName(name);
  if (!kind) return [];
  return [actionOfRecord(kind, value, word, `${name || word} call`)];
}

/**
 * Mind2Web's operation {op, original_op, value} (op CLICK, TYPE or SELECT; original_op may say HOVER or
 * ENTER, which Mind2Web maps to CLICK) with the target box the record carries (`bounding_box_rect`
 * "x,y,width,height", a box key, or the first of pos_candidates).
 */
export function actionOfOperation(op: Json, record: Json = op): GuiAction | null {
  const word = (str(op.original_op) ?? str(op.op) ?? '').toUpperCase();
  const main = (str(op.op) ?? '').toUpperCase();
  const kinds: Record<string, GuiActionKind> = { CLICK: 'click', TYPE: 'type', SELECT: 'select', HOVER: 'hover', ENTER: 'key' };
  const kind = kinds[word] ?? kinds[main];
  if (!kind) return null;
  const action: GuiAction = { kind, source: 'Mind2Web operation' };
  const value = str(op.value);
  if (kind === 'key') action.keys = ['Enter'];
  else if (value && (kind === 'type' || kind === 'select')) action.text = value;
  const box = boxIn(record) ?? (isObject(record.target) ? boxIn(record.target) : null) ?? candidateBox(record.pos_candidates);
  if (box) action.box = box.box;
  const target = str(record.target) ?? str(record.element);
  if (target) action.target = target;
  return action;
}

const REPR = /^(.*?)\s*->\s*(CLICK|TYPE|SELECT|HOVER|PRESS ENTER|ENTER|SCROLL UP|SCROLL DOWN|SCROLL LEFT|SCROLL RIGHT)\b\s*:?\s*([\s\S]*)$/i;

/**
 * Mind2Web's and SeeAct's action text: the target, an arrow, the operation and its value ("[button]  Search
 * -> CLICK", "[combobox]  From -> TYPE: New York", "<a> Help -> CLICK"); null for other text.
 */
export function actionOfRepr(text: string): GuiAction | null {
  const m = REPR.exec(text.trim());
  if (!m) return null;
  const op = m[2]!.toUpperCase();
  const target = m[1]!.replace(/\s+/g, ' ').trim();
  const value = m[3]!.trim();
  const action: GuiAction = op.startsWith('SCROLL')
    ? { kind: 'scroll', scroll: { direction: op.slice(7).toLowerCase() as ScrollDirection, amount: null }, source: 'action text' }
    : op.endsWith('ENTER')
      ? { kind: 'key', keys: ['Enter'], source: 'action text' }
      : { kind: op === 'CLICK' ? 'click' : op === 'TYPE' ? 'type' : op === 'SELECT' ? 'select' : 'hover', source: 'action text' };
  if (value && (action.kind === 'type' || action.kind === 'select')) action.text = value;
  if (target) action.target = target;
  return action;
}

/** The box of Mind2Web's first positive candidate: {"attributes": "{\"bounding_box_rect\": \"x,y,w,h\"}"} (a JSON string, or parsed). */
export function candidateBox(candidates: unknown): { box: Box } | null {
  const first = Array.isArray(candidates) ? candidates[0] : undefined;
  const candidate = typeof first === 'string' ? parseArguments(first) : first;
  if (!isObject(candidate)) return null;
  const attributes = typeof candidate.attributes === 'string' ? parseArguments(candidate.attributes) : candidate.attributes;
  const rect = isObject(attributes) ? attributes.bounding_box_rect : candidate.bounding_box_rect;
  const box = boxOf(rect, true);
  return box ? { box } : null;
}

/**
 * The GUI actions of a turn: its tool calls; else the action the step recorded (the file's own fields
 * kept on the action message: Mind2Web's `operation`, an `action` object or code); else pyautogui /
 * UI-TARS lines in the agent's text.
 */
export function turnActions(messages: readonly ChatMessage[], turn: Turn): GuiAction[] {
  const fromCalls = turn.calls.flatMap((c) => actionsOfCall(c.name, c.parsed ?? c.arguments));
  if (fromCalls.length) return fromCalls;
  const action = messages[turn.action];
  if (!action) return [];
  const rest = arbiterFields(action).rest;
  if (rest) {
    if (isObject(rest.operation)) {
      const found = actionOfOperation(rest.operation, rest);
      if (found) return [found];
    }
    if (isObject(rest.action) || typeof rest.action === 'string') {
      const found = actionsOfCall('', typeof rest.action === 'string' ? { action: rest.action } : rest.action);
      if (found.length) return found;
    }
  }
  const text = typeof action.content === 'string' ? action.content : '';
  return text ? actionsOfCode(text) : [];
}

/** Where an image part is: its message's index in the trajectory and the part's index in the message. */
export interface ScreenRef {
  message: number;
  part: number;
  image: ImagePart;
}

/** The images of message `i`, in order, with where each is. */
export function imagesOfMessage(messages: readonly ChatMessage[], i: number): ScreenRef[] {
  const content = messages[i]?.content;
  if (!Array.isArray(content)) return [];
  const out: ScreenRef[] = [];
  content.forEach((part, p) => {
    if (isImagePart(part)) out.push({ message: i, part: p, image: part });
  });
  return out;
}

/**
 * The screenshots of a turn (see the file's head): `before`, the last image before the action message (the
 * screen the action was chosen on; `inTurn` when it is in the turn's own context, else it is an earlier
 * turn's result), and `after`, the images in the turn's results.
 */
export function turnScreens(messages: readonly ChatMessage[], turn: Turn): { before: (ScreenRef & { inTurn: boolean }) | null; after: ScreenRef[] } {
  let before: (ScreenRef & { inTurn: boolean }) | null = null;
  for (let i = turn.action - 1; i >= 0 && !before; i--) {
    const images = imagesOfMessage(messages, i);
    const last = images[images.length - 1];
    if (last) before = { ...last, inTurn: turn.context.includes(i) };
  }
  const after = turn.results.flatMap((i) => imagesOfMessage(messages, i));
  return { before, after };
}

/** Whether a trajectory looks like a GUI agent's: some turn has a GUI action and some message an image. */
export function isGuiTrajectory(messages: readonly ChatMessage[], turns: readonly Turn[]): boolean {
  return messages.some((_, i) => imagesOfMessage(messages, i).length > 0) && turns.some((t) => turnActions(messages, t).length > 0);
}
