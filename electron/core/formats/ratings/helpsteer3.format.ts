// HelpSteer3 preference (per-annotator preferences): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { parseHelpsteer3 } from './helpsteer3';

const isList = Array.isArray;

export const descriptor: FormatDescriptor = {
  name: 'helpsteer3',
  family: 'pairs',
  title: "HelpSteer3 preference (per-annotator preferences)",
  detect: {
    rank: 440,
    why: (record) =>
      isList(record.context) && ('response1' in record || 'overall_preference' in record || 'individual_preference' in record)
      ? '"context", "response1", "response2" and "overall_preference" (HelpSteer3 preference)'
      : null,
  },
  parse: parseHelpsteer3,
  write: (passes) => passes.judged,
  carries: 'text',
  doc: {
    source: "NVIDIA HelpSteer3",
    keeps: "overall and per-annotator preferences, reasoning, feedback",
    loses: "models",
  },
};
