// OpenHands event streams (`openhands`), as OpenHands serializes events (All-Hands-AI/OpenHands,
// openhands/events/serialization/event.py, event_to_dict): an action is {"id", "timestamp", "source":
// "agent"|"user"|"environment", "message", "action": "run"|"edit"|"read"|"message"|"finish"|…, "args": {…,
// "thought"}, "timeout", "tool_call_metadata": {"function_name", "tool_call_id", "model_response",
// "total_calls_in_response"}, "llm_metrics"}; an observation is {"id", "timestamp", "source", "message",
// "cause", "observation": "run"|"edit"|"error"|…, "content", "extras": {…}, "tool_call_metadata", "success"}.
// Two shapes of file:
//  - an evaluation's output.jsonl (evaluation/utils/shared.py, EvalOutput): one run a line,
//    {"instance_id", "instruction", "history": [events], "test_result", "metadata", "metrics", "error", "instance"};
//  - an event list, one trajectory per file: a .json array of events (each element a record).
//
// Import: each event is one message. A "system" action is the system message; a "message" action is a user
// or assistant message by its source; any other agent action is an assistant message whose content is
// args.thought and whose one tool call is named by tool_call_metadata.function_name (else the action) with
// the rest of args as its arguments and tool_call_metadata.tool_call_id (else "event-<id>") as its id;
// other actions of the user or the environment are user messages. An observation is a tool message (its
// content, named by the observation; kind "error" for an error observation), answering the call whose
// tool_call_id it carries. Each message keeps its event's other fields (arbiter.rest) and id (arbiter.id).
// test_result.report.resolved or test_result.resolved (true / false) is the source's outcome.
import type { ChatMessage, ItemRecord } from '../../../../shared/domain';
import { arbiterFields, messageContentText, parseArguments, type ToolCall, type TrajectoryMessage } from '../../../../shared/trajectory';
import { RecordError, type ParsedRecord } from '../types';
import { isPlainObject, setOwn } from '../validate';
import { describe, mergeRuns, runFields, runMessages, runRecord, trajectoryMetadata, without, type Json, type Outcome } from './common';

export const OPENHANDS = 'openhands';
const EVENTS = '\u0000events';

const idOf = (event: Json) => (typeof event.id === 'number' || typeof event.id === 'string' ? String(event.id) : undefined);

/** One event as a message (see the file's head). */
export function eventMessage(event: Json, where: string): TrajectoryMessage {
  const id = idOf(event);
  if (typeof event.action === 'string') {
    const args = event.args === undefined ? {} : event.args;
    if (!isPlainObject(args)) throw new RecordError(`${where}.args: expected an object, got ${describe(args)}`);
    const rest = without(event, ['args']);
    const base = { arbiter: { ...(id !== undefined ? { id } : {}), rest } };
    if (event.action === 'system' || event.action === 'message') {
      const role = event.action === 'system' ? 'system' : event.source === 'agent' ? 'assistant' : 'user';
      if (!(args.content === undefined || typeof args.content === 'string')) throw new RecordError(`${where}.args.content: expected text, got ${describe(args.content)}`);
      rest.args = without(args, ['content']);
      return { role, content: (args.content as string | undefined) ?? '', ...base, arbiter: { ...base.arbiter, ...('content' in args ? { from: 'args.content' } : {}) } };
    }
    if (event.source !== 'agent') {
      rest.args = args;
      return { role: 'user', content: typeof args.content === 'string' ? args.content : '', ...base, arbiter: { ...base.arbiter, kind: 'observation' } };
    }
    if (!(args.thought === undefined || typeof args.thought === 'string')) throw new RecordError(`${where}.args.thought: expected text, got ${describe(args.thought)}`);
    const meta = isPlainObject(event.tool_call_metadata) ? event.tool_call_metadata : null;
    const call: ToolCall = {
      id: typeof meta?.tool_call_id === 'string' ? meta.tool_call_id : `event-${id ?? ''}`,
      type: 'function',
      function: { name: typeof meta?.function_name === 'string' ? meta.function_name : event.action, arguments: without(args, ['thought']) },
    };
    return { role: 'assistant', content: (args.thought as string | undefined) ?? '', tool_calls: [call], ...base, arbiter: { ...base.arbiter, ...('thought' in args ? { from: 'args.thought' } : {}) } };
  }
  if (typeof event.observation === 'string') {
    if (!(event.content === undefined || typeof event.content === 'string')) throw new RecordError(`${where}.content: expected text, got ${describe(event.content)}`);
    const meta = isPlainObject(event.tool_call_metadata) ? event.tool_call_metadata : null;
    const message: TrajectoryMessage = { role: 'tool', name: event.observation, content: (event.content as string | undefined) ?? '' };
    if (typeof meta?.tool_call_id === 'string') message.tool_call_id = meta.tool_call_id;
    message.arbiter = { ...(id !== undefined ? { id } : {}), rest: without(event, ['content']), ...('content' in event ? { from: 'content' } : {}), kind: event.observation === 'error' ? 'error' : 'observation' };
    return message;
  }
  throw new RecordError(`${where}: neither an action ("action") nor an observation ("observation")`);
}

