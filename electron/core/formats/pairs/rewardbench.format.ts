// RewardBench: its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { encodeRewardbench, parseRewardbench } from './rewardbench';

export const descriptor: FormatDescriptor = {
  name: 'rewardbench',
  family: 'pairs',
  title: "RewardBench",
  detect: {
    rank: 510,
    why: (record) =>
      'chosen' in record && 'rejected' in record && ('chosen_model' in record || 'rejected_model' in record || 'subset' in record)
      ? '"prompt", "chosen", "rejected" with "chosen_model"/"rejected_model"/"subset"'
      : null,
  },
  parse: parseRewardbench,
  write: (passes) => passes.pairs(encodeRewardbench, true),
  carries: 'text',
  doc: {
    source: "AllenAI RewardBench",
    keeps: "id, models, subset",
    loses: "strength, other metadata",
  },
};
