// A strip of a GUI agent's screenshots across the top of its turns: one small frame per turn (the screen
// its action was taken on, else the first image of the turn; a blank frame for a turn with none), the
// current turn framed in the accent colour and marked ▶ (not by colour alone), the action's point as a
// dot on the frame. A click goes to that turn; j / k (and every other key that moves between turns)
// move the strip with the cursor, which it keeps in view. Only the frames in view load their image.
import { memo, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useImageSource } from '../../components/images/useImageSource';
import type { Frame } from './film';

export { filmFrames, type Frame } from './film';

interface Props {
  project: string | null;
  frames: Frame[];
  cursor: number;
  onPick(index: number): void;
}

const HEIGHT = 54;

export const Filmstrip = memo(function Filmstrip({ project, frames, cursor, onPick }: Props) {
  const strip = useRef<HTMLDivElement>(null);
  const [seen, setSeen] = useState<ReadonlySet<number>>(() => new Set());
  // Frames load their image once they come into view (or near it), and keep it.
  useEffect(() => {
    const root = strip.current;
    if (!root) return;
    const observer = new IntersectionObserver(
      (entries) => {
        const add = entries.filter((e) => e.isIntersecting).map((e) => Number((e.target as HTMLElement).dataset.index));
        if (add.length) setSeen((s) => (add.every((i) => s.has(i)) ? s : new Set([...s, ...add])));
      },
      { root, rootMargin: '0px 240px' },
    );
    for (const el of root.querySelectorAll('[data-testid="filmstrip-frame"]')) observer.observe(el);
    return () => observer.disconnect();
  }, [frames]);
  // The current turn's frame stays in view.
  useLayoutEffect(() => {
    const root = strip.current;
    const el = root?.querySelector<HTMLElement>(`[data-testid="filmstrip-frame"][data-index="${cursor}"]`);
    if (!root || !el) return;
    const left = el.offsetLeft - root.offsetLeft;
    if (left < root.scrollLeft || left + el.offsetWidth > root.scrollLeft + root.clientWidth) root.scrollLeft = left - root.clientWidth / 2 + el.offsetWidth / 2;
  }, [cursor, frames]);
  const shown = frames.filter((f) => f.image).length;
  return (
    <nav className="flex shrink-0 items-stretch gap-2 border-b border-line bg-surface px-2 py-1.5" aria-label="Screenshots, one per turn" data-testid="filmstrip">
      <div className="flex w-[54px] shrink-0 flex-col justify-center text-center text-[10.5px] leading-tight text-faint" title={`${shown} of ${frames.length} turns have a screenshot`}>
        <span className="font-semibold tracking-wide uppercase">Screens</span>
        <span className="tabular-nums">
          {cursor + 1}/{frames.length}
        </span>
      </div>
      <div ref={strip} className="flex min-w-0 flex-1 gap-1.5 overflow-x-auto pb-0.5">
        {frames.map((f, i) => (
          <FrameButton key={i} index={i} frame={f} current={i === cursor} load={seen.has(i)} project={project} onPick={onPick} />
        ))}
      </div>
    </nav>
  );
});

function FrameButton({ index, frame, current, load, project, onPick }: { index: number; frame: Frame; current: boolean; load: boolean; project: string | null; onPick(i: number): void }) {
  const image = frame.image?.image;
  const width = image ? Math.round(Math.min(120, Math.max(40, (HEIGHT * image.width) / image.height))) : 40;
  const { src } = useImageSource(load && image ? project : null, image?.sha256);
  const title = `Turn ${index + 1}${frame.words ? `: ${frame.words}` : ''}${frame.image ? '' : ' (no screenshot)'}`;
  return (
    <button
      type="button"
      tabIndex={-1}
      onClick={() => onPick(index)}
      title={title}
      aria-label={title}
      aria-current={current ? 'step' : undefined}
      className={`relative shrink-0 overflow-hidden rounded-[3px] border bg-surface-2 outline-none ${current ? 'border-accent ring-2 ring-accent ring-offset-1 ring-offset-surface' : 'border-line hover:border-line-strong'}`}
      style={{ width, height: HEIGHT }}
      data-testid="filmstrip-frame"
      data-index={index}
      data-current={current}
      data-sha={image?.sha256 ?? ''}
    >
      {image && (
        // The image's own box inside the frame (a tall full-page screenshot is narrower than the frame), so the dot sits on its point.
        <span className="absolute top-1/2 left-1/2 -translate-x-1/2 -translate-y-1/2" style={{ width: Math.min(width, HEIGHT * (image.width / image.height)), height: Math.min(HEIGHT, width / (image.width / image.height)) }}>
          {src && <img src={src} alt="" draggable={false} decoding="async" className="absolute inset-0 h-full w-full" />}
          {frame.point && (
            <span
              className="absolute h-[7px] w-[7px] -translate-x-1/2 -translate-y-1/2 rounded-full border border-white bg-[#D55E00] shadow-[0_0_0_1px_rgba(0,0,0,0.6)]"
              style={{ left: `${(frame.point[0] * 100).toFixed(2)}%`, top: `${(frame.point[1] * 100).toFixed(2)}%` }}
              aria-hidden
            />
          )}
        </span>
      )}
      {!image && <span className="absolute inset-0 flex items-center justify-center text-[11px] text-faint">—</span>}
      <span className={`absolute bottom-0 left-0 rounded-tr-[3px] px-1 text-[10px] leading-[1.4] font-semibold tabular-nums ${current ? 'bg-accent text-white' : 'bg-black/55 text-white'}`} aria-hidden>
        {current ? '▶ ' : ''}
        {index + 1}
      </span>
    </button>
  );
}
