// Online-Mind2Web results (task, action_history, a screenshot per step): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { mergeOnlineMind2web, onlineMind2webKey, parseOnlineMind2web } from './onlineMind2web';

const isList = Array.isArray;

export const descriptor: FormatDescriptor = {
  name: 'online-mind2web',
  family: 'trajectories',
  title: "Online-Mind2Web results (task, action_history, a screenshot per step)",
  detect: {
    rank: 210,
    why: (record) =>
      isList(record.action_history) && ('task' in record || 'confirmed_task' in record) ? '"task" and an "action_history" (an Online-Mind2Web result)' : null,
  },
  parse: parseOnlineMind2web,
  group: { key: onlineMind2webKey, merge: mergeOnlineMind2web },
  carries: 'text',
  doc: {
    source: "OSU Online-Mind2Web",
    keeps: "a turn per action on its screenshot",
    loses: "—",
  },
};
