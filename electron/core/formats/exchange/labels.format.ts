// Arbiter labels (lossless): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';

export const descriptor: FormatDescriptor = {
  name: 'labels',
  family: 'arbiter',
  title: "Arbiter labels (lossless)",
  write: (passes) => passes.labels,
  carries: 'content',
  doc: {
    source: "Arbiter",
    keeps: "every label revision, lossless",
    loses: "nothing (items: export arbiter)",
  },
};
