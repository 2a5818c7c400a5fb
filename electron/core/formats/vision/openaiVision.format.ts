// OpenAI vision chat pairs (prompt / chosen / rejected with image_url data URLs): its descriptor (../registry.ts says what one holds and how to add a format).
import type { FormatDescriptor } from '../descriptor';
import { parseTrlChat } from '../pairs/trl';
import { isPlainObject } from '../validate';

const isList = Array.isArray;

/** Whether a message list holds an OpenAI image_url (or input_image) part. */
const holdsImageUrl = (value: unknown) =>
  isList(value) && value.some((m) => isPlainObject(m) && isList(m.content) && m.content.some((p) => isPlainObject(p) && (p.type === 'image_url' || p.type === 'input_image')));

export const descriptor: FormatDescriptor = {
  name: 'openai-vision',
  family: 'images',
  title: "OpenAI vision chat pairs (prompt / chosen / rejected with image_url data URLs)",
  detect: {
    rank: 360,
    why: (record) =>
      'chosen' in record && 'rejected' in record && isList(record.prompt) && holdsImageUrl(record.prompt)
      ? 'message-list "prompt", "chosen", "rejected" with OpenAI "image_url" parts'
      : null,
  },
  parse: parseTrlChat,
  write: (passes) => passes.vision,
  carries: 'content',
  doc: {
    source: "OpenAI chat (image_url parts)",
    keeps: "messages with data-URL images",
    loses: "models",
  },
};
