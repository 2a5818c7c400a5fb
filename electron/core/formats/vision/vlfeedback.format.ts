// VLFeedback (an image question, four completions rated per aspect): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { parseVlfeedback } from './vlfeedback';

export const descriptor: FormatDescriptor = {
  name: 'vlfeedback',
  family: 'images',
  title: "VLFeedback (an image question, four completions rated per aspect)",
  detect: {
    rank: 330,
    why: (record) =>
      typeof record.prompt === 'string' && 'completions' in record && ('img_path' in record || 'image' in record)
      ? '"prompt", an image ("img_path") and "completions" rated per aspect (VLFeedback)'
      : null,
  },
  parse: parseVlfeedback,
  carries: 'text',
  doc: {
    source: "VLFeedback",
    keeps: "the question, responses, images, ratings per aspect",
    loses: "—",
  },
};
