// The one transport bar of the screen's videos (syncGroup.ts): play / pause [Space], frame step [,] [.],
// speed [<] [>], loop in / out [I] [O] (clear [\]), sound [M], zoom [z]; one scrub bar with the loop's range
// on it; the time as a timecode and a frame number. Below it a filmstrip of key frames (Filmstrip.tsx):
// click one to go there. Shift+F marks an episode's first failure at the current moment (failureMark.ts).
// The keys are the screen's while videos are on it (a text box keeps its own); the letters are shifted
// because the header's screen keys take i (Rubric) and m (Models).
import { useContext, useEffect, type RefObject } from 'react';
import { ShellContext } from '../../context';
import { saveFailure } from './failureMark';
import { frameAt, RATES, useVideoSync, videoSync } from './syncGroup';
import { timecode } from '../../../../shared/videos';
import { useGlobalKeys } from '../keys';
import { Kbd } from '../Kbd';
import { Filmstrip } from './Filmstrip';

interface TransportProps {
  src: string | null;
  duration: number | null;
  /** This bar owns the screen's video keys (the zoomed view's second bar does not). */
  keys?: boolean;
  project: string;
  /** An element of the screen (the leading video's figure): the item and task marks are saved on. */
  anchor: RefObject<HTMLElement | null>;
  /** The leading video's response, where Shift+F marks until another video is pointed at. */
  firstPlace: number;
}

export function VideoTransport({ src, duration: probed, keys = true, project, anchor, firstPlace }: TransportProps) {
  const s = useVideoSync();
  const annotator = useContext(ShellContext)?.annotator ?? '';
  useEffect(() => videoSync.setFocus(firstPlace), [firstPlace, src]);
  const markFailure = () => {
    const at = videoSync.state.time;
    const el = anchor.current;
    if (!el || !annotator) return;
    const letter = String.fromCharCode(65 + videoSync.state.focus);
    videoSync.setFailure({ letter, at, note: 'saving…' });
    void saveFailure(el, project, annotator, videoSync.state.focus, at).then((r) => videoSync.setFailure({ letter, at, note: r.saved ? 'saved' : r.why }));
  };
  const duration = s.duration || probed || 0;
  useGlobalKeys(
    (event) => {
      if (event.metaKey || event.ctrlKey || event.altKey) return;
      const act: Record<string, () => void> = {
        ' ': () => videoSync.toggle(),
        ',': () => videoSync.step(-1),
        '.': () => videoSync.step(1),
        '<': () => videoSync.nudgeRate(-1),
        '>': () => videoSync.nudgeRate(1),
        I: () => videoSync.setLoop('from'),
        O: () => videoSync.setLoop('to'),
        '\\': () => videoSync.setLoop('clear'),
        M: () => videoSync.toggleMute(),
        z: () => videoSync.toggleZoom(),
        F: markFailure,
        Escape: () => videoSync.toggleZoom(),
      };
      const run = act[event.key];
      // Esc closes the zoomed view only; otherwise it is the screen's.
      if (!run || (event.key === 'Escape' && !videoSync.state.zoomed)) return;
      event.preventDefault();
      run();
    },
    keys,
    true,
  );
  const loop = s.loop;
  const pct = (t: number) => `${duration ? (100 * t) / duration : 0}%`;
  return (
    <div className="flex flex-col gap-1 text-[12px]" data-testid="video-transport">
      <div className="flex items-center gap-2">
        <button type="button" className="rounded-[3px] border border-line px-2 py-0.5 text-fg" onClick={() => videoSync.toggle()} data-testid="video-play">
          {s.playing ? 'Pause' : 'Play'} <Kbd>Space</Kbd>
        </button>
        <button type="button" className="rounded-[3px] border border-line px-1.5 py-0.5" onClick={() => videoSync.step(-1)} aria-label="Previous frame">
          <Kbd>,</Kbd>
        </button>
        <button type="button" className="rounded-[3px] border border-line px-1.5 py-0.5" onClick={() => videoSync.step(1)} aria-label="Next frame">
          <Kbd>.</Kbd>
        </button>
        <span className="font-mono tabular-nums text-fg" data-testid="video-timecode">
          {timecode(s.time)} / {timecode(duration)}
        </span>
        <span className="font-mono tabular-nums text-muted" data-testid="video-frame">
          frame {frameAt(s.time, s.fps)}
        </span>
        <label className="ml-auto flex items-center gap-1 text-muted">
          speed
          <select className="rounded-[3px] border border-line bg-surface px-1" value={s.rate} onChange={(e) => videoSync.setRate(Number(e.target.value))} data-testid="video-rate">
            {RATES.map((r) => (
              <option key={r} value={r}>
                {r}×
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="rounded-[3px] border border-line px-1.5 py-0.5 text-muted" onClick={() => videoSync.toggleMute()} data-testid="video-mute">
          {s.muted ? 'muted' : 'sound'} <Kbd>M</Kbd>
        </button>
      </div>
      <div className="relative flex items-center">
        {loop && <div className="pointer-events-none absolute top-1/2 h-1.5 -translate-y-1/2 rounded bg-accent/30" style={{ left: pct(loop.from), width: pct(loop.to - loop.from) }} data-testid="video-loop" />}
        {s.failure && <div className="pointer-events-none absolute top-0 h-full w-0.5 bg-[var(--bad,#dc2626)]" style={{ left: pct(s.failure.at) }} />}
        <input
          type="range"
          className="w-full accent-[var(--accent,#2563eb)]"
          min={0}
          max={duration || 0}
          step={1 / s.fps}
          value={Math.min(s.time, duration || 0)}
          onChange={(e) => videoSync.seek(Number(e.target.value))}
          aria-label="Scrub"
          data-testid="video-scrub"
        />
      </div>
      <div className="flex items-center gap-2 text-faint">
        <span>
          loop <Kbd>I</Kbd> <Kbd>O</Kbd> <Kbd>\</Kbd>
          {loop ? ` ${timecode(loop.from)}–${timecode(loop.to)}` : ''}
        </span>
        <span>
          speed <Kbd>&lt;</Kbd> <Kbd>&gt;</Kbd> · zoom <Kbd>z</Kbd> · {s.members} in sync
        </span>
        <span className="ml-auto" data-testid="video-failure">
          {s.failure ? (
            <>
              first failure ({s.failure.letter}) {timecode(s.failure.at)}: {s.failure.note}
            </>
          ) : (
            <>
              first failure here <Kbd>F</Kbd>
            </>
          )}
        </span>
      </div>
      <Filmstrip src={src} duration={duration} />
    </div>
  );
}
