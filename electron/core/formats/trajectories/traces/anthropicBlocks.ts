// Anthropic Messages content blocks (docs.anthropic.com, "Messages API" and "Tool use": a message is
// {"role": "user" | "assistant", "content": text or blocks}; blocks are {"type": "text", "text"},
// {"type": "image", "source"}, {"type": "tool_use", "id", "name", "input"}, {"type": "tool_result",
// "tool_use_id", "content", "is_error"}, {"type": "thinking", "thinking", "signature"},
// {"type": "redacted_thinking", "data"}), as Arbiter's trajectory messages and back, exactly. Shared by the
// anthropic-messages and claude-code formats.
//
// An assistant message is one message: its text and thinking blocks are text parts (a thinking part keeps
// its block as `anthropic`), its tool_use blocks are its tool calls (input as the arguments). A user message
// with tool_result blocks is one message per block: each tool_result a tool message answering its tool_use
// id (kind error when is_error), each other block a user message. Each message remembers its block index
// (`arbiter.rest.block`); block 0 carries the message's own fields beyond role and content.
import type { ChatMessage, ContentPart } from '../../../../../shared/domain';
import { arbiterFields, parseArguments, type ArbiterMessageFields, type ToolCall, type TrajectoryMessage } from '../../../../../shared/trajectory';
import { RecordError } from '../../types';
import { isPlainObject } from '../../validate';
import { describe, without, type Json } from '../common';

const BLOCK_TYPES = new Set(['tool_use', 'tool_result', 'thinking', 'redacted_thinking']);

/** Whether a message list is Anthropic's: some message's content is blocks with a tool_use, tool_result or thinking block. */
export function hasAnthropicBlocks(messages: unknown): boolean {
  return Array.isArray(messages) && messages.some((m) => isPlainObject(m) && Array.isArray(m.content) && m.content.some((b) => isPlainObject(b) && BLOCK_TYPES.has(b.type as string)));
}

function checkBlocks(content: unknown, where: string): Json[] {
  if (!Array.isArray(content)) throw new RecordError(`${where}: expected text or a list of content blocks, got ${describe(content)}`);
  content.forEach((b, i) => {
    if (!isPlainObject(b) || typeof b.type !== 'string') throw new RecordError(`${where}[${i}]: expected a content block with a "type"`);
    if (b.type === 'tool_use' && (typeof b.id !== 'string' || typeof b.name !== 'string' || !isPlainObject(b.input)))
      throw new RecordError(`${where}[${i}]: a tool_use block needs an "id", a "name" and an "input" object`);
    if (b.type === 'tool_result' && typeof b.tool_use_id !== 'string') throw new RecordError(`${where}[${i}].tool_use_id: expected the id of the tool_use it answers`);
    if (b.type === 'tool_result' && Array.isArray(b.content)) checkBlocks(b.content, `${where}[${i}].content`);
    if ((b.type === 'text' && typeof b.text !== 'string') || (b.type === 'thinking' && typeof b.thinking !== 'string'))
      throw new RecordError(`${where}[${i}]: a ${b.type} block needs its "${b.type}" as text`);
  });
  return content as Json[];
}

/** A block as a content part (thinking as text, the block beside it). */
function blockPart(block: Json): ContentPart {
  if (block.type === 'thinking' && typeof block.thinking === 'string') return { type: 'text', text: block.thinking, anthropic: without(block, ['thinking']) };
  if (block.type === 'redacted_thinking') return { type: 'text', text: '(redacted thinking)', anthropic: block };
  return block as ContentPart;
}

function partBlock(part: ContentPart): Json {
  const block = part.anthropic;
  if (!isPlainObject(block)) return part as Json;
  return block.type === 'thinking' ? { ...block, thinking: part.text } : block;
}

/**
 * One Anthropic message as trajectory messages. `first` is what the first of them keeps beside the message's
 * own fields (a session line's other fields); `fields` its id, agent.
 */
