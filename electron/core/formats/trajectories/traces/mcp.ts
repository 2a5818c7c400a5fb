// MCP tool calls (`mcp`): a transcript of a Model Context Protocol session, one JSON-RPC 2.0 message a line
// (modelcontextprotocol.io, specification 2025-06-18: "Base Protocol" (requests {"jsonrpc": "2.0", "id",
// "method", "params"}, responses {"jsonrpc", "id", "result"} or {"jsonrpc", "id", "error": {"code",
// "message"}}, notifications without an id) and "Server Features / Tools" (tools/list; tools/call with
// params {"name", "arguments"}, its result {"content": [{"type": "text", "text"} | …], "structuredContent",
// "isError"})). One file is one session, one item (./sessionLog.ts).
//
// Import: a tools/call request is an agent turn calling that tool (the request id, as text, is its call id
// and its turn id); its response is the tool result (its text parts; kind error when isError or a JSON-RPC
// error). Every other message (initialize, tools/list, notifications) is a system message naming its
// method, kept whole. Each message's other fields stay with it and are written back.
import type { ChatMessage, ContentPart, ItemRecord } from '../../../../../shared/domain';
import { arbiterFields, messageContentText, type TrajectoryMessage } from '../../../../../shared/trajectory';
import { RecordError } from '../../types';
import { isPlainObject } from '../../validate';
import { describe, runMessages, without, type Json } from '../common';
import { argumentsObject } from './anthropicBlocks';
import type { TraceDescriptor } from './descriptor';
import { lineRecord, sessionRecord } from './sessionLog';

const NAME = 'mcp';
const idText = (id: unknown) => (typeof id === 'string' || typeof id === 'number' ? String(id) : undefined);

/** A message that is a whole line, shown as its method. */
const wholeLine = (line: Json): TrajectoryMessage => ({ role: 'system', content: typeof line.method === 'string' ? line.method : `response ${idText(line.id) ?? ''}`.trim(), arbiter: { kind: 'observation', rest: { line, whole: true } } });

/** One line on its own: a response that could be a tools/call result is one until the session shows it answers no call (merge). */
function lineMessage(line: Json): TrajectoryMessage {
  const id = idText(line.id);
  const whole = () => wholeLine(line);
  if (line.method === 'tools/call') {
    const params = line.params;
    if (!isPlainObject(params) || typeof params.name !== 'string') throw new RecordError('params.name: a tools/call request needs the tool\'s name');
    if (!(params.arguments === undefined || isPlainObject(params.arguments))) throw new RecordError(`params.arguments: expected an object, got ${describe(params.arguments)}`);
    return { role: 'assistant', content: null as unknown as string, tool_calls: [{ ...(id !== undefined ? { id } : {}), type: 'function', function: { name: params.name, arguments: params.arguments ?? {} } }], arbiter: { ...(id !== undefined ? { id } : {}), rest: { line: { ...line, params: without(params, ['name', 'arguments']) }, ...('arguments' in params ? {} : { no_arguments: true }) } } };
  }
  if (id !== undefined && line.method === undefined) {
    if (isPlainObject(line.error)) return { role: 'tool', tool_call_id: id, content: typeof line.error.message === 'string' ? line.error.message : '', arbiter: { kind: 'error', rest: { line } } };
    const result = line.result;
    if (isPlainObject(result) && Array.isArray(result.content) && result.content.every((p) => isPlainObject(p) && typeof p.type === 'string'))
      return { role: 'tool', tool_call_id: id, content: result.content as ContentPart[], arbiter: { ...(result.isError === true ? { kind: 'error' as const } : {}), rest: { line: { ...line, result: without(result, ['content']) } } } };
  }
  return whole();
}

function messageLine(m: ChatMessage): Json {
  const t = m as TrajectoryMessage;
  const rest = arbiterFields(m).rest ?? {};
  const line = isPlainObject(rest.line) ? rest.line : null;
  if (line && (rest.whole === true || (t.role === 'tool' && isPlainObject(line.error)))) return line;
  const call = t.tool_calls?.[0];
  if (call) {
    const params: Json = { ...(line && isPlainObject(line.params) ? line.params : {}), name: call.function.name };
    if (rest.no_arguments !== true) params.arguments = line ? call.function.arguments : argumentsObject(call.function.arguments);
    return { ...(line ?? { jsonrpc: '2.0', id: call.id ?? '', method: 'tools/call' }), params };
  }
  if (t.role === 'tool') {
    const content = Array.isArray(t.content) ? t.content : [{ type: 'text', text: messageContentText(t.content as string) }];
    const result: Json = { ...(line && isPlainObject(line.result) ? line.result : {}), content };
    return { ...(line ?? { jsonrpc: '2.0', id: t.tool_call_id ?? '' }), result };
  }
  // Another format's message: a notification carrying it (MCP has no place for the agent's own words).
  return { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: t.role, data: messageContentText(t.content as string) } };
}

function encode(item: ItemRecord): Json[] {
  return item.responses.flatMap((_, i) =>
    runMessages(item, i).flatMap((m) => {
      const t = m as TrajectoryMessage;
      const several = !arbiterFields(m).rest && (t.tool_calls?.length ?? 0) > 1;
      return several ? t.tool_calls!.map((c) => messageLine({ role: 'assistant', content: '', tool_calls: [c] } as ChatMessage)) : [messageLine(m)];
    }),
  );
}

export const mcp: TraceDescriptor = {
  name: NAME,
  title: 'MCP tool calls (a JSON-RPC transcript of tools/call requests and results)',
  doc: {
    source: 'Model Context Protocol 2025-06-18 (Base Protocol, Tools): JSON-RPC messages one a line, one file one session, one item',
    keeps: 'every message as it was; a tools/call request id is its turn id and call id',
    loses: 'another format\'s text messages are written as notifications/message; the agent\'s reasoning between calls is not in MCP',
  },
  detect: (r) => (r.jsonrpc === '2.0' && ('method' in r || 'result' in r || 'error' in r) ? '"jsonrpc": "2.0" messages (an MCP transcript)' : null),
  parse: (line) => lineRecord(NAME, [lineMessage(line)]),
  group: {
    key: () => 'session',
    merge: (rows) => {
      // A response is a tool result only when it answers a tools/call request before it.
      const called = new Set<string>();
      for (const row of rows) {
        const [m] = row.draft.responses[0]!.content as TrajectoryMessage[];
        for (const c of m?.tool_calls ?? []) if (c.id) called.add(c.id);
        if (m?.role === 'tool' && !called.has(m.tool_call_id ?? '')) row.draft.responses[0]!.content = [wholeLine(messageLine(m))];
      }
      return sessionRecord(NAME, rows, 'MCP session', () => ({ id: null, model: null }));
    },
  },
  encode,
};
