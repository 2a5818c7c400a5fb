// A response's size as its header says it, on Compare and in adjudication: its images (how many, and the
// pixels of a lone one) and the characters and tokens of its text. An image reads as "[image]" in
// contentText: the words people read are counted, and the images apart.
import type { ResponseRecord } from '../../../../shared/domain';
import { approxTokens, contentText } from '../../../../shared/choices';
import { imagesOf } from '../../../../shared/images';
import { plural } from '../../../../shared/plural';
import { videosOf } from '../../../../shared/videos';

/**
 * `pictured`: "2 images" or "1 image · 640 × 480" ('' without images); `written`: "120 chars · ~30 tokens"
 * ('' for an image-only response). No response: nothing pictured, 0 chars.
 */
export function responseSize(response: ResponseRecord | null): { images: number; pictured: string; written: string } {
  const images = response ? imagesOf(response.content, response.index) : [];
  // A video counts as a picture too ("1 video · 4.0 s"); its part reads as "[video]" in contentText.
  const videos = response ? videosOf(response.content) : [];
  const text = response ? contentText(response.content).replaceAll('[image]', '').replaceAll('[video]', '').trim() : '';
  const first = images[0]?.image.image;
  const clip = videos[0]?.video;
  const pictured = [
    images.length ? `${plural(images.length, 'image')}${images.length === 1 && first ? ` · ${first.width} × ${first.height}` : ''}` : '',
    videos.length ? `${plural(videos.length, 'video')}${videos.length === 1 && clip?.duration ? ` · ${clip.duration.toFixed(1)} s` : ''}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const written = text.length > 0 || !(images.length || videos.length) ? `${plural(text.length, 'char')} · ~${plural(approxTokens(text), 'token')}` : '';
  return { images: images.length, pictured, written };
}

/** The size in one line: "1 image · 640 × 480 · 12 chars · ~3 tokens". */
export function responseSizeLine(response: ResponseRecord): string {
  const size = responseSize(response);
  return [size.pictured, size.written].filter(Boolean).join(' · ');
}
