// τ-bench results (task_id, reward, traj): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { mergeRuns } from './common';
import { encodeTauBench, parseTauBench, tauBenchKey } from './tauBench';

const isList = Array.isArray;

export const descriptor: FormatDescriptor = {
  name: 'tau-bench',
  family: 'trajectories',
  title: "τ-bench results (task_id, reward, traj)",
  detect: {
    rank: 230,
    why: (record) =>
      isList(record.traj) && 'task_id' in record ? '"task_id", "reward" and a "traj" of messages (τ-bench results)' : null,
  },
  parse: parseTauBench,
  group: { key: tauBenchKey, merge: mergeRuns, anyOrder: true },
  write: (passes) => passes.trajectories(encodeTauBench),
  carries: 'content',
  doc: {
    source: "Sierra τ-bench",
    keeps: "the runs, tool calls, outcome, reward",
    loses: "turn ids",
  },
};
