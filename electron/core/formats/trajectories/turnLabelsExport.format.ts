// Per-turn labels with the taxonomy (rating, tags, severity, tool verdicts, attribution, outcome): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';

export const descriptor: FormatDescriptor = {
  name: 'turn-labels',
  family: 'trajectories',
  title: "Per-turn labels with the taxonomy (rating, tags, severity, tool verdicts, attribution, outcome)",
  write: (passes) => passes.turns,
  carries: 'text',
  doc: {
    source: "Arbiter, for TRL and agent-reward trainers",
    keeps: "every per-turn judgement with the taxonomy",
    loses: "what the trainer does not read",
  },
};
