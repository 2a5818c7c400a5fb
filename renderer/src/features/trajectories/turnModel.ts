// What a turn card shows, worked out once per trajectory (kept per message list, so a turn card, the
// minimap and the compare columns share it): for each agent turn of shared/trajectory.ts, the agent's
// text, its tool calls (pretty arguments, a code edit when the arguments hold one, a shell command) and
// the results that answer them (size, lines, terminal output, errors and exit codes). Pure.
import type { ChatMessage } from '../../../../shared/domain';
import { imagesOfMessage, turnActions, turnScreens, type GuiAction, type ScreenRef } from '../../../../shared/guiActions';
import { isImagePart } from '../../../../shared/images';
import { plural } from '../../../../shared/plural';
import { arbiterFields, messageContentText, parseArguments, trajectoryTurns, type Turn, type TrajectoryMessage } from '../../../../shared/trajectory';

/** A code edit found in a call's arguments. */
export type Edit =
  | { kind: 'replace'; path: string | null; before: string; after: string }
  | { kind: 'create'; path: string | null; text: string }
  /** New text for a range of lines; `replaced`: how many lines it replaces (0 for an insert, null when unknown). */
  | { kind: 'lines'; path: string | null; range: string | null; replaced: number | null; text: string }
  | { kind: 'patch'; path: string | null; text: string };

export interface CallView {
  name: string;
  id: string | null;
  /** The arguments pretty-printed as JSON, or as the file had them when they are not JSON. */
  args: string;
  argsAreJson: boolean;
  /** A shell command the call runs (bash / execute tools, SWE-agent actions), shown as a terminal line. */
  command: string | null;
  edit: Edit | null;
}

export interface ResultView {
  /** Index of the message in the trajectory. */
  message: number;
  role: string;
  name: string | null;
  text: string;
  bytes: number;
  lines: number;
  terminal: boolean;
  /** Prose (long lines) wraps; code, listings and logs keep their lines and scroll sideways. */
  wrap: boolean;
  error: boolean;
  exitCode: number | null;
}

export interface TurnView {
  turn: Turn;
  /** User (or system) messages just before the action: context, not rated (`message`: its index, for its images). */
  context: { role: string; text: string; message: number }[];
  /** The agent's own text (its thought, when it also calls tools). */
  said: string;
  thought: boolean;
  calls: CallView[];
  results: ResultView[];
  /** Characters the turn holds (its text, arguments and results): what the minimap sizes it by. */
  size: number;
  /** Some result is an error, or exited non-zero. */
  error: boolean;
  /** A GUI agent's screen actions (shared/guiActions.ts), drawn on `screens.before`. */
  actions: GuiAction[];
  /** The screenshot the action was taken on (the last image before it) and the images of its results. */
  screens: { before: (ScreenRef & { inTurn: boolean }) | null; after: ScreenRef[] };
  /** Every image of the turn's own messages (context and results), in reading order. */
  images: ScreenRef[];
}

export interface TrajectoryView {
  turns: TurnView[];
  /** Bytes of tool output in the whole trajectory. */
  outputBytes: number;
}

const SHELL_TOOLS = /^(bash|sh|zsh|shell|terminal|execute|execute_bash|execute_command|execute_shell|run|run_command|run_shell_command|cmd|command|exec|ipython|python|cmd_run|run_ipython)$/i;
const COMMAND_KEYS = ['command', 'cmd', 'script', 'code'] as const;
const EDIT_TOOLS = /(str_replace|edit|write|create|patch|apply|file)/i;

const encoder = new TextEncoder();

