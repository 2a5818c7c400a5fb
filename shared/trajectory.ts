// Agent trajectories: the data model, and how a message list becomes agent turns. Pure: the renderer (turn
// cards), the importers and exporters, the scorer and the label machinery all use these functions.
//
// The model (docs/formats.md, "Trajectories"):
// - A trajectory is a response whose content is an OpenAI-style message list: role system / user /
//   assistant / tool; an assistant message may carry `tool_calls: [{id, type: 'function', function: {name,
//   arguments}}]` (arguments kept exactly as the file had them: a JSON object, as TRL writes them, or a JSON
//   string, as OpenAI sends them; compare them with `sameArguments`); a tool message carries `tool_call_id`
//   and `name`. Content is a string, typed parts, or null (an assistant message that only calls tools).
// - What Arbiter needs beyond OpenAI's fields lives in one sub-object per message, `arbiter`
//   (ArbiterMessageFields): the file's own id of the turn or event, the agent (multi-agent traces), a kind
//   hint (thought / error / observation …), and `rest`: the fields of the file's own unit (a SWE-agent
//   step, an OpenHands event) that the message does not hold, so that an export gives the file back
//   exactly. `plainMessages` strips it for trainers.
// - The task (the leading system and user messages) is the item's prompt; each run of the task is one
//   response of the item. Everything the file had about a run beyond its messages (SWE-agent `info`,
//   τ-bench `reward`, OpenHands `test_result`) is kept in the item's metadata under `trajectory.runs[i]`.
// - The steps of a trajectory are its agent turns (`trajectoryTurns`): turn k is the k-th assistant message
//   (its text and tool calls), with the tool results and observations that follow it up to the next
//   assistant message. User messages before it (τ-bench's simulated user) are its context, not rated.
//   The response's segmentation (version 1, origin 'file') is the turns' `text` in order, so step label
//   k is turn k; `steps[k]` of that segmentation ↔ `trajectoryTurns(content)[k].id`, an id that is the
//   file's own (arbiter.id of the assistant message) or else derived from the turn's position and content,
//   so it is the same on every machine and every re-import. A derived id is not stored: it is a pure
//   function of the stored (never changed) content, `t<k>-` + FNV-1a of the canonical JSON of the turn's
//   messages without Arbiter's fields, and test/unit/trajectory.test.ts pins it; change it only with a
//   migration that stores the old ids.
import type { ChatMessage, Content, ContentPart } from './domain';

/** Kinds a turn card shows. */
export const TURN_KINDS = ['thought', 'tool_call', 'tool_result', 'message', 'error', 'observation', 'user'] as const;
export type TurnKind = (typeof TURN_KINDS)[number];

/** Arbiter's own fields on a trajectory message (`message.arbiter`); none of them is OpenAI's. */
export interface ArbiterMessageFields {
  /** The file's id of this message, step or event (a turn's id is its assistant message's). */
  id?: string;
  /** Which agent acted (multi-agent traces). */
  agent?: string;
  /** A hint the file gave: an error result, a bare observation, a thought with no action. */
  kind?: TurnKind;
  /** The file's unit (step, event) without what the message holds: the exporter puts it back. */
  rest?: Record<string, unknown>;
  /** Where in the file's unit the message's content came from (e.g. 'args.thought'), when it was there. */
  from?: string;
}

export interface ToolCall {
  id?: string;
  type?: string;
  function: { name: string; arguments: unknown };
  [extra: string]: unknown;
}

export interface TurnCall {
  /** The call's id, when it has one. */
  id: string | null;
  name: string;
  /** As the file had it (an object, or a JSON string). */
  arguments: unknown;
  /** The arguments parsed when they were a JSON string (null when they are not valid JSON). */
  parsed: unknown;
  /** Index of the tool message that answered it, or null. */
  result: number | null;
}

