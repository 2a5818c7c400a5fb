// OpenAI / TRL tool-calling chats (messages with tool_calls, tools): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { isPlainObject } from '../validate';
import { mergeRuns } from './common';
import { encodeOpenaiTools, openaiToolsKey, parseOpenaiTools } from './openaiTools';

const isList = Array.isArray;

const hasToolTurns = (messages: unknown) => isList(messages) && messages.some((m) => isPlainObject(m) && (m.role === 'tool' || (isList(m.tool_calls) && m.tool_calls.length > 0)));

export const descriptor: FormatDescriptor = {
  name: 'openai-tools',
  family: 'trajectories',
  title: "OpenAI / TRL tool-calling chats (messages with tool_calls, tools)",
  detect: {
    rank: 260,
    why: (record) =>
      hasToolTurns(record.messages) || (isList(record.messages) && isList(record.tools))
      ? '"messages" with "tool_calls" and "tool" replies (an OpenAI / TRL tool-calling chat)'
      : 'chosen' in record && 'rejected' in record && (hasToolTurns(record.chosen) || hasToolTurns(record.rejected))
        ? '"chosen" and "rejected" chats with "tool_calls" (a TRL tool-calling preference pair)'
        : null,
  },
  parse: parseOpenaiTools,
  group: { key: openaiToolsKey, merge: mergeRuns },
  write: (passes) => passes.trajectories(encodeOpenaiTools),
  carries: 'content',
  doc: {
    source: "OpenAI / Hugging Face TRL",
    keeps: "the runs, tool calls, outcome",
    loses: "turn ids (arbiter-trajectory keeps them)",
  },
};
