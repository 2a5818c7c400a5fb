// OpenHands events (evaluation output, or an event list): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { encodeOpenhands, mergeOpenhands, openhandsKey, parseOpenhands } from './openhands';

const isList = Array.isArray;

export const descriptor: FormatDescriptor = {
  name: 'openhands',
  family: 'trajectories',
  title: "OpenHands events (evaluation output, or an event list)",
  detect: {
    rank: 240,
    why: (record) =>
      isList(record.history) && 'instance_id' in record
      ? '"instance_id" and a "history" of events (an OpenHands evaluation output)'
      : typeof record.source === 'string' && ((typeof record.action === 'string' && 'args' in record) || (typeof record.observation === 'string' && ('extras' in record || 'content' in record)))
        ? 'events with "source" and "action"/"args" or "observation"/"content" (an OpenHands event list)'
        : null,
  },
  parse: parseOpenhands,
  group: { key: openhandsKey, merge: mergeOpenhands },
  write: (passes) => passes.trajectories(encodeOpenhands),
  carries: 'content',
  doc: {
    source: "OpenHands",
    keeps: "the runs, tool calls, outcome",
    loses: "turn ids",
  },
};