export interface Turn {
  /** Stable: the file's id, else `t<k>-<hash>` (position and content). */
  id: string;
  /** 0-based. */
  index: number;
  agent: string | null;
  /** Index of the assistant message that acts. */
  action: number;
  /** User (and other context) messages just before the action: shown with the turn, not rated. */
  context: number[];
  /** Tool results and observations after the action, up to the next assistant message. */
  results: number[];
  /** Every message of the turn in order: context, action, results. */
  messages: number[];
  calls: TurnCall[];
  kinds: TurnKind[];
  /** Some result is an error (a kind hint, or `is_error` / `error` on the message). */
  error: boolean;
  /** The turn's canonical text: the agent's text, then one line per call `name(arguments)`. */
  text: string;
}

export interface TrajectoryMessage extends ChatMessage {
  tool_calls?: ToolCall[] | null;
  tool_call_id?: string;
  name?: string;
  arbiter?: ArbiterMessageFields;
}

export function arbiterFields(message: ChatMessage): ArbiterMessageFields {
  const a = (message as TrajectoryMessage).arbiter;
  return a && typeof a === 'object' && !Array.isArray(a) ? a : {};
}

function toolCalls(message: ChatMessage): ToolCall[] {
  const calls = (message as TrajectoryMessage).tool_calls;
  return Array.isArray(calls) ? calls.filter((c): c is ToolCall => !!c && typeof c === 'object' && !!c.function && typeof c.function === 'object') : [];
}

/** A response is a trajectory when it is a message list with a tool call, a tool message or Arbiter's turn fields. */
export function isTrajectory(content: Content): content is TrajectoryMessage[] {
  if (!Array.isArray(content)) return false;
  return content.some((m) => m.role === 'tool' || toolCalls(m).length > 0 || (m as TrajectoryMessage).arbiter !== undefined);
}

/** A message's content as text (null content is ''). */
export function messageContentText(content: string | ContentPart[] | null | undefined): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((p) => (p.type === 'text' && typeof p.text === 'string' ? p.text : `[${p.type === 'image_url' ? 'image' : p.type || 'part'}]`)).join('\n');
}

/** Arguments as one line of JSON (a JSON string is parsed first, so both shapes read the same). */
export function argumentsText(args: unknown): string {
  const value = parseArguments(args);
  if (value === undefined) return typeof args === 'string' ? args : '';
  return JSON.stringify(value);
}

/** The arguments as a value: a JSON string parsed, an object as it is; undefined for a string that is not JSON. */
export function parseArguments(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return undefined;
  }
}

/** Two arguments are the same when they are the same JSON (a string and the object it encodes included). */
export function sameArguments(a: unknown, b: unknown): boolean {
  return canonical(parseArguments(a) ?? a) === canonical(parseArguments(b) ?? b);
}

/** JSON with object keys sorted, for comparing values. */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

/** FNV-1a, 32 bits, as 8 hex digits: a short fingerprint (not a security hash). */
export function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

function isErrorResult(message: ChatMessage): boolean {
  const m = message as TrajectoryMessage & { is_error?: unknown; error?: unknown };
  return arbiterFields(message).kind === 'error' || m.is_error === true || (typeof m.error === 'string' && m.error.length > 0);
}

/**
 * The agent turns of a trajectory (see the file's head). Messages before the first assistant message are
 * the first turn's context; user messages after the last assistant message join the last turn's results.
 * A list with no assistant message has no turns.
 */
