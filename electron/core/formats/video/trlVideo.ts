// Text-to-video preference as JSON Lines, the way TRL's vision-language preference data is laid out with
// videos in place of images: `prompt` (text, or messages), `chosen` and `rejected` (messages), whose
// content parts hold the videos, either inline as OpenAI-style {"type": "video_url", "video_url": {"url"}}
// parts or as {"type": "video"} placeholders filled, in reading order (prompt, chosen, rejected), from a
// `videos` column of paths relative to the file. Read: a preference pair whose videos are stored by the
// import (core/videos/resolve.ts). Written: the same shape, each video a placeholder and its path in
// `videos`, the bytes copied beside the file (`<stem>_images/<sha256>.<ext>`) by VideosBesideWriter.
import type { ChatMessage, Content, ContentPart } from '../../../../shared/domain';
import { isVideoPart } from '../../../../shared/videos';
import { pairRecord } from '../pairs/pair';
import { RecordError, type DecidedPair, type ParsedRecord } from '../types';

const isMessages = (value: unknown): value is ChatMessage[] => Array.isArray(value) && value.every((m) => m !== null && typeof m === 'object' && typeof (m as ChatMessage).role === 'string');

/** A {"type": "video"} part that names no video itself (its video is the next entry of `videos`). */
function isPlaceholder(part: ContentPart): boolean {
  return part.type === 'video' && part.video === undefined && part.path === undefined && part.url === undefined && part.origin === undefined;
}

/** Whether any part of these contents is a video (a placeholder or one that names its video). */
export function holdsVideoParts(...contents: unknown[]): boolean {
  return contents.some((c) => isMessages(c) && c.some((m) => Array.isArray(m.content) && m.content.some((p) => typeof p?.type === 'string' && p.type.startsWith('video'))));
}

export function parseTrlVideo(record: Record<string, unknown>): ParsedRecord {
  const { prompt, chosen, rejected, videos } = record;
  if (!(typeof prompt === 'string' && prompt.length) && !isMessages(prompt)) throw new RecordError('prompt: expected text or a list of messages');
  if (!isMessages(chosen)) throw new RecordError('chosen: expected a list of messages {"role", "content"}');
  if (!isMessages(rejected)) throw new RecordError('rejected: expected a list of messages {"role", "content"}');
  if (videos !== undefined && !(Array.isArray(videos) && videos.every((v) => typeof v === 'string' || (v !== null && typeof v === 'object')))) throw new RecordError('videos: expected a list of paths');
  const list = (videos ?? []) as unknown[];
  let next = 0;
  const fill = (content: Content, field: string): Content => {
    if (typeof content === 'string') return content;
    return content.map((m, i) => {
      if (!Array.isArray(m.content)) return m;
      return {
        ...m,
        content: m.content.map((p: unknown, j) => {
          if (p === null || typeof p !== 'object' || Array.isArray(p)) throw new RecordError(`${field}[${i}].content[${j}]: expected a part {"type": …}`);
          if (!isPlaceholder(p as ContentPart)) return p as ContentPart;
          if (next >= list.length) throw new RecordError(`${field}[${i}]: a {"type": "video"} placeholder, but "videos" has only ${list.length} entr${list.length === 1 ? 'y' : 'ies'}`);
          return { type: 'video', video: list[next++], column: 'videos', index: next - 1 };
        }),
      };
    });
  };
  const filled = [fill(prompt as Content, 'prompt'), fill(chosen, 'chosen'), fill(rejected, 'rejected')] as const;
  if (next < list.length) throw new RecordError(`videos: ${list.length} entries, but the messages hold ${next} {"type": "video"} placeholder${next === 1 ? '' : 's'}`);
  const parsed = pairRecord(record, filled[0], filled[1], filled[2]);
  delete parsed.draft.metadata.videos;
  return parsed;
}

/** A decided pair as TRL writes it; VideosBesideWriter turns its stored video parts into placeholders and paths. */
export function encodeTrlVideo(pair: DecidedPair): unknown {
  const asMessages = (content: Content, role: string): ChatMessage[] => (typeof content === 'string' ? [{ role, content }] : content);
  return { prompt: pair.prompt, chosen: asMessages(pair.chosen.content, 'assistant'), rejected: asMessages(pair.rejected.content, 'assistant') };
}

/** Whether a record (as an encoder gave it) holds a stored video part anywhere in its messages. */
export function storedVideoParts(value: unknown, out: ContentPart[] = []): ContentPart[] {
  if (Array.isArray(value)) for (const v of value) storedVideoParts(v, out);
  else if (value !== null && typeof value === 'object') {
    if (isVideoPart(value)) out.push(value);
    else for (const v of Object.values(value)) storedVideoParts(v, out);
  }
  return out;
}
