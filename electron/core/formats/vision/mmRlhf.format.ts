// MM-RLHF pairs (prompt, image, chosen, rejected with their critiques; images beside the file): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { parseMmRlhf } from './mmRlhf';

export const descriptor: FormatDescriptor = {
  name: 'mm-rlhf',
  family: 'images',
  title: "MM-RLHF pairs (prompt, image, chosen, rejected with their critiques; images beside the file)",
  detect: {
    rank: 340,
    why: (record) =>
      typeof record.prompt === 'string' && 'chosen' in record && 'rejected' in record && ('chosen_reason' in record || 'rejected_reason' in record) && ('image' in record || 'video' in record)
      ? '"prompt", "chosen", "rejected", their critiques "chosen_reason" / "rejected_reason" and an "image" or a "video" (MM-RLHF)'
      : null,
  },
  parse: parseMmRlhf,
  write: (passes) => passes.vision,
  carries: 'content',
  doc: {
    source: "MM-RLHF",
    keeps: "the question, responses, images, critiques",
    loses: "video",
  },
};
