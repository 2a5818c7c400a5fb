// Mind2Web / Multimodal-Mind2Web (a row per action step: screenshot, operation, target box; a task per item): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { mergeMind2web, mind2webKey, parseMind2web } from './mind2web';

const isList = Array.isArray;

export const descriptor: FormatDescriptor = {
  name: 'mind2web',
  family: 'trajectories',
  title: "Mind2Web / Multimodal-Mind2Web (a row per action step: screenshot, operation, target box; a task per item)",
  detect: {
    rank: 200,
    why: (record) =>
      'action_uid' in record && ('operation' in record || 'annotation_id' in record || 'raw_html' in record)
      ? '"action_uid", "operation" and "annotation_id" (a Mind2Web action step, one row per step)'
      : isList(record.actions) && 'annotation_id' in record && 'confirmed_task' in record
        ? '"annotation_id", "confirmed_task" and its "actions" (a Mind2Web task)'
        : null,
  },
  parse: parseMind2web,
  group: { key: mind2webKey, merge: mergeMind2web },
  carries: 'text',
  doc: {
    source: "OSU Mind2Web / Multimodal-Mind2Web",
    keeps: "a task per item, a turn per step on its screenshot",
    loses: "raw HTML",
  },
};
