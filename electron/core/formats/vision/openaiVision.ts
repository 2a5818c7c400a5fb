// OpenAI-style vision chat pairs: TRL's conversational preference shape (prompt / chosen / rejected message
// lists) whose images are OpenAI `image_url` content parts, written as data URLs so that the file carries
// its pictures:
//   {"prompt": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:image/png;base64,…"}},
//                                            {"type": "text", "text": "What is in the picture?"}]}],
//    "chosen": [{"role": "assistant", "content": "A cat."}], "rejected": [{"role": "assistant", "content": "A dog."}]}
// The content-part shape is OpenAI's Chat Completions one (what the VL-RewardBench and Multimodal
// RewardBench judge scripts send). Import reads it as trl-chat does, each image_url part stored by
// ../../images/resolve.ts (a data URL inline, an http URL kept unfetched). Export: a pair per decided
// pair (a ranking's pairs by --ranking-pairs); each stored image becomes a data URL of its bytes as stored,
// an image not available offline its URL.
import type { ChatMessage, Content, ContentPart } from '../../../../shared/domain';
import { isImagePart, type ImagePart } from '../../../../shared/images';
import { toChat } from '../content';

/** A stored image as an image_url part: a data URL of its bytes, or the URL it was kept as. */
export type ImageUrlOf = (part: ImagePart) => string | null;

function message(m: ChatMessage, urlOf: ImageUrlOf): ChatMessage {
  if (!Array.isArray(m.content)) return m;
  const content: ContentPart[] = [];
  for (const part of m.content) {
    if (!isImagePart(part)) {
      content.push(part);
      continue;
    }
    const url = urlOf(part);
    if (url !== null) content.push({ type: 'image_url', image_url: { url } });
  }
  return { ...m, content };
}

function messages(content: Content, role: 'user' | 'assistant', urlOf: ImageUrlOf): ChatMessage[] {
  return toChat(content, role).map((m) => message(m, urlOf));
}

export function encodeOpenaiVision(pair: { prompt: Content; chosen: Content; rejected: Content }, urlOf: ImageUrlOf): unknown {
  return {
    prompt: messages(pair.prompt, 'user', urlOf),
    chosen: messages(pair.chosen, 'assistant', urlOf),
    rejected: messages(pair.rejected, 'assistant', urlOf),
  };
}
