// shared/guiActions.ts: a GUI agent's action read from its tool call (Anthropic's computer tool, OpenAI
// computer use, tools named for what they do), from Mind2Web's operation with the target's box, from
// pyautogui / UI-TARS code; placed on a screenshot as fractions (units told apart by the values and the
// image's size); and which screenshot of a turn it belongs to.
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../shared/domain';
import { actionOfOperation, actionOfRepr, actionsOfCall, actionsOfCode, actionWords, boxOf, candidateBox, placeAction, turnActions, turnScreens, type GuiAction } from '../../shared/guiActions';
import { trajectoryTurns } from '../../shared/trajectory';

const m = (message: Record<string, unknown>) => message as unknown as ChatMessage;
const image = (sha: string, width = 1280, height = 720) => ({ type: 'image', image: { sha256: sha.padEnd(64, '0'), mime: 'image/png', width, height, bytes: 100 }, origin: { kind: 'inline' } });

describe('actionsOfCall: tool calls', () => {
  it('Anthropic computer tool: left_click with coordinate, type, key, scroll, drag, right / double / triple click; screenshot is no action', () => {
    expect(actionsOfCall('computer', { action: 'left_click', coordinate: [412, 300] })).toEqual([{ kind: 'click', point: [412, 300], source: 'computer tool' }]);
    expect(actionsOfCall('computer', '{"action": "type", "text": "hello world"}')).toEqual([{ kind: 'type', text: 'hello world', source: 'computer tool' }]);
    expect(actionsOfCall('computer', { action: 'key', text: 'ctrl+s' })[0]).toMatchObject({ kind: 'key', keys: ['ctrl', 's'] });
    expect(actionsOfCall('computer', { action: 'scroll', coordinate: [640, 400], scroll_direction: 'down', scroll_amount: 3 })[0]).toMatchObject({ kind: 'scroll', point: [640, 400], scroll: { direction: 'down', amount: 3 } });
    expect(actionsOfCall('computer', { action: 'left_click_drag', start_coordinate: [10, 20], coordinate: [300, 400] })[0]).toMatchObject({ kind: 'drag', point: [10, 20], to: [300, 400] });
    expect(actionsOfCall('computer', { action: 'right_click', coordinate: [5, 6] })[0]).toMatchObject({ kind: 'click', button: 'right' });
    expect(actionsOfCall('computer', { action: 'double_click', coordinate: [5, 6] })[0]).toMatchObject({ kind: 'double_click' });
    expect(actionsOfCall('computer', { action: 'triple_click', coordinate: [5, 6] })[0]).toMatchObject({ kind: 'click', count: 3 });
    expect(actionsOfCall('computer', { action: 'mouse_move', coordinate: [5, 6] })[0]).toMatchObject({ kind: 'hover', point: [5, 6] });
    expect(actionsOfCall('computer', { action: 'screenshot' })).toEqual([]);
  });

  it('OpenAI computer use: click{x,y,button}, double_click, scroll{scroll_x,scroll_y}, keypress{keys}, drag{path}, under action / actions too', () => {
    expect(actionsOfCall('computer_use_preview', { type: 'click', x: 156, y: 50, button: 'left' })).toEqual([{ kind: 'click', point: [156, 50], source: 'computer use action' }]);
    expect(actionsOfCall('computer', { action: { type: 'click', x: 1, y: 2, button: 'right' } })[0]).toMatchObject({ kind: 'click', button: 'right', point: [1, 2] });
    expect(actionsOfCall('computer', { type: 'scroll', x: 300, y: 200, scroll_x: 0, scroll_y: -400 })[0]).toMatchObject({ kind: 'scroll', point: [300, 200], scroll: { direction: 'up', amount: 400 } });
    expect(actionsOfCall('computer', { type: 'keypress', keys: ['CTRL', 'L'] })[0]).toMatchObject({ kind: 'key', keys: ['CTRL', 'L'] });
    expect(actionsOfCall('computer', { type: 'drag', path: [{ x: 1, y: 2 }, { x: 5, y: 6 }, { x: 9, y: 10 }] })[0]).toMatchObject({ kind: 'drag', point: [1, 2], to: [9, 10] });
    expect(actionsOfCall('computer', { actions: [{ type: 'double_click', x: 3, y: 4 }, { type: 'type', text: 'hi' }, { type: 'screenshot' }] }).map((a) => a.kind)).toEqual(['double_click', 'type']);
    expect(actionsOfCall('computer', { type: 'screenshot' })).toEqual([]);
  });

  it('tools named for what they do, with a point, a box, an element, text; other tools are no GUI action', () => {
    expect(actionsOfCall('click', { x: 0.25, y: 0.5 })[0]).toMatchObject({ kind: 'click', point: [0.25, 0.5] });
    expect(actionsOfCall('click_element', { index: 12 })[0]).toMatchObject({ kind: 'click', target: 'element 12' });
    expect(actionsOfCall('input_text', { index: 3, text: 'Lyon' })[0]).toMatchObject({ kind: 'type', text: 'Lyon', target: 'element 3' });
    expect(actionsOfCall('tap', { bbox: [10, 20, 110, 60] })[0]).toMatchObject({ kind: 'click', box: [10, 20, 110, 60] });
    expect(actionsOfCall('select_option', { element: 'Country', value: 'France' })[0]).toMatchObject({ kind: 'select', text: 'France', target: 'Country' });
    expect(actionsOfCall('hover', { coordinate: [7, 8] })[0]).toMatchObject({ kind: 'hover', point: [7, 8] });
    expect(actionsOfCall('press_key', { key: 'Enter' })[0]).toMatchObject({ kind: 'key', keys: ['Enter'] });
    expect(actionsOfCall('scroll_down', { amount: 500 })[0]).toMatchObject({ kind: 'scroll', scroll: { direction: 'down', amount: 500 } });
    expect(actionsOfCall('go_to_url', { url: 'https://example.org' })[0]).toMatchObject({ kind: 'navigate', text: 'https://example.org' });
    expect(actionsOfCall('done', { text: 'Found it' })[0]).toMatchObject({ kind: 'stop', text: 'Found it' });
    expect(actionsOfCall('computer', { action: 'click', coordinate: [0.1, 0.2], coordinate_type: 'normalized' })[0]).toMatchObject({ kind: 'click', units: 'fraction' });
    expect(actionsOfCall('click', { normalized_coords: [500, 250] })[0]).toMatchObject({ point: [500, 250], units: 'permille' });
    expect(actionsOfCall('search', { query: 'weather' })).toEqual([]);
    expect(actionsOfCall('str_replace_editor', { command: 'view', path: '/a.py' })).toEqual([]);
    expect(actionsOfCall('bash', { command: 'ls -la' })).toEqual([]);
  });
});

