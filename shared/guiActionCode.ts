// GUI actions written as code: pyautogui calls (`pyautogui.click(x=100, y=200)`, doubleClick, rightClick,
// moveTo, dragTo, scroll, write / typewrite, press, hotkey) and UI-TARS-style calls (`click(start_box='(100,200)')`,
// `type(content='…')`, `scroll(start_box=…, direction='down')`, `drag(start_box, end_box)`, `hotkey(key=…)`,
// `finished()`), one call per line; other lines (imports, prints, prose) are skipped. Pure.
import { boxOf, centre, DIRECTIONS, keysOf, num, numbersIn, pairOf, str, type GuiAction, type Json, type KindInfo, type Pair, type ScrollDirection } from './guiActionModel';

/** Function names that code may call, and what they do (pyautogui's and UI-TARS's). */
const CODE_CALLS: Record<string, KindInfo> = {
  click: { kind: 'click' },
  left_single: { kind: 'click' },
  leftclick: { kind: 'click' },
  doubleclick: { kind: 'double_click' },
  left_double: { kind: 'double_click' },
  double_click: { kind: 'double_click' },
  tripleclick: { kind: 'click', count: 3 },
  rightclick: { kind: 'click', button: 'right' },
  right_single: { kind: 'click', button: 'right' },
  right_click: { kind: 'click', button: 'right' },
  middleclick: { kind: 'click', button: 'middle' },
  moveto: { kind: 'hover' },
  hover: { kind: 'hover' },
  dragto: { kind: 'drag' },
  drag: { kind: 'drag' },
  scroll: { kind: 'scroll' },
  hscroll: { kind: 'scroll' },
  vscroll: { kind: 'scroll' },
  write: { kind: 'type' },
  typewrite: { kind: 'type' },
  type: { kind: 'type' },
  press: { kind: 'key' },
  hotkey: { kind: 'key' },
  keydown: { kind: 'key' },
  select: { kind: 'select' },
  wait: { kind: 'wait' },
  finished: { kind: 'stop' },
  call_user: { kind: 'stop' },
};

const CALL_LINE = /^\s*(?:Action:\s*)?(?:(pyautogui)\.)?([A-Za-z_]+)\((.*)\)\s*;?\s*$/;

interface CodeArgs {
  positional: (string | number | number[])[];
  named: Json;
}

/** A call's argument list: numbers, quoted strings (with \\ escapes), tuples / lists of numbers, name=value. */
function codeArgs(text: string): CodeArgs | null {
  const out: CodeArgs = { positional: [], named: {} };
  let i = 0;
  const skip = () => {
    while (i < text.length && /[\s,]/.test(text[i]!)) i++;
  };
  const value = (): string | number | number[] | null => {
    const c = text[i];
    if (c === "'" || c === '"') {
      let s = '';
      i++;
      while (i < text.length && text[i] !== c) {
        if (text[i] === '\\' && i + 1 < text.length) {
          const e = text[i + 1]!;
          s += e === 'n' ? '\n' : e === 't' ? '\t' : e;
          i += 2;
        } else s += text[i++];
      }
      i++;
      return s;
    }
    if (c === '(' || c === '[') {
      const end = text.indexOf(c === '(' ? ')' : ']', i);
      if (end < 0) return null;
      const inner = text.slice(i + 1, end);
      i = end + 1;
      return numbersIn(inner);
    }
    const m = /^-?\d+(?:\.\d+)?/.exec(text.slice(i));
    if (m) {
      i += m[0].length;
      return Number(m[0]);
    }
    const word = /^[A-Za-z_][\w.]*/.exec(text.slice(i));
    if (word) {
      i += word[0].length;
      return word[0];
    }
    return null;
  };
  skip();
  while (i < text.length) {
    const name = /^([A-Za-z_]\w*)\s*=\s*/.exec(text.slice(i));
    if (name) i += name[0].length;
    const v = value();
    if (v === null) return null;
    if (name) out.named[name[1]!] = v;
    else out.positional.push(v);
    skip();
  }
  return out;
}

