// Math-Shepherd (ки step tags, +/− labels): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { encodeMathShepherdChain } from './chainEncoders';
import { STEP_TAG, parseMathShepherd } from './mathShepherd';

export const descriptor: FormatDescriptor = {
  name: 'math-shepherd',
  family: 'steps',
  title: "Math-Shepherd (ки step tags, +/− labels)",
  detect: {
    rank: 610,
    why: (record) =>
      typeof record.input === 'string' && typeof record.label === 'string' && record.input.includes(STEP_TAG)
      ? `"input" with "${STEP_TAG}" step tags and a "label" tagging each step + or -`
      : null,
  },
  parse: parseMathShepherd,
  write: (passes) => passes.steps(encodeMathShepherdChain),
  carries: 'text',
  doc: {
    source: "Math-Shepherd (peiyi9979)",
    keeps: "steps, + / −, task, spacing",
    loses: "neutral vs bad",
  },
};
