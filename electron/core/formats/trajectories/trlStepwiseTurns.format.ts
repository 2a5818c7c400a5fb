// TRL stepwise over agent turns (PRM; prompt as text): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';

export const descriptor: FormatDescriptor = {
  name: 'trl-stepwise-turns',
  family: 'trajectories',
  title: "TRL stepwise over agent turns (PRM; prompt as text)",
  write: (passes) => passes.turns,
  carries: 'text',
  doc: {
    source: "Arbiter, for TRL and agent-reward trainers",
    keeps: "agent turns as steps, good / bad",
    loses: "what the trainer does not read",
  },
};
