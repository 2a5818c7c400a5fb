// OpenRLHF reward data (prompt / chosen / rejected / margin): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { encodeOpenrlhf } from './openrlhf';

export const descriptor: FormatDescriptor = {
  name: 'openrlhf',
  family: 'pairs',
  title: "OpenRLHF reward data (prompt / chosen / rejected / margin)",
  write: (passes) => passes.pairs(encodeOpenrlhf, true),
  carries: 'text',
  doc: {
    source: "OpenRLHF",
    keeps: "prompt, chosen, rejected, margin (mean strength)",
    loses: "models, metadata",
  },
};
