// TRL preference · standard, implicit prompt: its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { encodeTrlImplicit, parseTrlImplicit } from './trl';

export const descriptor: FormatDescriptor = {
  name: 'trl-implicit',
  family: 'pairs',
  title: "TRL preference · standard, implicit prompt",
  detect: {
    rank: 560,
    why: (record) =>
      'chosen' in record && 'rejected' in record ? 'string "chosen" and "rejected" with no "prompt"' : null,
  },
  parse: parseTrlImplicit,
  write: (passes) => passes.pairs(encodeTrlImplicit, true),
  carries: 'text',
  doc: {
    source: "Hugging Face TRL",
    keeps: "prompt + response text",
    loses: "models, strength, metadata",
  },
};
