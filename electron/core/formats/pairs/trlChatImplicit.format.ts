// TRL preference · conversational, implicit prompt: its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { encodeTrlChatImplicit, parseTrlChatImplicit } from './trl';

const isList = Array.isArray;

export const descriptor: FormatDescriptor = {
  name: 'trl-chat-implicit',
  family: 'pairs',
  title: "TRL preference · conversational, implicit prompt",
  detect: {
    rank: 540,
    why: (record) =>
      'chosen' in record && 'rejected' in record && !('prompt' in record) && isList(record.chosen) ? 'message-list "chosen" and "rejected" with no "prompt"' : null,
  },
  parse: parseTrlChatImplicit,
  write: (passes) => passes.pairs(encodeTrlChatImplicit, false),
  carries: 'content',
  doc: {
    source: "Hugging Face TRL",
    keeps: "whole conversations",
    loses: "models, strength, metadata",
  },
};
