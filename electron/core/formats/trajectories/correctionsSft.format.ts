// Corrected agent turns as SFT (prompt + corrected turn): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';

export const descriptor: FormatDescriptor = {
  name: 'corrections-sft',
  family: 'trajectories',
  title: "Corrected agent turns as SFT (prompt + corrected turn)",
  write: (passes) => passes.turns,
  carries: 'text',
  doc: {
    source: "Arbiter, for TRL and agent-reward trainers",
    keeps: "corrected turns as targets",
    loses: "what the trainer does not read",
  },
};
