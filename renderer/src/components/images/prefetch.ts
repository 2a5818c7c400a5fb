// Loads the images of an item ahead (the next one, while this one is worked on), so that it paints at once;
// its videos' first frames too (components/videos/prefetch.ts).
import { imagesOf } from '../../../../shared/images';
import type { Content } from '../../../../shared/domain';
import { prefetchImages } from '../../api';
import { prefetchItemVideos } from '../videos/prefetch';

export function prefetchItemImages(project: string, item: { prompt: Content; responses: { index: number; content: Content }[] } | null | undefined): void {
  if (!item) return;
  const shas = [imagesOf(item.prompt, 'prompt'), ...item.responses.map((r) => imagesOf(r.content, r.index))]
    .flat()
    .map((placed) => placed.image.image?.sha256)
    .filter((sha): sha is string => typeof sha === 'string');
  if (shas.length) prefetchImages(project, shas);
  prefetchItemVideos(project, item);
}
