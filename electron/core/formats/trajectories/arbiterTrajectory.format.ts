// Arbiter trajectories (task, runs, turns with ids): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { encodeArbiterTrajectory, parseArbiterTrajectory } from './arbiterTrajectory';

const isList = Array.isArray;

export const descriptor: FormatDescriptor = {
  name: 'arbiter-trajectory',
  family: 'trajectories',
  title: "Arbiter trajectories (task, runs, turns with ids)",
  detect: {
    rank: 250,
    why: (record) =>
      isList(record.trajectories) && 'task' in record ? 'a "task" and its "trajectories" (Arbiter trajectories)' : null,
  },
  parse: parseArbiterTrajectory,
  write: (passes) => passes.trajectories(encodeArbiterTrajectory),
  carries: 'content',
  doc: {
    source: "Arbiter",
    keeps: "the runs, tool calls, outcome, turn ids",
    loses: "nothing of the trajectory",
  },
};