/** Actions written as code: pyautogui calls or UI-TARS-style calls, one per line (other lines are skipped). */
export function actionsOfCode(code: string): GuiAction[] {
  const actions: GuiAction[] = [];
  for (const line of code.split(/\n|;(?=\s*(?:pyautogui\.|[a-z_]+\())/)) {
    const m = CALL_LINE.exec(line.replace(/^```\w*|```$/g, ''));
    if (!m) continue;
    const pyautogui = m[1] !== undefined;
    const kind = CODE_CALLS[m[2]!.toLowerCase()];
    if (!kind) continue;
    // A bare name that is no GUI call of UI-TARS's (print(…)) is not an action; pyautogui's are.
    const args = codeArgs(m[3]!);
    if (!args) continue;
    const source = pyautogui ? 'pyautogui code' : 'action code';
    const action: GuiAction = { kind: kind.kind, source };
    if (kind.button) action.button = kind.button;
    if (kind.count) action.count = kind.count;
    const { positional: p, named } = args;
    const nums = p.filter((v): v is number => typeof v === 'number');
    const first = (...keys: string[]) => keys.map((k) => named[k]).find((v) => v !== undefined);
    const pointFrom = (v: unknown): Pair | null => {
      const four = Array.isArray(v) ? v.length === 4 : typeof v === 'string' && numbersIn(v).length === 4;
      const box = four ? boxOf(v) : null;
      return box ? centre(box) : pairOf(v);
    };
    const x = num(first('x'));
    const y = num(first('y'));
    if (kind.kind === 'scroll') {
      const clicks = num(first('clicks', 'amount')) ?? nums[0] ?? null;
      const direction = str(first('direction'));
      if (direction && (DIRECTIONS as string[]).includes(direction)) action.scroll = { direction: direction as ScrollDirection, amount: clicks };
      // pyautogui: positive clicks scroll up; hscroll: positive is right.
      else action.scroll = m[2]!.toLowerCase() === 'hscroll' ? { direction: (clicks ?? 0) >= 0 ? 'right' : 'left', amount: clicks === null ? null : Math.abs(clicks) } : { direction: (clicks ?? 0) > 0 ? 'up' : 'down', amount: clicks === null ? null : Math.abs(clicks) };
      const at = x !== null && y !== null ? ([x, y] as Pair) : nums.length >= 3 ? ([nums[1]!, nums[2]!] as Pair) : pointFrom(first('start_box', 'point'));
      if (at) action.point = at;
    } else if (kind.kind === 'type') {
      const text = str(first('content', 'text', 'message', 'string')) ?? p.find((v): v is string => typeof v === 'string');
      if (text !== undefined) action.text = text;
    } else if (kind.kind === 'key') {
      const named = str(first('key', 'keys', 'hotkey'));
      const keys = named ? keysOf(named) : p.filter((v): v is string => typeof v === 'string');
      if (keys?.length) action.keys = keys;
    } else if (kind.kind === 'drag') {
      const start = pointFrom(first('start_box', 'start_point'));
      const end = pointFrom(first('end_box', 'end_point')) ?? (x !== null && y !== null ? [x, y] : nums.length >= 2 ? [nums[0]!, nums[1]!] : null);
      if (start) action.point = start;
      if (end) action.to = end as Pair;
    } else if (kind.kind === 'stop') {
      const text = str(first('content', 'answer')) ?? p.find((v): v is string => typeof v === 'string');
      if (text) action.text = text;
    } else {
      const at = x !== null && y !== null ? ([x, y] as Pair) : pointFrom(first('start_box', 'point', 'box')) ?? (nums.length >= 2 ? ([nums[0]!, nums[1]!] as Pair) : (p.find((v): v is number[] => Array.isArray(v)) ? pointFrom(p.find((v) => Array.isArray(v))) : null));
      if (at) action.point = at;
      if (kind.kind === 'select') {
        const text = str(first('value', 'option', 'text')) ?? p.find((v): v is string => typeof v === 'string');
        if (text) action.text = text;
      }
    }
    actions.push(action);
  }
  return actions;
}
