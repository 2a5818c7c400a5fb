// Anthropic HH-RLHF: its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { ASSISTANT, HUMAN } from '../content';
import { encodeHhRlhf, parseHhRlhf } from './hhRlhf';

export const descriptor: FormatDescriptor = {
  name: 'hh-rlhf',
  family: 'pairs',
  title: "Anthropic HH-RLHF",
  detect: {
    rank: 550,
    why: (record) =>
      'chosen' in record && 'rejected' in record && !('prompt' in record) && typeof record.chosen === 'string' && record.chosen.startsWith(HUMAN) && record.chosen.includes(ASSISTANT)
      ? '"chosen"/"rejected" are "\\n\\nHuman: … \\n\\nAssistant: …" transcripts'
      : null,
  },
  parse: parseHhRlhf,
  write: (passes) => passes.pairs(encodeHhRlhf, false),
  carries: 'text',
  doc: {
    source: "Anthropic",
    keeps: "transcripts",
    loses: "models, strength, metadata",
  },
};
