// TRL preference · standard, explicit prompt: its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { encodeTrl, parseTrl } from './trl';

export const descriptor: FormatDescriptor = {
  name: 'trl',
  family: 'pairs',
  title: "TRL preference · standard, explicit prompt",
  detect: {
    rank: 530,
    why: (record) =>
      'chosen' in record && 'rejected' in record && 'prompt' in record ? 'string "prompt", "chosen" and "rejected"' : null,
  },
  parse: parseTrl,
  write: (passes) => passes.pairs(encodeTrl, true),
  carries: 'text',
  doc: {
    source: "Hugging Face TRL",
    keeps: "prompt, chosen, rejected",
    loses: "models, strength, metadata",
  },
};
