// OpenTelemetry GenAI traces (`otel-genai`): an OTLP/JSON export request a record (opentelemetry.io,
// "OTLP Specification", JSON encoding: {"resourceSpans": [{"resource", "scopeSpans": [{"scope", "spans":
// [{"traceId", "spanId", "parentSpanId", "name", "kind", "startTimeUnixNano", "endTimeUnixNano",
// "attributes": [{"key", "value": {"stringValue"}}], "events", "status"}]}]}]}), the spans as the GenAI
// semantic conventions (v1.37, "Semantic conventions for generative client AI spans" and "…agent spans")
// name them: inference spans "chat <model>" (gen_ai.operation.name chat, gen_ai.request.model,
// gen_ai.system_instructions, gen_ai.input.messages and gen_ai.output.messages, JSON of messages {"role",
// "parts": [{"type": "text", "content"} | {"type": "tool_call", "id", "name", "arguments"} |
// {"type": "tool_call_response", "id", "response"}], "finish_reason"}), "execute_tool <name>" spans
// (gen_ai.tool.name, gen_ai.tool.call.id) and "invoke_agent <name>" spans (gen_ai.agent.name).
//
// Import: one record is one trace, one item (a record with spans of several traces is refused: one trace a
// line). The conversation is the last chat span's instructions, input and output; the assistant messages
// are the chat spans' outputs in start order, each spoken by its span's gen_ai.agent.name or else the
// nearest invoke_agent span's above it (multi-agent traces keep who spoke), with the span's id as the
// turn's id. The request is kept whole with the run and written back as it was; a trajectory from another
// format is written as one trace: a chat span per assistant message, an execute_tool span per tool result.
import type { ChatMessage, ContentPart, ItemRecord } from '../../../../../shared/domain';
import { arbiterFields, canonical, messageContentText, shortHash, type ToolCall, type TrajectoryMessage } from '../../../../../shared/trajectory';
import { RecordError, type ParsedRecord } from '../../types';
import { isPlainObject } from '../../validate';
import { describe, runFields, runMessages, runRecord, type Json } from '../common';
import type { TraceDescriptor } from './descriptor';

const NAME = 'otel-genai';

interface Span {
  json: Json;
  id: string;
  parent: string | null;
  attrs: Map<string, unknown>;
}

/** An OTLP attribute value as a plain value (string, number, boolean, list). */
function value(v: unknown): unknown {
  if (!isPlainObject(v)) return undefined;
  if ('stringValue' in v) return v.stringValue;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return v.doubleValue;
  if ('boolValue' in v) return v.boolValue;
  if (isPlainObject(v.arrayValue) && Array.isArray(v.arrayValue.values)) return v.arrayValue.values.map(value);
  return undefined;
}

function spansOf(record: Json): Span[] {
  if (!Array.isArray(record.resourceSpans)) throw new RecordError(`resourceSpans: ${record.resourceSpans === undefined ? 'missing' : `expected a list, got ${describe(record.resourceSpans)}`}`);
  const spans: Span[] = [];
  record.resourceSpans.forEach((rs, i) => {
    const scopes = isPlainObject(rs) ? rs.scopeSpans : undefined;
    if (!Array.isArray(scopes)) throw new RecordError(`resourceSpans[${i}].scopeSpans: expected a list, got ${describe(scopes)}`);
    scopes.forEach((ss, j) => {
      const list = isPlainObject(ss) ? ss.spans : undefined;
      if (!Array.isArray(list)) throw new RecordError(`resourceSpans[${i}].scopeSpans[${j}].spans: expected a list, got ${describe(list)}`);
      list.forEach((s, k) => {
        const at = `resourceSpans[${i}].scopeSpans[${j}].spans[${k}]`;
        if (!isPlainObject(s) || typeof s.spanId !== 'string' || typeof s.traceId !== 'string') throw new RecordError(`${at}: expected a span with a "traceId" and a "spanId"`);
        const attrs = new Map<string, unknown>();
        if (s.attributes !== undefined && !Array.isArray(s.attributes)) throw new RecordError(`${at}.attributes: expected a list, got ${describe(s.attributes)}`);
        for (const a of (s.attributes as unknown[] | undefined) ?? []) if (isPlainObject(a) && typeof a.key === 'string') attrs.set(a.key, value(a.value));
        spans.push({ json: s, id: s.spanId, parent: typeof s.parentSpanId === 'string' && s.parentSpanId ? s.parentSpanId : null, attrs });
      });
    });
  });
  const traces = new Set(spans.map((s) => s.json.traceId));
  if (traces.size > 1) throw new RecordError(`the record holds spans of ${traces.size} traces; one trace is one item: write one trace a line`);
  return spans;
}

