// Arbiter items: its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { parseArbiter } from './arbiter';

export const descriptor: FormatDescriptor = {
  name: 'arbiter',
  family: 'arbiter',
  title: "Arbiter items",
  detect: {
    rank: 100,
    why: (record) =>
      'responses' in record ? 'a "responses" list' : null,
  },
  parse: parseArbiter,
  write: (passes) => passes.items,
  carries: 'content',
  doc: {
    source: "Arbiter",
    keeps: "everything an item holds: prompt, responses (content parts, images, steps), reference, metadata",
    loses: "labels (export labels for them)",
  },
};
