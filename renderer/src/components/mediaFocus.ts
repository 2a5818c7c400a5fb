// Which of an item's media the `.` and `z` keys go to when the screen shows both images and videos: `.`
// starts marking an image (components/images/regions/RegionMarking.tsx) and steps the videos a frame
// (components/videos/VideoTransport.tsx; `,` steps back and is the videos' alone); `z` zooms an image
// (components/images/zoomStore.ts) or the videos. The one the mouse last
// pointed at wins; before the mouse has pointed at either, the videos. While an image is being marked,
// every key is the marking's, the videos' included.
let pointed: 'image' | 'video' = 'video';
let marking = false;

export function pointAt(kind: 'image' | 'video'): void {
  pointed = kind;
}

export function setImageMarking(on: boolean): void {
  marking = on;
}

/** Whether an image is being marked (then the videos leave every key alone). */
export function imageMarking(): boolean {
  return marking;
}

const onScreen = (selector: string) => typeof document !== 'undefined' && document.querySelector(selector) !== null;

/** Who takes `.` and `z` now: the videos, or the images. */
export function dotGoesTo(): 'image' | 'video' {
  const images = onScreen('[data-testid="image-view"]');
  const videos = onScreen('[data-testid="video-transport"]');
  if (!videos) return 'image';
  if (!images) return 'video';
  return pointed;
}
