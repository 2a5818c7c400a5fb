// TRL vision preference · images column + {"type": "image"} placeholders (JSON Lines, images beside it): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { isPlainObject } from '../validate';
import { parseTrlVision } from './trlVision';

const isList = Array.isArray;

export const descriptor: FormatDescriptor = {
  name: 'trl-vision',
  family: 'images',
  title: "TRL vision preference · images column + {\"type\": \"image\"} placeholders (JSON Lines, images beside it)",
  detect: {
    rank: 500,
    why: (record) =>
      'chosen' in record && 'rejected' in record && 'prompt' in record && (isList(record.images) || isPlainObject(record.image) || typeof record.image === 'string')
      ? '"prompt", "chosen", "rejected" and an "images" list (TRL vision preference)'
      : null,
  },
  parse: parseTrlVision,
  write: (passes) => passes.trlVision,
  carries: 'content',
  doc: {
    source: "Hugging Face TRL (vision)",
    keeps: "messages with image placeholders, images beside the file",
    loses: "models",
  },
};
