// Prepares an item's videos ahead (the next one, while this one is worked on), so the pair paints at once
// when the key moves on: each video's address is asked for, then a detached <video preload="auto"> loads
// and decodes its first frame. VideoView does not make a second element for that video: it takes the
// prepared one (takeWarmVideo) and moves it into place, first frame already decoded (bench/video-loop.mjs:
// a fresh element on the same, cached bytes still waited for its demuxer and decoder to start). An element
// a screen lets go of comes back here (returnWarmVideo), so going back to the item is as quick. At most
// KEEP elements are held; the oldest are let go (their decoders freed).
import type { Content } from '../../../../shared/domain';
import { videosOf } from '../../../../shared/videos';
import { videoAddress } from './useVideoAddress';

const KEEP = 8;
const warming = new Map<string, HTMLVideoElement>();
/** Elements let go by a screen in this task, not yet back in the pool (returnWarmVideo). */
const returning = new Map<string, HTMLVideoElement>();

function hold(key: string, el: HTMLVideoElement): void {
  warming.delete(key);
  warming.set(key, el);
  while (warming.size > KEEP) {
    const [oldest, old] = warming.entries().next().value as [string, HTMLVideoElement];
    warming.delete(oldest);
    old.removeAttribute('src');
    old.load();
  }
}

export function prefetchItemVideos(project: string, item: { prompt: Content; responses: { content: Content }[] } | null | undefined): void {
  if (!item || typeof document === 'undefined') return;
  const shas = [item.prompt, ...item.responses.map((r) => r.content)].flatMap((c) => videosOf(c)).flatMap((p) => (p.video && !p.video.damaged ? [p.video.sha256] : []));
  for (const sha of shas) {
    const key = `${project}/${sha}`;
    if (warming.has(key)) continue;
    const el = document.createElement('video');
    el.muted = true;
    el.playsInline = true;
    el.preload = 'auto';
    hold(key, el);
    videoAddress(project, sha).then(
      (src) => {
        if (warming.get(key) === el) el.src = src;
      },
      () => {
        if (warming.get(key) === el) warming.delete(key);
      },
    );
  }
}

/** The prepared element of video `sha256` at `src`, taken out of the pool (null: none, make one). */
export function takeWarmVideo(project: string, sha256: string, src: string): HTMLVideoElement | null {
  const key = `${project}/${sha256}`;
  const back = returning.get(key);
  if (back && back.getAttribute('src') === src && !back.error) {
    returning.delete(key);
    return back;
  }
  const el = warming.get(key);
  if (!el || el.getAttribute('src') !== src || el.error) return null;
  warming.delete(key);
  return el;
}

/** A hidden holder in the page: an element a screen lets go waits here for the timeout, still in the document. */
let parking: HTMLDivElement | null = null;

function park(el: HTMLVideoElement): void {
  if (!parking || !parking.isConnected) {
    parking = document.createElement('div');
    parking.hidden = true;
    parking.dataset.testid = 'video-parking';
    document.body.appendChild(parking);
  }
  // Not one of the screen's videos any more (a screen that takes it back names it again: VideoView.tsx).
  delete el.dataset.testid;
  parking.appendChild(el);
}

/**
 * An element a screen no longer shows: paused at once, then, after the key's frame (a timeout), put back at
 * its first frame and kept for a return to its item. The seek to 0 and letting the oldest prepared element go
 * (its decoder torn down) cost the commit that put the next pair in place a few milliseconds a key
 * (bench/video-loop.mjs --profile). Until then it waits in a hidden holder, still in the document: taking a
 * media element out of the document lets its player go at once, in the commit.
 */
export function returnWarmVideo(project: string, sha256: string, el: HTMLVideoElement): void {
  if (el.error || !el.getAttribute('src')) {
    el.remove();
    return;
  }
  const key = `${project}/${sha256}`;
  returning.set(key, el);
  // Paused at once, as leaving the document would have: one still playing (and heard, once unmuted) until
  // the timeout, or taken back by a screen while the clock says paused, would play on its own.
  if (!el.paused) el.pause();
  park(el);
  setTimeout(() => keepWarm(key, el), 0);
}

function keepWarm(key: string, el: HTMLVideoElement): void {
  if (returning.get(key) === el) returning.delete(key);
  // Taken back onto a screen meanwhile: it is that screen's now.
  if (el.isConnected && el.parentElement !== parking) return;
  el.remove();
  if (el.currentTime !== 0) el.currentTime = 0;
  const held = warming.get(key);
  if (held && held !== el) {
    el.removeAttribute('src');
    el.load();
    return;
  }
  hold(key, el);
}
