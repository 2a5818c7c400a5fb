// Inspect AI eval samples (`inspect-ai`), as an eval log holds them (inspect.aisi.org.uk, "Eval Logs" and
// the reference of inspect_ai.log.EvalSample and inspect_ai.model.ChatMessage): {"id", "epoch", "input",
// "target", "messages": [{"id", "role": "system" | "user" | "assistant" | "tool", "content": text or
// [{"type": "text", "text"} | {"type": "reasoning", "reasoning", "signature"} | …], "source", "model",
// "tool_calls": [{"id", "function": name, "arguments": {…}, "view"}], "tool_call_id", "function", "error":
// {"type", "message"} | null}], "output", "scores": {scorer: {"value", "answer", "explanation"}},
// "metadata", …}. One sample a record: a JSON Lines of samples, a .json array of them (the log's
// "samples", e.g. `inspect log dump log.eval | jq .samples`), or one sample file of a .eval archive.
//
// Import: the epochs of one sample (its id, anywhere in the file) are one item, each epoch a run. Messages
// map one to one (a tool call's `function` is its name, a tool message's `function` its name, a reasoning
// part a text part that keeps its block); the message id is the turn's id. The first scorer's value is the
// source's outcome (C / 1 / true success, I / 0 / false failure, P or between partial); the target is the
// reference. Every other field stays with the run (or the message) and is written back.
import type { ChatMessage, ContentPart, ItemRecord } from '../../../../../shared/domain';
import { arbiterFields, type ToolCall, type TrajectoryMessage } from '../../../../../shared/trajectory';
import { RecordError, type ParsedRecord } from '../../types';
import { isPlainObject } from '../../validate';
import { describe, mergeRuns, runFields, runMessages, runRecord, without, type Json, type Outcome } from '../common';
import { argumentsObject } from './anthropicBlocks';
import type { TraceDescriptor } from './descriptor';

const NAME = 'inspect-ai';

const toPart = (p: Json): ContentPart => (p.type === 'reasoning' && typeof p.reasoning === 'string' ? { type: 'text', text: p.reasoning, inspect: without(p, ['reasoning']) } : (p as ContentPart));
const fromPart = (p: ContentPart): Json => (isPlainObject(p.inspect) ? { ...p.inspect, reasoning: p.text } : p);

function toMessage(m: unknown, where: string): TrajectoryMessage {
  if (!isPlainObject(m)) throw new RecordError(`${where}: expected a message object, got ${describe(m)}`);
  if (!['system', 'user', 'assistant', 'tool'].includes(m.role as string)) throw new RecordError(`${where}.role: expected system, user, assistant or tool, got ${JSON.stringify(m.role)}`);
  const { content } = m;
  if (!(typeof content === 'string' || (Array.isArray(content) && content.every((p) => isPlainObject(p) && typeof p.type === 'string'))))
    throw new RecordError(`${where}.content: expected text or a list of typed parts, got ${describe(content)}`);
  const out: TrajectoryMessage = { role: m.role as string, content: typeof content === 'string' ? content : (content as Json[]).map(toPart) };
  const taken = ['role', 'content'];
  if (Array.isArray(m.tool_calls)) {
    out.tool_calls = m.tool_calls.map((c, j): ToolCall => {
      if (!isPlainObject(c) || typeof c.function !== 'string' || !isPlainObject(c.arguments)) throw new RecordError(`${where}.tool_calls[${j}]: expected {"id", "function": a name, "arguments": an object}`);
      const extra = without(c, ['id', 'function', 'arguments']);
      return { ...(typeof c.id === 'string' ? { id: c.id } : {}), type: 'function', function: { name: c.function, arguments: c.arguments }, ...(Object.keys(extra).length ? { inspect: extra } : {}) };
    });
    taken.push('tool_calls');
  }
  if (m.role === 'tool') {
    if (typeof m.tool_call_id === 'string') {
      out.tool_call_id = m.tool_call_id;
      taken.push('tool_call_id');
    }
    if (typeof m.function === 'string') {
      out.name = m.function;
      taken.push('function');
    }
  }
  const error = m.role === 'tool' && isPlainObject(m.error);
  out.arbiter = { ...(typeof m.id === 'string' ? { id: m.id } : {}), ...(error ? { kind: 'error' as const } : {}), rest: without(m, [...taken, 'id']) };
  return out;
}