const started = (s: Span) => BigInt(typeof s.json.startTimeUnixNano === 'string' && /^\d+$/.test(s.json.startTimeUnixNano) ? s.json.startTimeUnixNano : '0');

function jsonAttr(span: Span, key: string, where: string): unknown[] {
  const text = span.attrs.get(key);
  if (text === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(String(text));
  } catch {
    throw new RecordError(`${where} ${key}: not JSON`);
  }
  if (!Array.isArray(parsed)) throw new RecordError(`${where} ${key}: expected a JSON list, got ${describe(parsed)}`);
  return parsed;
}

/** One GenAI message (role, parts) as trajectory messages: a tool response part is a tool message of its own. */
function fromParts(m: unknown, where: string): TrajectoryMessage[] {
  if (!isPlainObject(m) || typeof m.role !== 'string' || !Array.isArray(m.parts)) throw new RecordError(`${where}: expected {"role", "parts": […]}`);
  const text: ContentPart[] = [];
  const calls: ToolCall[] = [];
  const out: TrajectoryMessage[] = [];
  m.parts.forEach((p, i) => {
    if (!isPlainObject(p) || typeof p.type !== 'string') throw new RecordError(`${where}.parts[${i}]: expected a part with a "type"`);
    if (p.type === 'tool_call') calls.push({ id: typeof p.id === 'string' ? p.id : undefined, type: 'function', function: { name: String(p.name ?? ''), arguments: isPlainObject(p.arguments) || typeof p.arguments === 'string' ? p.arguments : {} } });
    else if (p.type === 'tool_call_response')
      out.push({ role: 'tool', ...(typeof p.id === 'string' ? { tool_call_id: p.id } : {}), content: typeof p.response === 'string' ? p.response : JSON.stringify(p.response ?? null) });
    else text.push({ type: 'text', text: typeof p.content === 'string' ? p.content : JSON.stringify(p.content ?? null), ...(p.type !== 'text' ? { otel: p.type } : {}) });
  });
  if (text.length || calls.length || !out.length) {
    const own: TrajectoryMessage = { role: m.role, content: (text.length === 1 && !text[0]!.otel ? text[0]!.text! : text.length ? text : m.role === 'assistant' ? null : '') as string };
    if (calls.length) own.tool_calls = calls;
    out.unshift(own);
  }
  return out;
}

function parse(record: Json): ParsedRecord {
  const spans = spansOf(record);
  const byId = new Map(spans.map((s) => [s.id, s]));
  const chats = spans.filter((s) => s.attrs.get('gen_ai.operation.name') === 'chat' || s.attrs.has('gen_ai.output.messages')).sort((a, b) => (started(a) < started(b) ? -1 : started(a) > started(b) ? 1 : 0));
  const last = chats[chats.length - 1];
  if (!last) throw new RecordError('no GenAI chat span (gen_ai.operation.name "chat" with gen_ai.output.messages): nothing to judge');
  const where = `span ${last.id}`;
  const messages: TrajectoryMessage[] = [];
  const instructions = jsonAttr(last, 'gen_ai.system_instructions', where);
  if (instructions.length) messages.push({ role: 'system', content: instructions.map((p) => (isPlainObject(p) && typeof p.content === 'string' ? p.content : '')).join('\n') });
  jsonAttr(last, 'gen_ai.input.messages', where).forEach((m, i) => messages.push(...fromParts(m, `${where} gen_ai.input.messages[${i}]`)));
  jsonAttr(last, 'gen_ai.output.messages', where).forEach((m, i) => messages.push(...fromParts(m, `${where} gen_ai.output.messages[${i}]`)));
  // The k-th assistant message is the k-th chat span's output: its span id, its agent.
  const agentOf = (s: Span | undefined): string | undefined => {
    for (let at = s, hops = 0; at && hops < 64; at = at.parent ? byId.get(at.parent) : undefined, hops++) {
      const name = at.attrs.get('gen_ai.agent.name');
      if (typeof name === 'string' && name) return name;
    }
    return undefined;
  };
  let k = 0;
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    const span = chats[k++];
    const agent = agentOf(span);
    m.arbiter = { ...(span && chats.length === messages.filter((x) => x.role === 'assistant').length ? { id: span.id } : {}), ...(agent ? { agent } : {}) };
  }
  const model = last.attrs.get('gen_ai.response.model') ?? last.attrs.get('gen_ai.request.model');
  return runRecord({
    format: NAME,
    externalId: String(last.json.traceId),
    messages,
    fallbackPrompt: 'OpenTelemetry trace',
    model: typeof model === 'string' ? model : null,
    reference: null,
    run: { otlp: record },
    outcome: null,
    where: 'resourceSpans',
  });
}

