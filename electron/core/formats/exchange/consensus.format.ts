// Consensus: every annotator’s label, soft labels, Dawid–Skene, the hard label: its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';

export const descriptor: FormatDescriptor = {
  name: 'consensus',
  family: 'pairs',
  title: "Consensus: every annotator’s label, soft labels, Dawid–Skene, the hard label",
  write: (passes) => passes.consensus,
  carries: 'content',
  doc: {
    source: "Arbiter",
    keeps: "every annotator's pairwise label, soft labels, Dawid–Skene, the hard label",
    loses: "other tasks",
  },
};
