// LangSmith / LangChain run trees (`langsmith`): a root run with its child runs nested (docs.smith.langchain.com,
// "Run (span) data format": {"id", "name", "run_type": "chain" | "llm" | "tool" | "retriever" | …, "start_time",
// "end_time", "inputs", "outputs", "error", "extra": {"metadata"}, "tags", "trace_id", "dotted_order",
// "parent_run_id", "child_runs": [runs]}), as the SDK's read_run(…, load_child_runs=True) gives it; one root
// run a record. An llm run's inputs are {"messages": [[LangChain messages]]} (a chat model) or {"messages":
// [OpenAI messages]} (wrap_openai), its outputs {"generations": [[{"message"}]]} or {"choices": [{"message"}]}.
//
// Import: one run tree is one item of one run. The conversation is the last llm run's input and output
// (./chatLog.ts); the k-th assistant message is the k-th llm run's (in start order), its run id the turn id,
// spoken by the LangGraph node it ran in (extra.metadata.langgraph_node, on it or the nearest run above it).
// The tree is kept whole with the run and written back as it was; a trajectory from another format is
// written as a chain run with an llm child run per assistant message and a tool child run per result.
import type { ItemRecord } from '../../../../../shared/domain';
import { arbiterFields, messageContentText, shortHash, type TrajectoryMessage } from '../../../../../shared/trajectory';
import { RecordError, type ParsedRecord } from '../../types';
import { isPlainObject } from '../../validate';
import { describe, runFields, runMessages, runRecord, type Json } from '../common';
import { conversationOf, openaiMessage, type LoggedCall } from './chatLog';
import type { TraceDescriptor } from './descriptor';

const NAME = 'langsmith';

const nodeOf = (run: Json): string | undefined => {
  const meta = isPlainObject(run.extra) && isPlainObject(run.extra.metadata) ? run.extra.metadata : null;
  return typeof meta?.langgraph_node === 'string' ? meta.langgraph_node : undefined;
};

function inputMessages(run: Json, where: string): unknown[] {
  const messages = isPlainObject(run.inputs) ? run.inputs.messages : undefined;
  if (!Array.isArray(messages)) throw new RecordError(`${where}.inputs.messages: expected the chat messages the model was given, got ${describe(messages)}`);
  return Array.isArray(messages[0]) ? (messages[0] as unknown[]) : messages;
}

function outputMessages(run: Json): unknown[] {
  const out = run.outputs;
  if (!isPlainObject(out)) return [];
  if (Array.isArray(out.generations)) {
    const first = Array.isArray(out.generations[0]) ? out.generations[0][0] : out.generations[0];
    return isPlainObject(first) && first.message !== undefined ? [first.message] : isPlainObject(first) && typeof first.text === 'string' ? [{ role: 'assistant', content: first.text }] : [];
  }
  if (Array.isArray(out.choices) && isPlainObject(out.choices[0]) && out.choices[0].message !== undefined) return [out.choices[0].message];
  return [];
}

function parse(record: Json): ParsedRecord {
  if (typeof record.id !== 'string' || typeof record.run_type !== 'string') throw new RecordError('expected a run with an "id" and a "run_type"');
  const calls: (LoggedCall & { start: string })[] = [];
  const visit = (run: unknown, where: string, node: string | undefined, depth: number) => {
    if (!isPlainObject(run)) throw new RecordError(`${where}: expected a run, got ${describe(run)}`);
    if (depth > 64) throw new RecordError(`${where}: runs nested more than 64 deep`);
    const here = nodeOf(run) ?? node;
    if (run.run_type === 'llm') calls.push({ id: String(run.id), agent: here, input: inputMessages(run, where), output: outputMessages(run), start: typeof run.start_time === 'string' ? run.start_time : '' });
    if (run.child_runs !== undefined && run.child_runs !== null) {
      if (!Array.isArray(run.child_runs)) throw new RecordError(`${where}.child_runs: expected a list, got ${describe(run.child_runs)}`);
      run.child_runs.forEach((child, i) => visit(child, `${where}.child_runs[${i}]`, here, depth + 1));
    }
  };
  visit(record, 'run', undefined, 0);
  calls.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const messages = conversationOf(calls, 'llm run');
  return runRecord({
    format: NAME,
    externalId: record.id,
    messages,
    fallbackPrompt: typeof record.name === 'string' ? record.name : 'LangSmith run',
    model: null,
    reference: null,
    run: { tree: record },
    outcome: null,
    where: 'child_runs',
  });
}

function buildTree(item: ItemRecord, i: number): Json {
  const messages = runMessages(item, i);
  const id = `${shortHash(item.uid)}-${shortHash(`${item.uid}/${i}`)}`;
  let second = 0;
  const at = () => new Date(Date.UTC(2025, 0, 1, 0, 0, second++)).toISOString();
  const children: Json[] = [];
  messages.forEach((m, k) => {
    const t = m as TrajectoryMessage;
    const node = arbiterFields(m).agent;
    const run = { id: `${id}-${k}`, trace_id: id, parent_run_id: id, start_time: at(), ...(node ? { extra: { metadata: { langgraph_node: node } } } : {}), child_runs: [] };
    if (m.role === 'assistant') children.push({ ...run, name: 'ChatModel', run_type: 'llm', inputs: { messages: messages.slice(0, k).map(openaiMessage) }, outputs: { choices: [{ message: openaiMessage(m) }] } });
    else if (m.role === 'tool') children.push({ ...run, name: t.name ?? 'tool', run_type: 'tool', inputs: {}, outputs: { output: messageContentText(t.content as string) } });
  });
  return { id, name: item.externalId ?? 'trajectory', run_type: 'chain', trace_id: id, start_time: children[0]?.start_time ?? at(), inputs: {}, outputs: {}, child_runs: children };
}

function encode(item: ItemRecord): Json[] {
  return item.responses.map((_, i) => {
    const kept = runFields(item, i, NAME).tree;
    return isPlainObject(kept) ? kept : buildTree(item, i);
  });
}

export const langsmith: TraceDescriptor = {
  name: NAME,
  title: 'LangSmith / LangChain run trees (llm, tool and chain runs)',
  doc: {
    source: 'LangSmith runs (Run data format) with their child_runs, one root run a line, one item; the last llm run holds the conversation',
    keeps: 'the run tree as it was; llm run ids are the turn ids, the LangGraph node each ran in who spoke',
    loses: 'a tree with no llm run is refused; feedback is kept, not read as an outcome',
  },
  detect: (r) => (typeof r.run_type === 'string' && 'child_runs' in r && 'inputs' in r ? '"run_type", "inputs" and "child_runs" (a LangSmith run tree)' : null),
  parse,
  encode,
};
