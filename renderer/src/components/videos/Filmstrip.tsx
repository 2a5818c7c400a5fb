// A strip of key frames of the leading video: FRAMES evenly spaced moments, drawn by a second, hidden
// <video> of the same address (same origin, so the canvases stay readable) seeking from one to the next.
// It waits its turn: it starts LATER ms after the item is shown, and seeks only while the videos are paused,
// so its decoding (a seek decodes from the key frame before) never takes the cores from the pair's first
// frames, the next pair's prepared ones or playback (at 1080p without a GPU decoder each of those is
// short of them: bench/video-loop.mjs). Click a frame to go there; the current moment is outlined. A frame
// whose stretch of the clip holds a mark in time (momentMarks.ts) has a bar under it, in its response's colour.
import { useEffect, useRef, useState } from 'react';
import type { Moment } from '../../../../shared/moments';
import { timecode } from '../../../../shared/videos';
import { momentHue, useMoments } from './momentMarks';
import { useVideoSync, videoSync } from './syncGroup';

const FRAMES = 8;
/** How long after the item is shown the strip starts loading (ms). */
export const LATER = 600;
const HEIGHT = 36;

export function Filmstrip({ src, duration }: { src: string | null; duration: number }) {
  const canvases = useRef<(HTMLCanvasElement | null)[]>([]);
  const [drawn, setDrawn] = useState(0);
  const { time } = useVideoSync();
  const { marks } = useMoments();
  useEffect(() => {
    setDrawn(0);
    if (!src || !duration) return;
    // The probe is made when its turn comes, not in the key's commit (which runs this effect at once).
    let probe: HTMLVideoElement | null = null;
    let index = 0;
    let live = true;
    let waiting: (() => void) | null = null;
    const at = (i: number) => ((i + 0.5) * duration) / FRAMES;
    // The next seek, once the videos are paused (or at once if they are).
    const next = () => {
      if (!live || !probe) return;
      if (!videoSync.state.playing) {
        probe.currentTime = at(index);
        return;
      }
      const off = videoSync.subscribe(() => {
        if (videoSync.state.playing) return;
        off();
        waiting = null;
        next();
      });
      waiting = off;
    };
    const draw = () => {
      if (!live || !probe) return;
      const canvas = canvases.current[index];
      if (canvas && probe.videoWidth) {
        canvas.width = Math.round((HEIGHT * probe.videoWidth) / probe.videoHeight) * 2;
        canvas.height = HEIGHT * 2;
        canvas.getContext('2d')?.drawImage(probe, 0, 0, canvas.width, canvas.height);
      }
      index++;
      setDrawn(index);
      if (index < FRAMES) next();
    };
    const start = setTimeout(() => {
      probe = document.createElement('video');
      probe.muted = true;
      probe.preload = 'auto';
      probe.addEventListener('seeked', draw);
      probe.addEventListener('loadeddata', next, { once: true });
      probe.src = src;
    }, LATER);
    return () => {
      live = false;
      clearTimeout(start);
      waiting?.();
      if (!probe) return;
      const done = probe;
      done.removeEventListener('seeked', draw);
      // Its decoder let go after the key's frame, not in it.
      setTimeout(() => {
        done.removeAttribute('src');
        done.load();
      }, 0);
    };
  }, [src, duration]);
  if (!duration) return null;
  const current = Math.min(FRAMES - 1, Math.floor((time / duration) * FRAMES));
  return (
    <div className="flex gap-1 overflow-x-auto" data-testid="video-filmstrip" data-drawn={drawn}>
      {Array.from({ length: FRAMES }, (_, i) => (
        <button
          key={i}
          type="button"
          className={`shrink-0 rounded-[2px] border p-0 ${i === current ? 'border-accent' : 'border-line'}`}
          onClick={() => videoSync.seek(((i + 0.5) * duration) / FRAMES)}
          title={timecode(((i + 0.5) * duration) / FRAMES)}
        >
          <canvas ref={(el) => void (canvases.current[i] = el)} className="block bg-surface-2" style={{ height: HEIGHT, minWidth: HEIGHT }} />
          <MarkBar marks={marks} from={(i * duration) / FRAMES} to={((i + 1) * duration) / FRAMES} />
        </button>
      ))}
    </div>
  );
}

/** A bar under a frame whose stretch [from, to) holds marks: one segment per response marked there. */
function MarkBar({ marks, from, to }: { marks: readonly Moment[]; from: number; to: number }) {
  const here = [...new Set(marks.filter((m) => m.from < to && (m.to ?? m.from) >= from).map((m) => m.at))];
  if (!here.length) return null;
  return (
    <span className="flex h-[3px]" data-testid="video-filmstrip-mark">
      {here.map((at) => (
        <span key={at} className="flex-1" style={{ background: momentHue(at) }} />
      ))}
    </span>
  );
}
