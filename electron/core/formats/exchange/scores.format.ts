// Model scores (one line per scored response): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';

export const descriptor: FormatDescriptor = {
  name: 'scores',
  family: 'arbiter',
  title: "Model scores (one line per scored response)",
  write: (passes) => passes.scores,
  carries: 'content',
  doc: {
    source: "Arbiter",
    keeps: "each model score of each response",
    loses: "labels",
  },
};