export function trajectoryTurns(messages: readonly ChatMessage[]): Turn[] {
  const turns: Turn[] = [];
  let context: number[] = [];
  let current: Turn | null = null;
  const open = (i: number) => {
    const m = messages[i]!;
    const fields = arbiterFields(m);
    const turn: Turn = { id: '', index: turns.length, agent: fields.agent ?? null, action: i, context, results: [], messages: [...context, i], calls: [], kinds: [], error: false, text: '' };
    context = [];
    for (const call of toolCalls(m)) {
      const args = call.function.arguments;
      turn.calls.push({ id: typeof call.id === 'string' ? call.id : null, name: String(call.function.name ?? ''), arguments: args, parsed: typeof args === 'string' ? (parseArguments(args) ?? null) : args, result: null });
    }
    turns.push(turn);
    current = turn;
  };
  messages.forEach((m, i) => {
    if (m.role === 'assistant') return open(i);
    if (m.role === 'user' || m.role === 'system' || !current) {
      context.push(i);
      return;
    }
    const turn: Turn = current;
    turn.results.push(i);
    turn.messages.push(i);
    const callId = (m as TrajectoryMessage).tool_call_id;
    const answered = turn.calls.find((c) => c.result === null && (callId === undefined ? true : c.id === callId));
    if (answered && m.role === 'tool') answered.result = i;
  });
  // Trailing context (a simulated user's last words) belongs to the last turn.
  const last = turns[turns.length - 1];
  if (last && context.length) {
    last.results.push(...context);
    last.messages.push(...context);
  }
  for (const turn of turns) finish(turn, messages);
  return turns;
}

function finish(turn: Turn, messages: readonly ChatMessage[]): void {
  const action = messages[turn.action]!;
  const fields = arbiterFields(action);
  const said = messageContentText(action.content as string | ContentPart[] | null);
  const kinds = new Set<TurnKind>();
  if (turn.context.length) kinds.add('user');
  if (turn.calls.length) {
    if (said.trim()) kinds.add('thought');
    kinds.add('tool_call');
  } else kinds.add(fields.kind === 'thought' ? 'thought' : 'message');
  const answers = new Set(turn.calls.map((c) => c.result));
  for (const i of turn.results) {
    const m = messages[i]!;
    const error = isErrorResult(m);
    if (error) turn.error = true;
    kinds.add(error ? 'error' : answers.has(i) ? 'tool_result' : m.role === 'user' ? 'user' : (arbiterFields(m).kind ?? 'observation'));
  }
  turn.kinds = TURN_KINDS.filter((k) => kinds.has(k));
  const lines = said.trim() ? [said] : [];
  for (const call of turn.calls) lines.push(`${call.name}(${argumentsText(call.arguments)})`);
  turn.text = lines.join('\n') || `(${turn.kinds.join(', ')})`;
  turn.id = fields.id ?? `t${turn.index + 1}-${shortHash(canonical(turn.messages.map((i) => plainMessage(messages[i]!))))}`;
}

/** The turns' canonical texts: a trajectory's steps (its segmentation "by turn"). */
export function turnSteps(messages: readonly ChatMessage[]): string[] {
  return trajectoryTurns(messages).map((t) => t.text);
}

/** A message without Arbiter's fields (what a trainer reads). */
export function plainMessage(message: ChatMessage): ChatMessage {
  if (!('arbiter' in message)) return message;
  const out: ChatMessage = { role: message.role, content: message.content };
  for (const [k, v] of Object.entries(message)) if (k !== 'arbiter') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

export function plainMessages(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.map(plainMessage);
}

/**
 * What a process model sees for turn k (AgentPRM style): the task and every message before the turn's
 * action, as "role: text" blocks; the turn's own text is the step it scores.
 */
export function historyText(prompt: Content, messages: readonly ChatMessage[], turn: Turn): string {
  const blocks: string[] = [];
  const add = (m: ChatMessage) => {
    const calls = toolCalls(m).map((c) => `${c.function.name}(${argumentsText(c.function.arguments)})`);
    const text = [messageContentText(m.content as string | ContentPart[] | null), ...calls].filter((s) => s.trim()).join('\n');
    blocks.push(`${m.role}${m.role === 'tool' && (m as TrajectoryMessage).name ? ` (${(m as TrajectoryMessage).name})` : ''}: ${text}`);
  };
  if (typeof prompt === 'string') blocks.push(`user: ${prompt}`);
  else prompt.forEach(add);
  for (let i = 0; i < turn.action; i++) add(messages[i]!);
  return blocks.join('\n\n');
}
