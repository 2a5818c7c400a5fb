// HelpSteer2 preference rows (strength −3…+3): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { parseHelpsteer2Preference } from './helpsteer2';

export const descriptor: FormatDescriptor = {
  name: 'helpsteer2-preference',
  family: 'pairs',
  title: "HelpSteer2 preference rows (strength −3…+3)",
  detect: {
    rank: 420,
    why: (record) =>
      'response_1' in record && 'response_2' in record && 'preference_strength' in record
      ? '"response_1", "response_2" and "preference_strength" (HelpSteer2 preference)'
      : null,
  },
  parse: parseHelpsteer2Preference,
  write: (passes) => passes.judged,
  carries: 'text',
  doc: {
    source: "NVIDIA HelpSteer2",
    keeps: "preference −3…+3, statement, elaboration",
    loses: "models",
  },
};
