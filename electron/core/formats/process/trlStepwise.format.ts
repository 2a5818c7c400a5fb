// TRL stepwise supervision (PRM): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { encodeStepwiseChain } from './chainEncoders';
import { parseTrlStepwise } from './stepwise';

const isList = Array.isArray;

export const descriptor: FormatDescriptor = {
  name: 'trl-stepwise',
  family: 'steps',
  title: "TRL stepwise supervision (PRM)",
  detect: {
    rank: 630,
    why: (record) =>
      isList(record.completions) && isList(record.labels) ? '"prompt", a "completions" list and a "labels" list (TRL stepwise supervision)' : null,
  },
  parse: parseTrlStepwise,
  write: (passes) => passes.steps(encodeStepwiseChain),
  carries: 'text',
  doc: {
    source: "Hugging Face TRL (PRM)",
    keeps: "steps up to the first error, good / bad",
    loses: "neutral vs bad (--neutral), steps after the first error",
  },
};
