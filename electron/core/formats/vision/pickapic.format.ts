// Pick-a-Pic (a caption, two generated images jpg_0 / jpg_1, label_0 / label_1): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { parsePickapic } from './pickapic';

export const descriptor: FormatDescriptor = {
  name: 'pickapic',
  family: 'images',
  title: "Pick-a-Pic (a caption, two generated images jpg_0 / jpg_1, label_0 / label_1)",
  detect: {
    rank: 320,
    why: (record) =>
      typeof record.caption === 'string' && ('jpg_0' in record || 'image_0_url' in record) && ('label_0' in record || 'jpg_1' in record)
      ? '"caption", two images "jpg_0"/"jpg_1" and "label_0"/"label_1" (Pick-a-Pic)'
      : null,
  },
  parse: parsePickapic,
  write: (passes) => passes.vision,
  carries: 'content',
  doc: {
    source: "Pick-a-Pic (yuvalkirstain)",
    keeps: "caption, two images, preference",
    loses: "user ids",
  },
};
