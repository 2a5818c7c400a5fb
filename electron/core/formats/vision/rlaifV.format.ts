// RLAIF-V (image, question, chosen, rejected): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { parseRlaifV } from './rlaifV';

export const descriptor: FormatDescriptor = {
  name: 'rlaif-v',
  family: 'images',
  title: "RLAIF-V (image, question, chosen, rejected)",
  detect: {
    rank: 350,
    why: (record) =>
      typeof record.question === 'string' && 'chosen' in record && 'rejected' in record && ('image' in record || 'image_path' in record)
      ? '"image", "question", "chosen" and "rejected" (RLAIF-V)'
      : null,
  },
  parse: parseRlaifV,
  carries: 'text',
  doc: {
    source: "OpenBMB RLAIF-V",
    keeps: "the question, responses, images",
    loses: "—",
  },
};
