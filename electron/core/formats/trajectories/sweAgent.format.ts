// SWE-agent trajectories (.traj): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { mergeRuns } from './common';
import { encodeSweAgent, parseSweAgent, sweAgentKey } from './sweAgent';

const isList = Array.isArray;

export const descriptor: FormatDescriptor = {
  name: 'swe-agent',
  family: 'trajectories',
  title: "SWE-agent trajectories (.traj)",
  detect: {
    rank: 220,
    why: (record) =>
      isList(record.trajectory) && ('history' in record || 'info' in record)
      ? 'a "trajectory" of steps (thought / action / observation) with "info" and "history" (a SWE-agent .traj)'
      : null,
  },
  parse: parseSweAgent,
  group: { key: sweAgentKey, merge: mergeRuns },
  write: (passes) => passes.trajectories(encodeSweAgent),
  carries: 'content',
  doc: {
    source: "SWE-agent",
    keeps: "the runs, tool calls, outcome",
    loses: "turn ids",
  },
};
