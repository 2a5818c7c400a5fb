// UltraFeedback, binarized (chosen / rejected with scores): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { encodeUltrafeedbackBinarized, parseUltrafeedbackBinarized } from './ultrafeedbackBinarized';

const isList = Array.isArray;

export const descriptor: FormatDescriptor = {
  name: 'ultrafeedback-binarized',
  family: 'pairs',
  title: "UltraFeedback, binarized (chosen / rejected with scores)",
  detect: {
    rank: 410,
    why: (record) =>
      'chosen' in record && 'rejected' in record && isList(record.chosen) && ('score_chosen' in record || 'prompt_id' in record)
      ? '"prompt", "prompt_id", message-list "chosen"/"rejected" and "score_chosen" (UltraFeedback, binarized)'
      : null,
  },
  parse: parseUltrafeedbackBinarized,
  write: (passes) => passes.pairs(encodeUltrafeedbackBinarized, false),
  carries: 'text',
  doc: {
    source: "Hugging Face H4",
    keeps: "prompt_id, scores",
    loses: "models",
  },
};
