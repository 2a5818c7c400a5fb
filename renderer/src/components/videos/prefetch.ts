// Loads the first frames of an item's videos ahead (the next one, while this one is worked on), so the
// pair paints at once when the key moves on: each video's address is asked for, then a detached
// <video preload="auto"> fetches its first ranges into the browser's cache (the video route's answers are
// cacheable: the ticket names fixed bytes). At most KEEP such elements are held; the oldest are let go.
import type { Content } from '../../../../shared/domain';
import { videosOf } from '../../../../shared/videos';
import { videoAddress } from './useVideoAddress';

const KEEP = 8;
const warming = new Map<string, HTMLVideoElement>();

export function prefetchItemVideos(project: string, item: { prompt: Content; responses: { content: Content }[] } | null | undefined): void {
  if (!item || typeof document === 'undefined') return;
  const shas = [item.prompt, ...item.responses.map((r) => r.content)].flatMap((c) => videosOf(c)).flatMap((p) => (p.video && !p.video.damaged ? [p.video.sha256] : []));
  for (const sha of shas) {
    const key = `${project}/${sha}`;
    if (warming.has(key)) continue;
    const el = document.createElement('video');
    el.muted = true;
    el.preload = 'auto';
    warming.set(key, el);
    videoAddress(project, sha).then(
      (src) => {
        if (warming.get(key) === el) el.src = src;
      },
      () => warming.delete(key),
    );
    while (warming.size > KEEP) {
      const [oldest, old] = warming.entries().next().value as [string, HTMLVideoElement];
      old.removeAttribute('src');
      old.load();
      warming.delete(oldest);
    }
  }
}
