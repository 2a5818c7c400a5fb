// UltraFeedback, raw (ratings per aspect, critiques): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { parseUltrafeedback } from './ultrafeedback';

const isList = Array.isArray;

export const descriptor: FormatDescriptor = {
  name: 'ultrafeedback',
  family: 'ratings',
  title: "UltraFeedback, raw (ratings per aspect, critiques)",
  detect: {
    rank: 400,
    why: (record) =>
      typeof record.instruction === 'string' && (isList(record.completions) || isList(record.models))
      ? '"instruction" with "completions" rated per aspect (UltraFeedback, raw)'
      : null,
  },
  parse: parseUltrafeedback,
  write: (passes) => passes.judged,
  carries: 'text',
  doc: {
    source: "OpenBMB UltraFeedback",
    keeps: "ratings per aspect, critiques, rationales (file’s own)",
    loses: "rationales next to a person’s ratings",
  },
};
