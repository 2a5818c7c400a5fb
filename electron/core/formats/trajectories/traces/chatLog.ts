// What the trace formats that log model calls share (Langfuse generations, LangSmith llm runs): each call
// logged its input messages (the conversation so far) and its output message, so the whole conversation is
// the last call's input and output; the k-th assistant message is the k-th call's output, whose id is the
// turn's and whose agent spoke. Messages are OpenAI's chat shape, or LangChain's message dicts
// ({"type": "human" | "ai" | "system" | "tool", "content", "tool_calls": [{"id", "name", "args"}], "tool_call_id"}).
import type { ChatMessage, ContentPart } from '../../../../../shared/domain';
import type { ToolCall, TrajectoryMessage } from '../../../../../shared/trajectory';
import { RecordError } from '../../types';
import { isPlainObject } from '../../validate';
import { describe, type Json } from '../common';

const LANGCHAIN_ROLES: Record<string, string> = { human: 'user', ai: 'assistant', system: 'system', tool: 'tool', HumanMessage: 'user', AIMessage: 'assistant', SystemMessage: 'system', ToolMessage: 'tool' };

/** One logged message as a trajectory message (a copy: the record is never changed). */
export function chatMessage(m: unknown, where: string): TrajectoryMessage {
  if (typeof m === 'string') return { role: 'user', content: m };
  if (!isPlainObject(m)) throw new RecordError(`${where}: expected a message, got ${describe(m)}`);
  // LangChain's serialized form: {"lc": 1, "type": "constructor", "id": [..., "HumanMessage"], "kwargs": {...}}.
  const lc: Json = m.lc !== undefined && Array.isArray(m.id) && isPlainObject(m.kwargs) ? { ...m.kwargs, type: m.id[m.id.length - 1] as unknown } : m;
  const role = typeof lc.role === 'string' ? lc.role : typeof lc.type === 'string' ? LANGCHAIN_ROLES[lc.type] : undefined;
  if (!role) throw new RecordError(`${where}: expected a "role" (or a LangChain message "type")`);
  const c = lc.content;
  if (!(c === null || c === undefined || typeof c === 'string' || (Array.isArray(c) && c.every((p) => isPlainObject(p) && typeof p.type === 'string'))))
    throw new RecordError(`${where}.content: expected text, typed parts or null, got ${describe(c)}`);
  const out: TrajectoryMessage = { role, content: (c ?? (role === 'assistant' ? null : '')) as string | ContentPart[] };
  if (Array.isArray(lc.tool_calls) && lc.tool_calls.length) {
    out.tool_calls = lc.tool_calls.map((call, j): ToolCall => {
      if (!isPlainObject(call)) throw new RecordError(`${where}.tool_calls[${j}]: expected a tool call, got ${describe(call)}`);
      const fn = isPlainObject(call.function) ? call.function : { name: call.name, arguments: call.args };
      if (typeof fn.name !== 'string' || !(typeof fn.arguments === 'string' || isPlainObject(fn.arguments))) throw new RecordError(`${where}.tool_calls[${j}]: expected a name and arguments`);
      return { ...(typeof call.id === 'string' ? { id: call.id } : {}), type: 'function', function: { name: fn.name, arguments: fn.arguments } };
    });
  }
  if (typeof lc.tool_call_id === 'string') out.tool_call_id = lc.tool_call_id;
  if (role === 'tool' && typeof lc.name === 'string') out.name = lc.name;
  return out;
}

export interface LoggedCall {
  id: string;
  agent: string | undefined;
  input: unknown[];
  output: unknown[];
}

/** The conversation of a run of logged calls (in start order): the last call's input and output, turns named by the calls. */
export function conversationOf(calls: readonly LoggedCall[], where: string): ChatMessage[] {
  const last = calls[calls.length - 1];
  if (!last) throw new RecordError(`${where}: no model call logged, so there is nothing to judge`);
  const messages = [...last.input.map((m, i) => chatMessage(m, `${where} ${last.id} input[${i}]`)), ...last.output.map((m, i) => chatMessage(m, `${where} ${last.id} output[${i}]`))];
  const assistants = messages.filter((m) => m.role === 'assistant');
  assistants.forEach((m, k) => {
    const call = calls[k];
    if (!call) return;
    m.arbiter = { ...(assistants.length === calls.length ? { id: call.id } : {}), ...(call.agent ? { agent: call.agent } : {}) };
  });
  return messages;
}

/** A message as OpenAI's chat shape (Arbiter's own fields left out), for a log written from another format. */
export function openaiMessage(m: ChatMessage): Json {
  const { arbiter: _drop, ...plain } = m as TrajectoryMessage;
  return plain;
}