// Writing a trajectory that came from elsewhere: one trace, a chat span per assistant message.
const attr = (key: string, v: string) => ({ key, value: { stringValue: v } });

function toParts(m: ChatMessage): Json {
  const t = m as TrajectoryMessage;
  if (t.role === 'tool') return { role: 'tool', parts: [{ type: 'tool_call_response', id: t.tool_call_id ?? '', response: messageContentText(t.content as string) }] };
  const parts: Json[] = [];
  const text = messageContentText(t.content as string | ContentPart[] | null);
  if (text) parts.push({ type: 'text', content: text });
  for (const c of t.tool_calls ?? []) parts.push({ type: 'tool_call', id: c.id ?? '', name: c.function.name, arguments: c.function.arguments });
  return { role: t.role, parts };
}

function buildTrace(item: ItemRecord, i: number): Json {
  const messages = runMessages(item, i);
  const traceId = shortHash(`${item.uid}/${i}`).repeat(4);
  const spans: Json[] = [];
  const system = messages[0]?.role === 'system' ? messages[0] : null;
  const rest = system ? messages.slice(1) : messages;
  let clock = 1_700_000_000_000_000_000n;
  const tick = () => String((clock += 1_000_000n));
  rest.forEach((m, at) => {
    const agent = arbiterFields(m).agent;
    if (m.role === 'assistant') {
      const attributes = [attr('gen_ai.operation.name', 'chat'), attr('gen_ai.input.messages', JSON.stringify(rest.slice(0, at).map(toParts))), attr('gen_ai.output.messages', JSON.stringify([toParts(m)]))];
      if (system) attributes.push(attr('gen_ai.system_instructions', JSON.stringify([{ type: 'text', content: messageContentText(system.content as string) }])));
      if (agent) attributes.push(attr('gen_ai.agent.name', agent));
      if (item.responses[i]!.model) attributes.push(attr('gen_ai.request.model', item.responses[i]!.model!));
      spans.push({ traceId, spanId: shortHash(canonical([item.uid, i, at])) + shortHash(String(at)), name: 'chat', kind: 3, startTimeUnixNano: tick(), endTimeUnixNano: tick(), attributes });
    } else if (m.role === 'tool')
      spans.push({ traceId, spanId: shortHash(canonical([item.uid, i, at])) + shortHash(String(at)), name: `execute_tool ${(m as TrajectoryMessage).name ?? ''}`.trim(), kind: 1, startTimeUnixNano: tick(), endTimeUnixNano: tick(), attributes: [attr('gen_ai.operation.name', 'execute_tool'), attr('gen_ai.tool.name', String((m as TrajectoryMessage).name ?? '')), attr('gen_ai.tool.call.id', String((m as TrajectoryMessage).tool_call_id ?? ''))] });
  });
  return { resourceSpans: [{ resource: { attributes: [attr('service.name', 'arbiter')] }, scopeSpans: [{ scope: { name: 'arbiter' }, spans }] }] };
}

function encode(item: ItemRecord): Json[] {
  return item.responses.map((_, i) => {
    const kept = runFields(item, i, NAME).otlp;
    return isPlainObject(kept) ? kept : buildTrace(item, i);
  });
}

export const otelGenai: TraceDescriptor = {
  name: NAME,
  title: 'OpenTelemetry GenAI traces (OTLP/JSON spans with gen_ai.* attributes)',
  doc: {
    source: 'OpenTelemetry GenAI semantic conventions v1.37 in OTLP/JSON (resourceSpans): one trace a line, one item; the last chat span holds the conversation',
    keeps: 'the request as it was; chat span ids are the turn ids, gen_ai.agent.name who spoke',
    loses: 'a line with spans of several traces is refused; the older event-based convention (gen_ai.user.message events) is not read',
  },
  detect: (r) => {
    if (!Array.isArray(r.resourceSpans)) return null;
    return JSON.stringify(r.resourceSpans).includes('"gen_ai.') ? '"resourceSpans" with "gen_ai.*" span attributes (OpenTelemetry GenAI, OTLP/JSON)' : null;
  },
  parse,
  encode,
};