describe('Mind2Web operation with the target box', () => {
  // From the dataset card (osunlp/Multimodal-Mind2Web): operation {op, original_op, value}; pos_candidates a
  // list of JSON strings whose `attributes` (a JSON string) holds bounding_box_rect "x,y,width,height".
  const candidate = JSON.stringify({ tag: 'button', attributes: JSON.stringify({ backend_node_id: '136', bounding_box_rect: '110.5,337.5,88.5,31' }) });
  it('CLICK, TYPE with its value, SELECT, HOVER and ENTER (original_op), the box from pos_candidates or bounding_box_rect', () => {
    expect(candidateBox([candidate])).toEqual({ box: [110.5, 337.5, 199, 368.5] });
    expect(actionOfOperation({ op: 'CLICK', original_op: 'CLICK', value: '' }, { pos_candidates: [candidate] })).toEqual({ kind: 'click', box: [110.5, 337.5, 199, 368.5], source: 'Mind2Web operation' });
    expect(actionOfOperation({ op: 'TYPE', value: 'New York' }, { bounding_box_rect: '10,20,100,30' })).toMatchObject({ kind: 'type', text: 'New York', box: [10, 20, 110, 50] });
    expect(actionOfOperation({ op: 'SELECT', value: 'Economy' })).toMatchObject({ kind: 'select', text: 'Economy' });
    expect(actionOfOperation({ op: 'CLICK', original_op: 'HOVER', value: '' })).toMatchObject({ kind: 'hover' });
    expect(actionOfOperation({ op: 'CLICK', original_op: 'ENTER', value: '' })).toMatchObject({ kind: 'key', keys: ['Enter'] });
    expect(actionOfOperation({ op: 'JUMP' })).toBeNull();
    // The action text Mind2Web (target_action_reprs) and SeeAct (Online-Mind2Web's action_history) write.
    expect(actionOfRepr('[combobox]  Flying from -> TYPE: New York')).toEqual({ kind: 'type', text: 'New York', target: '[combobox] Flying from', source: 'action text' });
    expect(actionOfRepr('<a> Help -> CLICK')).toMatchObject({ kind: 'click', target: '<a> Help' });
    expect(actionOfRepr('[svg]   -> CLICK')).toEqual({ kind: 'click', target: '[svg]', source: 'action text' });
    expect(actionOfRepr('-> SCROLL DOWN')).toMatchObject({ kind: 'scroll', scroll: { direction: 'down', amount: null } });
    expect(actionOfRepr('I clicked it')).toBeNull();
    expect(actionsOfCall('click', { action: '[button] Search -> CLICK' })[0]).toMatchObject({ kind: 'click', target: '[button] Search' });
    // As a tool call's arguments (the mind2web importer writes them so).
    expect(actionsOfCall('type', { op: 'TYPE', value: 'Paris', target: '[textbox] From', bounding_box_rect: '1,2,3,4' })[0]).toMatchObject({ kind: 'type', text: 'Paris', target: '[textbox] From', box: [1, 2, 4, 6] });
  });
});

