// Codex CLI session logs (`codex-cli`): ~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl, one
// rollout line an event {"timestamp", "type", "payload"}, one file one session (openai/codex, codex-rs
// protocol: RolloutLine and RolloutItem; ResponseItem is the Responses API's item). The types:
// "session_meta" ({"id", "cwd", "originator", "cli_version", "instructions", …}), "turn_context" ({"cwd",
// "approval_policy", "sandbox_policy", "model", "effort", "summary"}), "response_item" (a "message" {"role",
// "content": [{"type": "input_text" | "output_text", "text"}]}, a "reasoning" {"summary": [{"type":
// "summary_text", "text"}], "encrypted_content"}, a "function_call" {"name", "arguments": a JSON string,
// "call_id"}, a "function_call_output" {"call_id", "output"}) and "event_msg" (what the terminal showed).
//
// Import: the file's lines are one item of one run (./sessionLog.ts). A message item is a message of its
// role (developer as system); a function_call an assistant message with that one tool call; its output a
// tool message answering it (kind error when the output's metadata.exit_code is not 0); a reasoning item is
// context before the next turn, its summary as text; every other line a blank system message, kept whole.
// Each line's other fields stay with its message and are written back.
import type { ChatMessage, ContentPart, ItemRecord } from '../../../../../shared/domain';
import { arbiterFields, messageContentText, parseArguments, type TrajectoryMessage } from '../../../../../shared/trajectory';
import { RecordError } from '../../types';
import { isPlainObject } from '../../validate';
import { describe, runMessages, without, type Json } from '../common';
import type { TraceDescriptor } from './descriptor';
import { lineRecord, sessionRecord } from './sessionLog';

const NAME = 'codex-cli';
const ROLES: Record<string, string> = { user: 'user', assistant: 'assistant', developer: 'system', system: 'system' };

const textParts = (parts: unknown, where: string): ContentPart[] => {
  if (!Array.isArray(parts) || !parts.every((p) => isPlainObject(p) && typeof p.type === 'string')) throw new RecordError(`${where}: expected a list of typed parts, got ${describe(parts)}`);
  return (parts as Json[]).map((p) => (typeof p.text === 'string' ? { ...p, type: 'text', codex: p.type } : (p as ContentPart)));
};
const codexParts = (parts: ContentPart[]): Json[] => parts.map((p) => (typeof p.codex === 'string' ? { ...without(p, ['codex']), type: p.codex } : p));

function failed(output: unknown): boolean {
  if (typeof output !== 'string') return false;
  const parsed = parseArguments(output);
  return isPlainObject(parsed) && isPlainObject(parsed.metadata) && typeof parsed.metadata.exit_code === 'number' && parsed.metadata.exit_code !== 0;
}

function lineMessage(line: Json): TrajectoryMessage {
  const p = line.payload;
  const whole = (): TrajectoryMessage => ({ role: 'system', content: '', arbiter: { kind: 'observation', rest: { line, whole: true } } });
  if (line.type !== 'response_item' || !isPlainObject(p)) return whole();
  const rest = (moved: string[]) => ({ line: { ...line, payload: without(p, moved) } });
  if (p.type === 'message' && typeof p.role === 'string' && ROLES[p.role])
    return { role: ROLES[p.role]!, content: textParts(p.content, 'payload.content'), arbiter: { rest: rest(['content']) } };
  if (p.type === 'function_call') {
    if (typeof p.name !== 'string' || typeof p.arguments !== 'string') throw new RecordError('payload: a function_call needs a "name" and its "arguments" as a JSON string');
    const id = typeof p.call_id === 'string' ? p.call_id : undefined;
    return { role: 'assistant', content: null as unknown as string, tool_calls: [{ ...(id ? { id } : {}), type: 'function', function: { name: p.name, arguments: p.arguments } }], arbiter: { rest: rest(['name', 'arguments', 'call_id']) } };
  }
  if (p.type === 'function_call_output' && typeof p.output === 'string')
    return { role: 'tool', ...(typeof p.call_id === 'string' ? { tool_call_id: p.call_id } : {}), content: p.output, arbiter: { ...(failed(p.output) ? { kind: 'error' as const } : {}), rest: rest(['output', 'call_id']) } };
  if (p.type === 'reasoning' && Array.isArray(p.summary)) return { role: 'system', content: textParts(p.summary, 'payload.summary'), arbiter: { kind: 'thought', rest: rest(['summary']) } };
  return whole();
}

