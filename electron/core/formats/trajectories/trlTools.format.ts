// TRL tool-calling preference (DPO: prompt / chosen / rejected with tool_calls, tools): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';

export const descriptor: FormatDescriptor = {
  name: 'trl-tools',
  family: 'trajectories',
  title: "TRL tool-calling preference (DPO: prompt / chosen / rejected with tool_calls, tools)",
  write: (passes) => passes.turns,
  carries: 'text',
  doc: {
    source: "Arbiter, for TRL and agent-reward trainers",
    keeps: "decided tool-call pairs with tools",
    loses: "what the trainer does not read",
  },
};