describe('actionsOfCode: pyautogui and UI-TARS calls', () => {
  it('reads each call on its line, keyword or positional, and skips other code', () => {
    const code = "import pyautogui\npyautogui.click(x=100, y=200)\npyautogui.doubleClick(300, 400)\npyautogui.write('hello, world')\npyautogui.press('enter')\npyautogui.hotkey('ctrl', 'c')\npyautogui.scroll(-3)\npyautogui.moveTo(5, 6)\npyautogui.rightClick(7, 8)\nprint('x')\ntime.sleep(1)";
    const actions = actionsOfCode(code);
    expect(actions.map((a) => a.kind)).toEqual(['click', 'double_click', 'type', 'key', 'key', 'scroll', 'hover', 'click']);
    expect(actions[0]).toEqual({ kind: 'click', point: [100, 200], source: 'pyautogui code' });
    expect(actions[1]!.point).toEqual([300, 400]);
    expect(actions[2]!.text).toBe('hello, world');
    expect(actions[4]!.keys).toEqual(['ctrl', 'c']);
    expect(actions[5]!.scroll).toEqual({ direction: 'down', amount: 3 });
    expect(actions[7]).toMatchObject({ button: 'right', point: [7, 8] });
  });

  it('UI-TARS: start_box points and boxes, type(content), scroll direction, drag, hotkey, finished', () => {
    const [click, type, scroll, drag, hotkey, done] = actionsOfCode(
      "Action: click(start_box='(235,512)')\ntype(content='cats\\n')\nscroll(start_box='(500,500)', direction='down')\ndrag(start_box='(10,10)', end_box='(90,90)')\nhotkey(key='ctrl s')\nfinished(content='done')",
    );
    expect(click).toMatchObject({ kind: 'click', point: [235, 512] });
    expect(type).toMatchObject({ kind: 'type', text: 'cats\n' });
    expect(scroll).toMatchObject({ kind: 'scroll', point: [500, 500], scroll: { direction: 'down', amount: null } });
    expect(drag).toMatchObject({ kind: 'drag', point: [10, 10], to: [90, 90] });
    expect(hotkey).toMatchObject({ kind: 'key', keys: ['ctrl', 's'] });
    expect(done).toMatchObject({ kind: 'stop', text: 'done' });
    expect(actionsOfCode("click(start_box='[100,200,300,400]')")[0]!.point).toEqual([200, 300]);
    expect(actionsOfCall('execute', { code: 'pyautogui.click(1, 2)' })[0]).toMatchObject({ kind: 'click', point: [1, 2] });
  });

  it('prose is not code', () => {
    expect(actionsOfCode('I will click the Search button (it is blue) and then type the city.')).toEqual([]);
  });
});

