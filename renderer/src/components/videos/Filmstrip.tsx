// A strip of key frames of the leading video: FRAMES evenly spaced moments, drawn by a second, hidden
// <video> of the same address (same origin, so the canvases stay readable) seeking from one to the next
// after the item is shown. Click a frame to go there; the current moment is outlined.
import { useEffect, useRef, useState } from 'react';
import { timecode } from '../../../../shared/videos';
import { useVideoSync, videoSync } from './syncGroup';

const FRAMES = 8;
const HEIGHT = 36;

export function Filmstrip({ src, duration }: { src: string | null; duration: number }) {
  const canvases = useRef<(HTMLCanvasElement | null)[]>([]);
  const [drawn, setDrawn] = useState(0);
  const { time } = useVideoSync();
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
        </button>
      ))}
    </div>
  );
}
