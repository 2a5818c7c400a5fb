// TRL unpaired preference (KTO): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { parseTrlUnpaired } from './unpaired';

export const descriptor: FormatDescriptor = {
  name: 'trl-unpaired',
  family: 'single',
  title: "TRL unpaired preference (KTO)",
  detect: {
    rank: 640,
    why: (record) =>
      'completion' in record && typeof record.label === 'boolean' ? '"prompt", "completion" and a true/false "label" (TRL unpaired preference)' : null,
  },
  parse: parseTrlUnpaired,
  write: (passes) => passes.unpaired,
  carries: 'content',
  doc: {
    source: "Hugging Face TRL (KTO)",
    keeps: "prompt, completion, verdict",
    loses: "models, metadata",
  },
};