describe('placeAction: fractions of the image', () => {
  const size = { width: 1280, height: 720 };
  const click = (point: [number, number], extra: Partial<GuiAction> = {}): GuiAction => ({ kind: 'click', point, source: 'test', ...extra });
  it('pixels are divided by the image size; fractions stay; thousandths past the image size', () => {
    expect(placeAction(click([640, 180]), size)).toMatchObject({ units: 'pixels', point: [0.5, 0.25], outside: null });
    expect(placeAction(click([0.5, 0.25]), size)).toMatchObject({ units: 'fraction', point: [0.5, 0.25] });
    const small = placeAction(click([900, 500]), { width: 800, height: 600 });
    expect(small).toMatchObject({ units: 'permille', point: [0.9, 0.5] });
    expect(small.unitsWhy).toMatch(/x 900 is past the image's 800 px width/);
    // A field said so: 500 is read as thousandths even on a big image.
    expect(placeAction(click([500, 500], { units: 'permille' }), size).point).toEqual([0.5, 0.5]);
  });

  it('a point outside the image is said so and drawn at its edge; a box gives its centre', () => {
    const out = placeAction(click([1500, 300]), size);
    expect(out.units).toBe('pixels');
    expect(out.point).toEqual([1, 300 / 720]);
    expect(out.outside).toBe('the click (1500, 300) is outside the 1280 × 720 screenshot');
    const boxed = placeAction({ kind: 'click', box: [100, 100, 300, 200], source: 'test' }, { width: 1000, height: 1000 });
    expect(boxed.box).toEqual([0.1, 0.1, 0.3, 0.2]);
    expect(boxed.point![0]).toBeCloseTo(0.2);
    expect(boxed.point![1]).toBeCloseTo(0.15);
    expect(placeAction({ kind: 'type', text: 'x', source: 'test' }, size).units).toBeNull();
  });

  it('boxOf: corners, x / y / width / height, a rect string', () => {
    expect(boxOf([10, 20, 30, 40])).toEqual([10, 20, 30, 40]);
    expect(boxOf([10, 20, 5, 5])).toEqual([10, 20, 15, 25]);
    expect(boxOf({ x: 1, y: 2, width: 3, height: 4 })).toEqual([1, 2, 4, 6]);
    expect(boxOf('110,337,88,31', true)).toEqual([110, 337, 198, 368]);
  });

  it('actionWords says it in a few words', () => {
    expect(actionWords({ kind: 'click', point: [412, 300], source: 't' })).toBe('click at (412, 300)');
    expect(actionWords({ kind: 'type', text: 'hello', target: '[textbox] Search', source: 't' })).toBe('type “hello” on [textbox] Search');
    expect(actionWords({ kind: 'scroll', scroll: { direction: 'down', amount: 3 }, source: 't' })).toBe('scroll down 3');
    expect(actionWords({ kind: 'key', keys: ['ctrl', 's'], source: 't' })).toBe('key ctrl+s');
    expect(actionWords({ kind: 'click', box: [900, 100, 1060, 140], target: '[button] Go', source: 't' })).toBe('click on [button] Go in the box (900, 100)–(1060, 140)');
    expect(actionWords({ kind: 'click', box: [900, 100, 1060, 140], target: '[button] Go', source: 't' }, true)).toBe('click');
  });
});

describe('turnActions and turnScreens', () => {
  it('the action is drawn on the last screenshot before it: the turn’s context, else the previous turn’s result', () => {
    // Mind2Web's layout: each step's screenshot is a user message before the action (the turn's context).
    const mind2web = [
      m({ role: 'user', content: [image('a')] }),
      m({ role: 'assistant', content: '[button] Search -> CLICK', tool_calls: [{ id: 's1', type: 'function', function: { name: 'click', arguments: { op: 'CLICK', value: '', bounding_box_rect: '1,2,3,4' } } }] }),
      m({ role: 'user', content: [image('b')] }),
      m({ role: 'assistant', content: '', tool_calls: [{ id: 's2', type: 'function', function: { name: 'type', arguments: { op: 'TYPE', value: 'Lyon' } } }] }),
    ];
    const turns = trajectoryTurns(mind2web);
    expect(turns).toHaveLength(2);
    expect(turnScreens(mind2web, turns[0]!).before).toMatchObject({ message: 0, part: 0, inTurn: true });
    expect(turnScreens(mind2web, turns[1]!).before).toMatchObject({ message: 2, inTurn: true });
    expect(turnActions(mind2web, turns[1]!)).toEqual([{ kind: 'type', text: 'Lyon', source: 'Mind2Web operation' }]);

    // A computer-use run: the screenshot comes back as the tool result; the next click is on it.
    const computer = [
      m({ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'computer', arguments: { action: 'screenshot' } } }] }),
      m({ role: 'tool', tool_call_id: 'c1', content: [image('c')] }),
      m({ role: 'assistant', content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'computer', arguments: '{"action": "left_click", "coordinate": [10, 20]}' } }] }),
      m({ role: 'tool', tool_call_id: 'c2', content: [{ type: 'text', text: 'clicked' }, image('d')] }),
    ];
    const [shot, clickTurn] = trajectoryTurns(computer);
    expect(turnActions(computer, shot!)).toEqual([]);
    expect(turnScreens(computer, clickTurn!)).toMatchObject({ before: { message: 1, part: 0, inTurn: false }, after: [{ message: 3, part: 1 }] });
    expect(turnActions(computer, clickTurn!)[0]).toMatchObject({ kind: 'click', point: [10, 20] });
  });

  it('the step’s recorded action (arbiter.rest) and pyautogui lines in the agent’s text', () => {
    const messages = [
      m({ role: 'assistant', content: 'Open it', arbiter: { rest: { operation: { op: 'CLICK', value: '' }, bounding_box_rect: '0,0,10,10' } } }),
      m({ role: 'assistant', content: 'Now the box.\n```python\npyautogui.click(x=0.3, y=0.7)\n```' }),
    ];
    const turns = trajectoryTurns(messages);
    expect(turnActions(messages, turns[0]!)[0]).toMatchObject({ kind: 'click', box: [0, 0, 10, 10] });
    expect(turnActions(messages, turns[1]!)[0]).toMatchObject({ kind: 'click', point: [0.3, 0.7], source: 'pyautogui code' });
  });
});