/** A message back as its event. */
export function messageEvent(message: ChatMessage): Json {
  const m = message as TrajectoryMessage;
  const fields = arbiterFields(m);
  const rest = fields.rest ?? {};
  const text = messageContentText(m.content as string | null);
  if (typeof rest.observation === 'string') {
    const event: Json = { ...rest };
    if (fields.from === 'content') event.content = text;
    return event;
  }
  const event: Json = { ...rest };
  if (typeof rest.action !== 'string') {
    // A message from elsewhere: the nearest OpenHands event.
    if (m.role === 'tool') return { source: 'environment', observation: m.name ?? 'run', content: text, extras: {} };
    const calls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
    if (m.role === 'assistant' && calls.length) {
      const args = parseArguments(calls[0]!.function.arguments);
      return { source: 'agent', action: calls[0]!.function.name, args: { ...(isPlainObject(args) ? args : { arguments: calls[0]!.function.arguments }), thought: text } };
    }
    return { source: m.role === 'assistant' ? 'agent' : 'user', action: m.role === 'system' ? 'system' : 'message', args: { content: text } };
  }
  const args: Json = isPlainObject(rest.args) ? { ...rest.args } : {};
  const calls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
  if (calls.length) {
    const called = parseArguments(calls[0]!.function.arguments);
    if (isPlainObject(called)) for (const [k, v] of Object.entries(called)) setOwn(args, k, v);
  }
  if (fields.from === 'args.content') args.content = text;
  if (fields.from === 'args.thought') args.thought = text;
  event.args = args;
  return event;
}

function outcome(testResult: unknown): Outcome | null {
  if (!isPlainObject(testResult)) return null;
  const report = isPlainObject(testResult.report) ? testResult.report : testResult;
  return typeof report.resolved === 'boolean' ? (report.resolved ? 'success' : 'failure') : null;
}

function eventsOf(history: unknown, where: string): ChatMessage[] {
  if (!Array.isArray(history)) throw new RecordError(`${where}: ${history === undefined ? 'missing' : `expected a list of events, got ${describe(history)}`}`);
  return history.map((event, i) => {
    if (!isPlainObject(event)) throw new RecordError(`${where}[${i}]: expected an event object, got ${describe(event)}`);
    return eventMessage(event, `${where}[${i}]`);
  });
}

export function parseOpenhands(record: Json): ParsedRecord {
  if ('history' in record || 'instance_id' in record) {
    const id = typeof record.instance_id === 'string' || typeof record.instance_id === 'number' ? String(record.instance_id) : null;
    return runRecord({
      format: OPENHANDS,
      externalId: id,
      messages: eventsOf(record.history, 'history'),
      fallbackPrompt: typeof record.instruction === 'string' && record.instruction ? record.instruction : (id ?? 'OpenHands run'),
      model: null,
      reference: null,
      run: without(record, ['history']),
      outcome: outcome(record.test_result),
      where: 'history',
    });
  }
  // One event of an event list: merged with the rest of the file (openhandsKey, mergeOpenhands).
  const message = eventMessage(record, 'event');
  return { draft: { externalId: null, prompt: '', responses: [{ content: [message], model: null, steps: null }], reference: null, metadata: { openhands_event: true } }, preference: null };
}

/** Consecutive runs of one instance are one item; the events of an event list are one trajectory. */
export function openhandsKey(record: Json): string {
  if ('history' in record || 'instance_id' in record) return `id ${String(record.instance_id)}`;
  return EVENTS;
}

export function mergeOpenhands(rows: ParsedRecord[]): ParsedRecord {
  if (rows[0]!.draft.metadata.openhands_event !== true) return mergeRuns(rows);
  const messages = rows.flatMap((r) => r.draft.responses[0]!.content as ChatMessage[]);
  return runRecord({ format: OPENHANDS, externalId: null, messages, fallbackPrompt: 'OpenHands run', model: null, reference: null, run: { events: true }, outcome: null, where: 'events' });
}

/** Each trajectory as its evaluation line, or (an event list) as its events, one a line. */
export function encodeOpenhands(item: ItemRecord): Json[] {
  const fromEvents = trajectoryMetadata(item)?.format === OPENHANDS && item.responses.every((_, i) => runFields(item, i, OPENHANDS).events === true);
  return item.responses.flatMap((_, i) => {
    const history = runMessages(item, i).map(messageEvent);
    if (fromEvents) return history;
    const run = runFields(item, i, OPENHANDS);
    return [{ ...(Object.keys(run).length ? run : { instance_id: item.externalId ?? String(item.seq) }), history }];
  });
}
