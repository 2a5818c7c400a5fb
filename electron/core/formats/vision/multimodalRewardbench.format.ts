// Multimodal RewardBench (Text, Image, Output1, Output2, Better; images beside the file): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { parseMultimodalRewardbench } from './multimodalRewardbench';

export const descriptor: FormatDescriptor = {
  name: 'multimodal-rewardbench',
  family: 'images',
  title: "Multimodal RewardBench (Text, Image, Output1, Output2, Better; images beside the file)",
  detect: {
    rank: 300,
    why: (record) =>
      'Output1' in record && 'Output2' in record && ('Text' in record || 'Image' in record)
      ? '"Text", "Image", "Output1", "Output2" and "Better" (Multimodal RewardBench)'
      : null,
  },
  parse: parseMultimodalRewardbench,
  write: (passes) => passes.vision,
  carries: 'content',
  doc: {
    source: "Meta Multimodal RewardBench",
    keeps: "the question, responses, images",
    loses: "models",
  },
};
