// A strip of key frames of the leading video: FRAMES evenly spaced moments, drawn by a second, hidden
// <video> of the same address (same origin, so the canvases stay readable) seeking from one to the next
// after the item is shown. Click a frame to go there; the current moment is outlined. A frame whose stretch
// of the clip holds a mark in time (momentMarks.ts) has a bar under it, in its response's colour.
import { useEffect, useRef, useState } from 'react';
import type { Moment } from '../../../../shared/moments';
import { timecode } from '../../../../shared/videos';
import { momentHue, useMoments } from './momentMarks';
import { useVideoSync, videoSync } from './syncGroup';

const FRAMES = 8;
const HEIGHT = 36;

export function Filmstrip({ src, duration }: { src: string | null; duration: number }) {
  const canvases = useRef<(HTMLCanvasElement | null)[]>([]);
  const [drawn, setDrawn] = useState(0);
  const { time } = useVideoSync();
  const { marks } = useMoments();
  useEffect(() => {
    setDrawn(0);
    if (!src || !duration) return;
    const probe = document.createElement('video');
    probe.muted = true;
    probe.preload = 'auto';
    probe.src = src;
    let index = 0;
    let live = true;
    const at = (i: number) => ((i + 0.5) * duration) / FRAMES;
    const draw = () => {
      if (!live) return;
      const canvas = canvases.current[index];
      if (canvas && probe.videoWidth) {
        canvas.width = Math.round((HEIGHT * probe.videoWidth) / probe.videoHeight) * 2;
        canvas.height = HEIGHT * 2;
        canvas.getContext('2d')?.drawImage(probe, 0, 0, canvas.width, canvas.height);
      }
      index++;
      setDrawn(index);
      if (index < FRAMES) probe.currentTime = at(index);
    };
    probe.addEventListener('seeked', draw);
    probe.addEventListener('loadeddata', () => (probe.currentTime = at(0)), { once: true });
    return () => {
      live = false;
      probe.removeEventListener('seeked', draw);
      probe.removeAttribute('src');
      probe.load();
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
