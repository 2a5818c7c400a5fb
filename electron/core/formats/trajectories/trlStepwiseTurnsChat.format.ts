// TRL stepwise over agent turns (PRM; prompt as messages): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';

export const descriptor: FormatDescriptor = {
  name: 'trl-stepwise-turns-chat',
  family: 'trajectories',
  title: "TRL stepwise over agent turns (PRM; prompt as messages)",
  write: (passes) => passes.turns,
  carries: 'text',
  doc: {
    source: "Arbiter, for TRL and agent-reward trainers",
    keeps: "agent turns as steps, prompt as messages",
    loses: "what the trainer does not read",
  },
};