function fromMessage(message: ChatMessage): Json {
  const m = message as TrajectoryMessage;
  const fields = arbiterFields(m);
  const out: Json = { ...(fields.id ? { id: fields.id } : {}), role: m.role, content: Array.isArray(m.content) ? m.content.map(fromPart) : (m.content ?? '') };
  if (m.tool_calls) out.tool_calls = m.tool_calls.map((c) => ({ ...(c.id ? { id: c.id } : {}), function: c.function.name, arguments: argumentsObject(c.function.arguments), ...(isPlainObject(c.inspect) ? c.inspect : {}) }));
  if (m.tool_call_id !== undefined) out.tool_call_id = m.tool_call_id;
  if (m.role === 'tool' && m.name !== undefined) out.function = m.name;
  return { ...(fields.rest ?? {}), ...out };
}

function outcomeOf(scores: unknown): Outcome | null {
  if (!isPlainObject(scores)) return null;
  const first = Object.values(scores)[0];
  const value = isPlainObject(first) ? first.value : undefined;
  if (value === 'C' || value === true || value === 1) return 'success';
  if (value === 'I' || value === false || value === 0) return 'failure';
  if (value === 'P' || (typeof value === 'number' && value > 0 && value < 1)) return 'partial';
  return null;
}

/** A whole eval log (its header and its samples): one record is one item here, so its samples are read one a record. */
const isEvalLog = (r: Json) => isPlainObject(r.eval) && Array.isArray(r.samples);

function parse(record: Json): ParsedRecord {
  if (isEvalLog(record))
    throw new RecordError(
      `a whole Inspect eval log (${(record.samples as unknown[]).length} samples): Arbiter reads its samples, one a record; write them out first, e.g. \`inspect log dump LOG | jq -c '.samples[]' > samples.jsonl\``,
    );
  const { id, target } = record;
  if (!(typeof id === 'string' || typeof id === 'number')) throw new RecordError(`id: ${id === undefined ? 'missing' : `expected the sample's id, got ${describe(id)}`}`);
  if (!Array.isArray(record.messages)) throw new RecordError(`messages: ${record.messages === undefined ? 'missing' : `expected a list of messages, got ${describe(record.messages)}`}`);
  const messages = record.messages.map((m, i) => toMessage(m, `messages[${i}]`));
  const model = messages.map((m) => arbiterFields(m).rest?.model).find((v) => typeof v === 'string');
  const reference = typeof target === 'string' ? target : Array.isArray(target) && target.every((t) => typeof t === 'string') ? target.join('\n') : null;
  return runRecord({
    format: NAME,
    externalId: String(id),
    messages,
    fallbackPrompt: typeof record.input === 'string' ? record.input : `sample ${String(id)}`,
    model: typeof model === 'string' ? model : null,
    reference: reference || null,
    run: without(record, ['messages']),
    outcome: outcomeOf(record.scores),
    where: 'messages',
  });
}

function encode(item: ItemRecord): Json[] {
  return item.responses.map((_, i) => {
    const run = runFields(item, i, NAME);
    return { ...(Object.keys(run).length ? run : { id: item.externalId ?? String(item.seq), epoch: i + 1, input: '', target: item.reference ?? '' }), messages: runMessages(item, i).map(fromMessage) };
  });
}

export const inspectAi: TraceDescriptor = {
  name: NAME,
  title: 'Inspect AI eval samples (messages, tool calls, scores)',
  doc: {
    source: 'Inspect AI eval logs\' samples (inspect.aisi.org.uk, Eval Logs, EvalSample), one a line or a JSON array; the epochs of a sample are one item',
    keeps: 'every field of the sample and its messages; message ids are the turn ids; the first score is the outcome',
    loses: 'a whole eval log file (its header) is not read: give its samples',
  },
  detect: (r) => (isEvalLog(r) ? '"eval" and "samples" (an Inspect AI eval log)' : Array.isArray(r.messages) && 'epoch' in r && 'input' in r && ('target' in r || 'scores' in r) ? '"id", "epoch", "input", "target" / "scores" and "messages" (an Inspect AI eval sample)' : null),
  parse,
  group: { key: (r) => `sample ${String(r.id)}`, merge: mergeRuns, anyOrder: true },
  encode,
};