function messageLine(m: ChatMessage): Json {
  const t = m as TrajectoryMessage;
  const line = arbiterFields(m).rest?.line;
  const kept = isPlainObject(line) ? line : null;
  const payload: Json = kept && isPlainObject(kept.payload) ? { ...kept.payload } : {};
  if (kept && arbiterFields(m).rest?.whole === true) return kept;
  const parts = Array.isArray(t.content) ? codexParts(t.content) : [{ type: t.role === 'assistant' ? 'output_text' : 'input_text', text: messageContentText(t.content as string) }];
  const call = t.tool_calls?.[0];
  if (call) Object.assign(payload, { type: 'function_call', name: call.function.name, arguments: typeof call.function.arguments === 'string' ? call.function.arguments : JSON.stringify(call.function.arguments), call_id: call.id ?? '' });
  else if (t.role === 'tool') Object.assign(payload, { type: 'function_call_output', call_id: t.tool_call_id ?? '', output: messageContentText(t.content as string) });
  else if (payload.type === 'reasoning') payload.summary = parts;
  else Object.assign(payload, { type: 'message', role: payload.role ?? (t.role === 'system' ? 'developer' : t.role), content: parts });
  return { ...(kept ?? { timestamp: '', type: 'response_item' }), payload };
}

function encode(item: ItemRecord): Json[] {
  return item.responses.flatMap((_, i) => runMessages(item, i).flatMap((m) => {
    const t = m as TrajectoryMessage;
    // Another format's assistant message with several calls: a function_call line each.
    if (!arbiterFields(m).rest && (t.tool_calls?.length ?? 0) > 1) return t.tool_calls!.map((c) => messageLine({ role: 'assistant', content: '', tool_calls: [c] } as ChatMessage));
    if (!arbiterFields(m).rest && t.role === 'assistant' && t.tool_calls?.length && messageContentText(t.content as string).trim())
      return [messageLine({ role: 'assistant', content: t.content }), messageLine({ role: 'assistant', content: '', tool_calls: t.tool_calls } as ChatMessage)];
    return [messageLine(m)];
  }));
}

export const codexCli: TraceDescriptor = {
  name: NAME,
  title: 'Codex CLI session logs (rollout JSONL, one session a file)',
  doc: {
    source: 'Codex CLI ~/.codex/sessions/…/rollout-….jsonl (openai/codex RolloutLine: timestamp, type, payload): one file is one session, one item',
    keeps: 'every line as it was; reasoning summaries shown before the turn they lead to',
    loses: 'a file of several sessions reads as one; turn ids are derived (the lines have none)',
  },
  detect: (r) =>
    typeof r.timestamp === 'string' && isPlainObject(r.payload) && ['session_meta', 'response_item', 'turn_context', 'event_msg', 'compacted'].includes(r.type as string)
      ? '"timestamp", "type" (session_meta, response_item, …) and "payload" on each line (a Codex CLI session log)'
      : null,
  parse: (line) => lineRecord(NAME, [lineMessage(line)]),
  group: {
    key: () => 'session',
    merge: (rows) =>
      sessionRecord(NAME, rows, 'Codex CLI session', (messages) => {
        const payloads = messages.map((m) => (arbiterFields(m).rest?.line as Json | undefined)?.payload).filter(isPlainObject);
        const meta = messages.map((m) => arbiterFields(m).rest?.line as Json | undefined).find((l) => l?.type === 'session_meta');
        const id = isPlainObject(meta?.payload) && typeof meta.payload.id === 'string' ? meta.payload.id : null;
        const model = payloads.map((p) => p.model).find((v) => typeof v === 'string');
        return { id, model: typeof model === 'string' ? model : null };
      }),
  },
  encode,
};
