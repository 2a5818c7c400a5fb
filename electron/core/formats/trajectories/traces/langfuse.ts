// Langfuse traces (`langfuse`): a trace as the public API returns it (langfuse.com, "API reference",
// GET /api/public/traces/{traceId}, TraceWithFullDetails: {"id", "name", "timestamp", "input", "output",
// "sessionId", "userId", "metadata", "tags", "observations": [{"id", "traceId", "type": "GENERATION" | "SPAN" |
// "EVENT" | "AGENT" | "TOOL" | …, "name", "startTime", "endTime", "parentObservationId", "model", "input",
// "output", "metadata", "level", "statusMessage", "usageDetails"}], "scores": [{"name", "value", …}]});
// one trace a record (a JSON Lines of them, or a .json array).
//
// Import: one trace is one item of one run. A generation's input is the chat so far and its output the
// model's message, so the conversation is the last generation's input and output (./chatLog.ts); the k-th
// assistant message is the k-th generation's (its observation id the turn id), spoken by the nearest AGENT
// observation above it (multi-agent traces keep who spoke). The trace is kept whole with the run and
// written back as it was; a trajectory from another format is written as a trace with a GENERATION per
// assistant message and a TOOL observation per tool result.
import type { ItemRecord } from '../../../../../shared/domain';
import { arbiterFields, messageContentText, shortHash, type TrajectoryMessage } from '../../../../../shared/trajectory';
import { RecordError, type ParsedRecord } from '../../types';
import { isPlainObject } from '../../validate';
import { describe, runFields, runMessages, runRecord, type Json } from '../common';
import { conversationOf, openaiMessage, type LoggedCall } from './chatLog';
import type { TraceDescriptor } from './descriptor';

const NAME = 'langfuse';

function parse(record: Json): ParsedRecord {
  if (typeof record.id !== 'string') throw new RecordError(`id: ${record.id === undefined ? 'missing' : `expected the trace id, got ${describe(record.id)}`}`);
  if (!Array.isArray(record.observations)) throw new RecordError(`observations: ${record.observations === undefined ? 'missing' : `expected a list, got ${describe(record.observations)}`}`);
  const observations = record.observations.map((o, i) => {
    if (!isPlainObject(o) || typeof o.id !== 'string' || typeof o.type !== 'string') throw new RecordError(`observations[${i}]: expected an observation with an "id" and a "type"`);
    return o;
  });
  const byId = new Map(observations.map((o) => [o.id as string, o]));
  const agentOf = (o: Json): string | undefined => {
    for (let at: Json | undefined = o, hops = 0; at && hops < 64; at = typeof at.parentObservationId === 'string' ? byId.get(at.parentObservationId) : undefined, hops++)
      if (at.type === 'AGENT' && typeof at.name === 'string') return at.name;
    return undefined;
  };
  const time = (o: Json) => (typeof o.startTime === 'string' ? o.startTime : '');
  const calls: LoggedCall[] = observations
    .filter((o) => o.type === 'GENERATION')
    .sort((a, b) => (time(a) < time(b) ? -1 : time(a) > time(b) ? 1 : 0))
    .map((o) => {
      if (!Array.isArray(o.input)) throw new RecordError(`generation ${o.id as string}: input: expected the list of chat messages it was given, got ${describe(o.input)}`);
      return { id: o.id as string, agent: agentOf(o), input: o.input, output: o.output === undefined || o.output === null ? [] : [o.output] };
    });
  const messages = conversationOf(calls, 'generation');
  const last = observations.find((o) => o.id === calls[calls.length - 1]!.id)!;
  return runRecord({
    format: NAME,
    externalId: record.id,
    messages,
    fallbackPrompt: typeof record.name === 'string' ? record.name : 'Langfuse trace',
    model: typeof last.model === 'string' ? last.model : null,
    reference: null,
    run: { trace: record },
    outcome: null,
    where: 'observations',
  });
}

function buildTrace(item: ItemRecord, i: number): Json {
  const messages = runMessages(item, i);
  const id = `${shortHash(item.uid)}${shortHash(`${item.uid}/${i}`)}`;
  const observations: Json[] = [];
  let second = 0;
  const at = () => new Date(Date.UTC(2025, 0, 1, 0, 0, second++)).toISOString();
  messages.forEach((m, k) => {
    const t = m as TrajectoryMessage;
    const agent = arbiterFields(m).agent;
    const obs = { id: `${id}-${k}`, traceId: id, startTime: at(), ...(agent ? { metadata: { agent } } : {}) };
    if (m.role === 'assistant') observations.push({ ...obs, type: 'GENERATION', name: 'chat', model: item.responses[i]!.model, input: messages.slice(0, k).map(openaiMessage), output: openaiMessage(m) });
    else if (m.role === 'tool') observations.push({ ...obs, type: 'TOOL', name: t.name ?? 'tool', output: messageContentText(t.content as string) });
  });
  return { id, name: item.externalId ?? 'trajectory', timestamp: observations[0]?.startTime ?? at(), observations };
}

function encode(item: ItemRecord): Json[] {
  return item.responses.map((_, i) => {
    const kept = runFields(item, i, NAME).trace;
    return isPlainObject(kept) ? kept : buildTrace(item, i);
  });
}

export const langfuse: TraceDescriptor = {
  name: NAME,
  title: 'Langfuse traces (observations: generations, agents, tools)',
  doc: {
    source: 'Langfuse traces as GET /api/public/traces/{id} gives them: one trace a line, one item; the last generation holds the conversation',
    keeps: 'the trace as it was; generation ids are the turn ids, the AGENT observation above each who spoke',
    loses: 'a trace with no generation is refused; scores are kept, not read as an outcome',
  },
  detect: (r) =>
    typeof r.id === 'string' && Array.isArray(r.observations) && r.observations.some((o) => isPlainObject(o) && typeof o.type === 'string' && 'traceId' in o)
      ? '"id" and "observations" with "type" and "traceId" (a Langfuse trace)'
      : null,
  parse,
  encode,
};
