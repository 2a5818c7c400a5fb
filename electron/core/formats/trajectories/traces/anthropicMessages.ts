// Anthropic Messages (`anthropic-messages`): one Messages API request a record, its conversation so far
// (docs.anthropic.com, "Messages API" (POST /v1/messages: model, system, messages, tools) and "Tool use"
// (tool_use / tool_result blocks), "Extended thinking" (thinking blocks)): {"model", "system": text or text
// blocks, "messages": [{"role", "content"}], "tools": [...], …}. The blocks: ./anthropicBlocks.ts.
// One record is one item of one run: the system prompt and the first user message are the task; the rest
// are the turns. Every other field of the record stays with the run and is written back.
import type { ChatMessage, ItemRecord } from '../../../../../shared/domain';
import { RecordError } from '../../types';
import { isPlainObject } from '../../validate';
import { describe, runFields, runMessages, runRecord, without, type Json } from '../common';
import { fromAnthropic, hasAnthropicBlocks, toAnthropic } from './anthropicBlocks';
import type { TraceDescriptor } from './descriptor';

const NAME = 'anthropic-messages';

function parse(record: Json) {
  if (!Array.isArray(record.messages)) throw new RecordError(`messages: ${record.messages === undefined ? 'missing' : `expected a list of messages, got ${describe(record.messages)}`}`);
  const messages: ChatMessage[] = [];
  const system = record.system;
  if (system !== undefined) {
    if (!(typeof system === 'string' || (Array.isArray(system) && system.every((b) => isPlainObject(b) && b.type === 'text' && typeof b.text === 'string'))))
      throw new RecordError(`system: expected text or a list of text blocks, got ${describe(system)}`);
    messages.push({ role: 'system', content: system as ChatMessage['content'], arbiter: { rest: { system: true } } });
  }
  record.messages.forEach((m, i) => {
    if (!isPlainObject(m)) throw new RecordError(`messages[${i}]: expected a message object, got ${describe(m)}`);
    messages.push(...fromAnthropic(m, `messages[${i}]`));
  });
  return runRecord({
    format: NAME,
    externalId: null,
    messages,
    fallbackPrompt: 'Anthropic conversation',
    model: typeof record.model === 'string' ? record.model : null,
    reference: null,
    run: without(record, ['system', 'messages']),
    outcome: null,
    where: 'messages',
  });
}

function encode(item: ItemRecord): Json[] {
  return item.responses.map((_, i) => {
    const all = runMessages(item, i);
    const system = all[0] && all[0].role === 'system' ? all[0] : null;
    const messages = toAnthropic(system ? all.slice(1) : all).map((m) => m.message);
    const run = runFields(item, i, NAME);
    const out: Json = { ...(Object.keys(run).length ? run : { model: item.responses[i]!.model ?? 'unknown' }) };
    if (system) out.system = system.content;
    out.messages = messages;
    return out;
  });
}

export const anthropicMessages: TraceDescriptor = {
  name: NAME,
  title: 'Anthropic Messages (messages with tool_use / tool_result / thinking blocks)',
  doc: {
    source: 'Anthropic Messages API requests (docs.anthropic.com, Messages API, Tool use, Extended thinking): one request a line, one item',
    keeps: 'every message, block, thinking signature and field of the request',
    loses: 'nothing of its own; another format\'s trajectory gets made-up tool_use ids where it had none',
  },
  detect: (record) => (hasAnthropicBlocks(record.messages) && !('chosen' in record) ? '"messages" whose content has "tool_use", "tool_result" or "thinking" blocks (Anthropic Messages)' : null),
  parse,
  encode,
};