/** UTF-8 bytes of a text, counted without encoding long texts twice. */
export function utf8Bytes(text: string): number {
  if (text.length < 4096) return encoder.encode(text).length;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

export function lineCount(text: string): number {
  if (!text) return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

/** "812 B", "2.1 kB", "1.4 MB" and the line count: what a folded result says about itself. */
export function sizeWords(bytes: number, lines: number): string {
  const size = bytes < 1000 ? `${bytes} B` : bytes < 1_000_000 ? `${(bytes / 1000).toFixed(1)} kB` : `${(bytes / 1_000_000).toFixed(1)} MB`;
  return `${size}, ${lines.toLocaleString('en-US')} ${lines === 1 ? 'line' : 'lines'}`;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Shell words of SWE-agent's `str_replace_editor <command> <path> --old_str '…' --new_str '…'` (single, double or no quotes). */
function shellArgs(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length) break;
    let word = '';
    while (i < text.length && !/\s/.test(text[i]!)) {
      const q = text[i]!;
      if (q === "'" || q === '"') {
        const end = text.indexOf(q, i + 1);
        if (end < 0) {
          word += text.slice(i + 1);
          i = text.length;
        } else {
          word += text.slice(i + 1, end);
          i = end + 1;
        }
      } else word += text[i++];
    }
    out.push(word);
  }
  return out;
}

function editOfAction(action: string): Edit | null {
  const trimmed = action.trim();
  if (/^str_replace_editor\s/.test(trimmed)) {
    const words = shellArgs(trimmed);
    const flag = (name: string) => {
      const i = words.indexOf(`--${name}`);
      return i >= 0 ? (words[i + 1] ?? '') : null;
    };
    const path = words[2] ?? null;
    if (words[1] === 'str_replace' && flag('old_str') !== null) return { kind: 'replace', path, before: flag('old_str')!, after: flag('new_str') ?? '' };
    if (words[1] === 'create' && flag('file_text') !== null) return { kind: 'create', path, text: flag('file_text')! };
    if (words[1] === 'insert' && flag('new_str') !== null) return { kind: 'lines', path, range: flag('insert_line') ? `after line ${flag('insert_line')}` : null, replaced: 0, text: flag('new_str')! };
    return null;
  }
  // SWE-agent's classic `edit 10:12` … `end_of_edit`: the new text of lines 10 to 12.
  const edit = /^edit\s+(\d+):(\d+)\n([\s\S]*?)\n?end_of_edit\s*$/.exec(trimmed);
  if (edit) return { kind: 'lines', path: null, range: `lines ${edit[1]}–${edit[2]}`, replaced: Math.max(0, Number(edit[2]) - Number(edit[1]) + 1), text: edit[3]! };
  if (/^(diff --git |--- \S)/m.test(trimmed) && /^@@ /m.test(trimmed)) return { kind: 'patch', path: null, text: trimmed };
  return null;
}

function editOf(name: string, args: Record<string, unknown>): Edit | null {
  const path = str(args.path) ?? str(args.file_path) ?? str(args.filename) ?? str(args.file) ?? null;
  const before = str(args.old_str) ?? str(args.old_string) ?? str(args.old) ?? str(args.search);
  const after = str(args.new_str) ?? str(args.new_string) ?? str(args.new) ?? str(args.replace);
  if (before !== null && after !== null) return { kind: 'replace', path, before, after };
  const patch = str(args.patch) ?? str(args.diff) ?? str(args.unified_diff);
  if (patch !== null && patch.includes('\n')) return { kind: 'patch', path, text: patch };
  const command = str(args.command);
  const text = str(args.file_text) ?? str(args.content) ?? str(args.contents);
  if (text !== null && (command === 'create' || /write|create/i.test(name))) return { kind: 'create', path, text };
  if (command === 'insert' && after !== null) return { kind: 'lines', path, range: args.insert_line !== undefined ? `after line ${String(args.insert_line)}` : null, replaced: 0, text: after };
  if (command === 'insert' && str(args.new_str) !== null) return { kind: 'lines', path, range: null, replaced: 0, text: str(args.new_str)! };
  const action = str(args.action);
  if (action !== null) return editOfAction(action);
  if (EDIT_TOOLS.test(name)) {
    const input = str(args.input);
    if (input !== null) return editOfAction(input);
  }
  return null;
}

function commandOf(name: string, args: unknown): string | null {
  if (typeof args === 'string') return SHELL_TOOLS.test(name) ? args : null;
  if (!args || typeof args !== 'object' || Array.isArray(args)) return null;
  const record = args as Record<string, unknown>;
  const keys = Object.keys(record);
  // SWE-agent: the whole action line is the one argument.
  if (keys.length === 1 && keys[0] === 'action' && typeof record.action === 'string') return record.action;
  if (!SHELL_TOOLS.test(name)) return null;
  for (const k of COMMAND_KEYS) if (typeof record[k] === 'string') return record[k];
  return null;
}

/**
 * JSON indented by two, with a short list or object of plain values kept on one line (`"view_range": [1, 40]`,
 * not four lines): the way a person would write the arguments.
 */
export function prettyJson(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? String(value);
  const entries = Array.isArray(value) ? value.map((v) => [null, v] as const) : Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, v] as const);
  if (!entries.length) return Array.isArray(value) ? '[]' : '{}';
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  const flat = entries.every(([, v]) => v === null || typeof v !== 'object');
  if (flat && indent) {
    const line = `${open}${entries.map(([k, v]) => `${k === null ? '' : `${JSON.stringify(k)}: `}${JSON.stringify(v)}`).join(', ')}${close}`;
    if (line.length <= 60) return line;
  }
  const inner = `${indent}  `;
  return `${open}\n${entries.map(([k, v]) => `${inner}${k === null ? '' : `${JSON.stringify(k)}: `}${prettyJson(v, inner)}`).join(',\n')}\n${indent}${close}`;
}

function callView(call: Turn['calls'][number]): CallView {
  const value = call.parsed ?? (typeof call.arguments === 'string' ? undefined : call.arguments);
  const isJson = value !== undefined && !(typeof call.arguments === 'string' && parseArguments(call.arguments) === undefined);
  const args = isJson ? prettyJson(value) : String(call.arguments ?? '');
  const record = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  const edit = record ? editOf(call.name, record) : null;
  return { name: call.name, id: call.id, args, argsAreJson: isJson, command: edit ? null : commandOf(call.name, value), edit };
}

