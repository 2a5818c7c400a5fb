// One walk over a message list's content parts that replaces the parts a test picks and copies only what
// changes: a content without such parts comes back as the same object (imports store images and videos
// this way: electron/core/images/resolve.ts, electron/core/videos/resolve.ts).
import type { ChatMessage, Content, ContentPart } from './domain';

/**
 * `content` with each part `pick` accepts replaced by `replace(part, message index, part index)`; a new list
 * only where something was replaced, the rest shared with the input. Text content is returned as it is.
 */
export function replaceParts(content: Content, pick: (part: unknown) => part is ContentPart, replace: (part: ContentPart, m: number, p: number) => ContentPart): Content {
  if (typeof content === 'string') return content;
  let changed: ChatMessage[] | null = null;
  content.forEach((message, m) => {
    if (!Array.isArray(message.content)) return;
    let parts: ContentPart[] | null = null;
    message.content.forEach((part, p) => {
      if (!pick(part)) return;
      const stored = replace(part, m, p);
      parts ??= message.content.slice() as ContentPart[];
      parts[p] = stored;
    });
    if (!parts) return;
    changed ??= content.slice();
    changed[m] = { ...message, content: parts };
  });
  return changed ?? content;
}