export function fromAnthropic(message: Json, where: string, first: Json = {}, fields: ArbiterMessageFields = {}): TrajectoryMessage[] {
  const role = message.role;
  if (role !== 'user' && role !== 'assistant') throw new RecordError(`${where}.role: expected "user" or "assistant", got ${JSON.stringify(role)}`);
  const own = without(message, ['role', 'content']);
  const rest = (block: number): Json => (block === 0 ? { ...first, message: own, block: 0 } : { block });
  const arbiter = (block: number, more: ArbiterMessageFields = {}): ArbiterMessageFields => ({ ...(block === 0 ? fields : { ...(fields.agent ? { agent: fields.agent } : {}) }), ...more, rest: rest(block) });
  if (typeof message.content === 'string') return [{ role, content: message.content, arbiter: arbiter(0) }];
  const blocks = checkBlocks(message.content, `${where}.content`);
  if (role === 'assistant') {
    const parts: ContentPart[] = [];
    const calls: ToolCall[] = [];
    const callsAt: number[] = [];
    blocks.forEach((b, i) => {
      if (b.type !== 'tool_use') return parts.push(blockPart(b));
      callsAt.push(i);
      const extra = without(b, ['type', 'id', 'name', 'input']);
      calls.push({ id: b.id as string, type: 'function', function: { name: b.name as string, arguments: b.input }, ...(Object.keys(extra).length ? { anthropic: extra } : {}) });
    });
    const m: TrajectoryMessage = { role, content: (parts.length ? parts : null) as unknown as ContentPart[], arbiter: arbiter(0, parts.length && parts.every((p) => isPlainObject(p.anthropic)) ? { kind: 'thought' } : {}) };
    if (calls.length) m.tool_calls = calls;
    // Where the tool_use blocks were, when not all at the end.
    if (callsAt.some((at, k) => at !== parts.length + k)) m.arbiter!.rest!.calls_at = callsAt;
    return [m];
  }
  if (!blocks.some((b) => b.type === 'tool_result')) return [{ role, content: blocks.map(blockPart), arbiter: arbiter(0) }];
  return blocks.map((b, i): TrajectoryMessage => {
    if (b.type !== 'tool_result') return { role: 'user', content: [blockPart(b)], arbiter: arbiter(i) };
    const content = b.content === undefined ? '' : b.content;
    if (!(typeof content === 'string' || Array.isArray(content))) throw new RecordError(`${where}.content[${i}].content: expected text or blocks, got ${describe(content)}`);
    const m: TrajectoryMessage = { role: 'tool', tool_call_id: b.tool_use_id as string, content: content as string | ContentPart[], arbiter: arbiter(i, b.is_error === true ? { kind: 'error' } : {}) };
    m.arbiter!.rest!.result = without(b, ['tool_use_id', 'content']);
    if (!('content' in b)) m.arbiter!.rest!.no_content = true;
    return m;
  });
}

/** Trajectory messages back as Anthropic messages, with what each one's first message kept (`first`). */
export function toAnthropic(messages: readonly ChatMessage[]): { message: Json; first: Json }[] {
  const out: { message: Json; first: Json; blocks: Json[] | null }[] = [];
  const ids: Ids = { open: [], made: 0 };
  for (const m of messages as TrajectoryMessage[]) {
    const rest = arbiterFields(m).rest ?? {};
    const block = typeof rest.block === 'number' ? rest.block : 0;
    const open = out[out.length - 1];
    if (block > 0 && open?.blocks) {
      open.blocks.push(...blocksOf(m, rest, ids));
      continue;
    }
    const own = isPlainObject(rest.message) ? rest.message : {};
    const first = without(rest, ['message', 'block', 'calls_at', 'result', 'no_content']);
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    if (typeof m.content === 'string' && !m.tool_calls?.length && m.role !== 'tool') {
      out.push({ message: { ...own, role, content: m.content }, first, blocks: null });
      continue;
    }
    const blocks = blocksOf(m, rest, ids);
    out.push({ message: { ...own, role, content: blocks }, first, blocks });
  }
  return out.map(({ message, first }) => ({ message, first }));
}

/** Arguments as the object Anthropic's `input` is (another format's JSON string parsed; anything else wrapped). */
export function argumentsObject(args: unknown): Json {
  const value = parseArguments(args);
  return isPlainObject(value) ? value : { arguments: args };
}

/** Calls not answered yet, in order: another format's tool message without a call id answers the first (ids made up where missing). */
interface Ids {
  open: string[];
  made: number;
}

function blocksOf(m: TrajectoryMessage, rest: Json, ids: Ids): Json[] {
  if (m.role === 'tool') {
    const id = typeof m.tool_call_id === 'string' ? m.tool_call_id : (ids.open[0] ?? `toolu_arbiter_${ids.made++}`);
    ids.open = ids.open.filter((o) => o !== id);
    const result: Json = { type: 'tool_result', ...(isPlainObject(rest.result) ? rest.result : {}), tool_use_id: id };
    if (rest.no_content !== true) result.content = m.content;
    return [result];
  }
  const parts = (Array.isArray(m.content) ? m.content : typeof m.content === 'string' && m.content ? [{ type: 'text', text: m.content }] : []).map(partBlock);
  const calls = (m.tool_calls ?? []).map((c) => ({ type: 'tool_use', id: typeof c.id === 'string' && c.id ? c.id : `toolu_arbiter_${ids.made++}`, name: c.function.name, input: argumentsObject(c.function.arguments), ...(isPlainObject(c.anthropic) ? c.anthropic : {}) }));
  ids.open.push(...calls.map((c) => c.id));
  const at = Array.isArray(rest.calls_at) ? (rest.calls_at as number[]) : null;
  if (!at || at.length !== calls.length) return [...parts, ...calls];
  const blocks: Json[] = [];
  let p = 0;
  let c = 0;
  for (let i = 0; i < parts.length + calls.length; i++) blocks.push(at.includes(i) ? calls[c++]! : parts[p++]!);
  return blocks;
}