/** An exit code the message gives (a field, the file's own fields, or the words a shell tool prints). */
function exitCodeOf(message: ChatMessage, text: string): number | null {
  const m = message as TrajectoryMessage & { exit_code?: unknown; metadata?: { exit_code?: unknown } };
  const rest = arbiterFields(message).rest as { extras?: { exit_code?: unknown; metadata?: { exit_code?: unknown } }; exit_code?: unknown } | undefined;
  for (const v of [m.exit_code, m.metadata?.exit_code, rest?.exit_code, rest?.extras?.exit_code, rest?.extras?.metadata?.exit_code]) if (typeof v === 'number' && Number.isInteger(v)) return v;
  const tail = text.length > 400 ? text.slice(-400) : text;
  const said = /(?:exit(?:ed)? (?:with )?(?:code|status)|return code|exit_code)[:= ]+(-?\d+)\]?\s*$/i.exec(tail);
  return said ? Number(said[1]) : null;
}

function isErrorMessage(message: ChatMessage): boolean {
  const m = message as TrajectoryMessage & { is_error?: unknown; error?: unknown };
  return arbiterFields(message).kind === 'error' || m.is_error === true || (typeof m.error === 'string' && m.error.length > 0);
}

// Images are drawn as images (TurnScreens.tsx), not named in the text.
const text = (m: ChatMessage) => messageContentText(Array.isArray(m.content) ? m.content.filter((p) => !isImagePart(p)) : (m.content as string | null));

function turnView(messages: readonly ChatMessage[], turn: Turn): TurnView {
  const action = messages[turn.action]!;
  const said = text(action);
  const calls = turn.calls.map(callView);
  const terminalCalls = new Set(turn.calls.map((c, i) => (calls[i]!.command !== null ? c.result : null)).filter((r): r is number => r !== null));
  const shellTurn = calls.some((c) => c.command !== null);
  let size = said.length;
  for (const c of calls) size += c.args.length;
  const results: ResultView[] = turn.results.map((i) => {
    const m = messages[i]!;
    const body = text(m);
    size += body.length;
    const exitCode = exitCodeOf(m, body);
    const answered = turn.calls.find((c) => c.result === i);
    // Output of a shell command: the result of a command call, or an observation after one.
    const terminal = terminalCalls.has(i) || (shellTurn && !answered && m.role !== 'user');
    return {
      message: i,
      role: m.role,
      name: (m as TrajectoryMessage).name ?? answered?.name ?? null,
      text: body,
      bytes: utf8Bytes(body),
      lines: lineCount(body),
      terminal,
      wrap: !terminal && body.length / Math.max(1, lineCount(body)) > 110,
      error: isErrorMessage(m) || (exitCode !== null && exitCode !== 0),
      exitCode,
    };
  });
  const context = turn.context.map((i) => ({ role: messages[i]!.role, text: text(messages[i]!), message: i }));
  for (const c of context) size += c.text.length;
  const screens = turnScreens(messages, turn);
  const actions = turnActions(messages, turn);
  const images = turn.messages.flatMap((i) => imagesOfMessage(messages, i));
  return { turn, context, said, thought: calls.length > 0 || arbiterFields(action).kind === 'thought', calls, results, size, error: turn.error || results.some((r) => r.error), actions, screens, images };
}

const cache = new WeakMap<readonly ChatMessage[], TrajectoryView>();

/** The turns of a trajectory as the cards show them; worked out once per message list. */
/** A column's header count: "2 turns · 1 tool call". */
export function trajectoryCounts(view: TrajectoryView): string {
  return `${plural(view.turns.length, 'turn')} · ${plural(view.turns.reduce((n, t) => n + t.calls.length, 0), 'tool call')}`;
}

export function trajectoryView(messages: readonly ChatMessage[]): TrajectoryView {
  const hit = cache.get(messages);
  if (hit) return hit;
  const turns = trajectoryTurns(messages).map((t) => turnView(messages, t));
  const view = { turns, outputBytes: turns.reduce((n, t) => n + t.results.reduce((m, r) => m + r.bytes, 0), 0) };
  cache.set(messages, view);
  return view;
}

/** Lines a folded result or argument shows before "… more". */
export const FOLDED_LINES = 6;
/** A result longer than this (lines, or characters on few lines) is folded. */
export function isLong(text: string, lines: number): boolean {
  return lines > FOLDED_LINES + 2 || text.length > 1200;
}

/** Whether `x` has anything to unfold on the turn: a long result, long arguments or a long command. */
export function foldable(view: TurnView): boolean {
  return view.results.some((r) => isLong(r.text, r.lines)) || view.calls.some((c) => !c.edit && isLong(c.command ?? c.args, lineCount(c.command ?? c.args)));
}

/** The first lines of a long text (and at most some characters of them): what a folded block renders. */
export function foldedHead(text: string, lines = FOLDED_LINES): string {
  let end = -1;
  for (let k = 0; k < lines; k++) {
    const next = text.indexOf('\n', end + 1);
    if (next < 0) {
      end = text.length;
      break;
    }
    end = next;
  }
  if (end < 0) end = text.length;
  return text.slice(0, Math.min(end, 160 * lines));
}
