// HelpSteer2 ratings rows (one per response): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { helpsteer2Key, mergeHelpsteer2, parseHelpsteer2 } from './helpsteer2';

export const descriptor: FormatDescriptor = {
  name: 'helpsteer2',
  family: 'ratings',
  title: "HelpSteer2 ratings rows (one per response)",
  detect: {
    rank: 430,
    why: (record) =>
      'prompt' in record && 'response' in record && 'helpfulness' in record && 'correctness' in record
      ? '"prompt", "response" and "helpfulness", "correctness"… (HelpSteer2 ratings rows)'
      : null,
  },
  parse: parseHelpsteer2,
  group: { key: helpsteer2Key, merge: mergeHelpsteer2 },
  write: (passes) => passes.judged,
  carries: 'text',
  doc: {
    source: "NVIDIA HelpSteer2",
    keeps: "the five attributes per response",
    loses: "other tasks",
  },
};
