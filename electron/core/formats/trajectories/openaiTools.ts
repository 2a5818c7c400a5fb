// OpenAI / TRL tool-calling chats (`openai-tools`), one conversation per line:
//   {"messages": [{"role": "system"|"user"|"assistant"|"tool", "content", "tool_calls": [{"id", "type": "function",
//     "function": {"name", "arguments"}}], "tool_call_id", "name"}], "tools": [JSON schemas]}
// TRL's tool-calling datasets write `arguments` as a JSON object (huggingface/trl docs, "Dataset formats",
// tool calling); the OpenAI chat API sends it as a JSON string with `tool_call_id` on the tool reply. Both are
// kept exactly as they came. A preference pair of such chats, {"prompt"?, "chosen", "rejected", "tools"?}
// (explicit prompt, or implicit: chosen and rejected each the whole conversation), is one item with two
// trajectories, the chosen first, and the file's preference becomes the `source` annotator's choice (A).
//
// Import: the leading system / user messages are the task (the prompt); the rest of the messages are the
// trajectory. Consecutive lines of one task (the same "id", or the same task messages) are one item.
// Every other field of the line ("tools", "id", …) is kept with its run and written back.
import type { ChatMessage, ItemRecord } from '../../../../shared/domain';
import { canonical, plainMessages } from '../../../../shared/trajectory';
import { RecordError, type ParsedRecord } from '../types';
import { isPlainObject } from '../validate';
import { checkMessages, itemOfRuns, leadingTask, runFields, runMessages, runRecord, trajectoryMetadata, without, type Json } from './common';

export const OPENAI_TOOLS = 'openai-tools';

const taskId = (record: Json) => (typeof record.id === 'string' || typeof record.id === 'number' ? String(record.id) : null);

export function parseOpenaiTools(record: Json): ParsedRecord {
  if ('chosen' in record || 'rejected' in record) return parsePair(record);
  const messages = checkMessages(record.messages, 'messages');
  return runRecord({
    format: OPENAI_TOOLS,
    externalId: taskId(record),
    messages,
    fallbackPrompt: taskId(record) ?? 'task',
    model: typeof record.model === 'string' ? record.model : null,
    reference: null,
    run: without(record, ['messages']),
    outcome: null,
    where: 'messages',
  });
}

function parsePair(record: Json): ParsedRecord {
  const chosen = checkMessages(record.chosen, 'chosen');
  const rejected = checkMessages(record.rejected, 'rejected');
  let prompt: ChatMessage[];
  let runs: ChatMessage[][];
  let shape: 'explicit' | 'implicit';
  if (record.prompt !== undefined) {
    prompt = checkMessages(record.prompt, 'prompt');
    if (prompt.length === 0) throw new RecordError('prompt: an empty list (leave it out when chosen and rejected hold the whole conversation)');
    runs = [chosen, rejected];
    shape = 'explicit';
  } else {
    // Implicit prompt: the leading task messages both conversations share.
    let n = Math.min(leadingTask(chosen), leadingTask(rejected));
    for (let i = 0; i < n; i++) if (canonical(chosen[i]) !== canonical(rejected[i])) n = i;
    if (n === 0) throw new RecordError('chosen, rejected: they share no leading system or user message, so there is no task to compare them on');
    prompt = chosen.slice(0, n);
    runs = [chosen.slice(n), rejected.slice(n)];
    shape = 'implicit';
  }
  const parsed = itemOfRuns({
    format: OPENAI_TOOLS,
    externalId: taskId(record),
    prompt,
    reference: null,
    runs: runs.map((content) => ({ content, model: null, run: {}, outcome: null })),
    record: { ...without(record, ['prompt', 'chosen', 'rejected']), pair: shape },
  });
  parsed.preference = 'A';
  return parsed;
}

let pairs = 0;
/** Consecutive lines of one task are one item; a pair is an item of its own. */
export function openaiToolsKey(record: Json): string {
  if ('chosen' in record || 'rejected' in record) return `\u0000pair ${pairs++}`;
  const id = taskId(record);
  if (id !== null) return `id ${id}`;
  const messages = Array.isArray(record.messages) ? (record.messages as ChatMessage[]) : [];
  return `task ${canonical(messages.slice(0, leadingTask(messages)))}`;
}

/** The lines of one item: its pair, or one conversation per trajectory. */
export function encodeOpenaiTools(item: ItemRecord): Json[] {
  const meta = trajectoryMetadata(item);
  const record = meta?.format === OPENAI_TOOLS && isPlainObject(meta.record) ? meta.record : null;
  if (record && (record.pair === 'explicit' || record.pair === 'implicit') && item.responses.length === 2) {
    const rest = without(record, ['pair']);
    const prompt = plainMessages(typeof item.prompt === 'string' ? [{ role: 'user', content: item.prompt }] : item.prompt);
    const [chosen, rejected] = [0, 1].map((i) => plainMessages(item.responses[i]!.content as ChatMessage[]));
    if (record.pair === 'explicit') return [{ prompt, chosen, rejected, ...rest }];
    return [{ chosen: [...prompt, ...chosen!], rejected: [...prompt, ...rejected!], ...rest }];
  }
  return item.responses.map((_, i) => ({ ...runFields(item, i, OPENAI_TOOLS), messages: plainMessages(runMessages(item, i)) }));
}
