// TRL preference · conversational, explicit prompt: its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { encodeTrlChat, parseTrlChat } from './trl';

const isList = Array.isArray;

export const descriptor: FormatDescriptor = {
  name: 'trl-chat',
  family: 'pairs',
  title: "TRL preference · conversational, explicit prompt",
  detect: {
    rank: 520,
    why: (record) =>
      'chosen' in record && 'rejected' in record && isList(record.prompt) ? 'a message-list "prompt" with "chosen" and "rejected"' : null,
  },
  parse: parseTrlChat,
  write: (passes) => passes.pairs(encodeTrlChat, false),
  carries: 'content',
  doc: {
    source: "Hugging Face TRL",
    keeps: "messages with their content parts",
    loses: "models, strength, metadata",
  },
};
