// VL-RewardBench (an image question, responses, human_ranking; images beside the file): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { parseVlRewardbench } from './vlRewardbench';

const isList = Array.isArray;

export const descriptor: FormatDescriptor = {
  name: 'vl-rewardbench',
  family: 'images',
  title: "VL-RewardBench (an image question, responses, human_ranking; images beside the file)",
  detect: {
    rank: 310,
    why: (record) =>
      typeof record.query === 'string' && isList(record.response) && ('human_ranking' in record || 'image' in record || 'image_path' in record)
      ? '"query", a "response" list, "human_ranking" and an image (VL-RewardBench)'
      : null,
  },
  parse: parseVlRewardbench,
  write: (passes) => passes.vision,
  carries: 'content',
  doc: {
    source: "VL-RewardBench",
    keeps: "the question, responses, images, ranking",
    loses: "models",
  },
};
