// Corrected agent turns as preference pairs (chosen = corrected, rejected = original): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';

export const descriptor: FormatDescriptor = {
  name: 'corrections-dpo',
  family: 'trajectories',
  title: "Corrected agent turns as preference pairs (chosen = corrected, rejected = original)",
  write: (passes) => passes.turns,
  carries: 'text',
  doc: {
    source: "Arbiter, for TRL and agent-reward trainers",
    keeps: "corrected vs original turns",
    loses: "what the trainer does not read",
  },
};
