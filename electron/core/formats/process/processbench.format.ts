// ProcessBench (first wrong step): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { encodeProcessbenchChain } from './chainEncoders';
import { parseProcessbench } from './processbench';

const isList = Array.isArray;

export const descriptor: FormatDescriptor = {
  name: 'processbench',
  family: 'steps',
  title: "ProcessBench (first wrong step)",
  detect: {
    rank: 620,
    why: (record) =>
      'problem' in record && isList(record.steps) && (typeof record.label === 'number' || 'final_answer_correct' in record)
      ? '"problem", a "steps" list and a numeric "label" (the earliest wrong step, or -1)'
      : null,
  },
  parse: parseProcessbench,
  write: (passes) => passes.steps(encodeProcessbenchChain),
  carries: 'text',
  doc: {
    source: "Qwen ProcessBench",
    keeps: "first wrong step, outcome, generator",
    loses: "per-step ratings after the first error",
  },
};
