// The one transport bar of the screen's videos (syncGroup.ts): play / pause [Space], frame step [,] [.],
// speed [<] [>], loop in / out [I] [O] (clear [\]), sound [M], zoom [z]; one scrub bar with the loop's range
// on it; the time as a timecode and a frame number. Below it a filmstrip of key frames (Filmstrip.tsx):
// click one to go there. Shift+F marks an episode's first failure at the current moment (failureMark.ts).
// Marks in time (MomentPanel.tsx, with their keys) are listed under the bar when the leading video is a
// response's; a prompt's clip that leads keeps the bar, and the marks go under the first response's video.
// The keys are the screen's while videos are on it (a text box keeps its own); the letters are shifted
// because the header's screen keys take i (Rubric) and m (Models). With images on the item too, `.` is
// the videos' unless the mouse last pointed at an image (mediaFocus.ts); marking an image takes every key.
import { useContext, useEffect, type RefObject } from 'react';
import { ShellContext } from '../../context';
import { saveFailure } from './failureMark';
import { frameAt, RATES, useVideoSync, videoSync } from './syncGroup';
import { timecode } from '../../../../shared/videos';
import { useGlobalKeys } from '../keys';
import { Kbd } from '../Kbd';
import { Filmstrip } from './Filmstrip';
import { dotGoesTo, imageMarking } from '../mediaFocus';
import { useMoments } from './momentMarks';
import { MomentSpans, sideNamer } from './MomentList';
import { MomentPanel } from './MomentPanel';

interface TransportProps {
  src: string | null;
  duration: number | null;
  /** This bar owns the screen's video keys (the zoomed view's second bar does not). */
  keys?: boolean;
  project: string;
  /** An element of the screen (the leading video's figure): the item and task marks are saved on. */
  anchor: RefObject<HTMLElement | null>;
  /** The first response's video (the leader's, or the first after a prompt's clip): Shift+F marks it until another video is pointed at. */
  firstPlace: number;
  /** The leading video is a response's: the marks in time are listed under this bar. */
  marks: boolean;
}

export function VideoTransport({ src, duration: probed, keys = true, project, anchor, firstPlace, marks }: TransportProps) {
  const s = useVideoSync();
  const annotator = useContext(ShellContext)?.annotator ?? '';
  useEffect(() => videoSync.setFocus(firstPlace), [firstPlace, src]);
  const markFailure = () => {
    const at = videoSync.state.time;
    const el = anchor.current;
    if (!el || !annotator) return;
    const letter = String.fromCharCode(65 + videoSync.state.focus);
    const pending = { letter, at, note: 'saving…' };
    videoSync.setFailure(pending);
    // The answer is said only while the bar still shows this mark: after → the next item's bar is its own.
    void saveFailure(el, project, annotator, videoSync.state.focus, at).then((r) => {
      if (videoSync.state.failure === pending) videoSync.setFailure({ letter, at, note: r.saved ? 'saved' : r.why });
    });
  };
  const duration = s.duration || probed || 0;
  const momentCount = useMoments().marks.length;
  // Marks are named by the side their response is shown on: from under a prompt's clip, the left response's.
  const left = marks ? anchor.current : (anchor.current?.closest('[data-testid="compare"]')?.querySelector('[data-testid="response-body-left"]') ?? null);
  const nameOf = sideNamer(left, firstPlace);
  useGlobalKeys(
    (event) => {
      if (imageMarking()) return;
      if (event.metaKey || event.ctrlKey || event.altKey) return;
      // `.` and `z` are the images' too (marking, zoom): the media the mouse last pointed at takes them.
      if ((event.key === '.' || event.key === 'z') && dotGoesTo() !== 'video') return;
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
        <button type="button" className="rounded-[3px] border border-line px-1.5 py-0.5" onClick={() => videoSync.step(-1)} aria-label="Previous frame" title="With an image on the item too, . is the videos' unless the mouse last pointed at the image">
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
      <div className={`relative flex items-center ${momentCount ? 'mt-3' : ''}`}>
        {loop && <div className="pointer-events-none absolute top-1/2 h-1.5 -translate-y-1/2 rounded bg-accent/30" style={{ left: pct(loop.from), width: pct(loop.to - loop.from) }} data-testid="video-loop" />}
        <MomentSpans duration={duration} nameOf={nameOf} />
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
        {keys && typeof document !== 'undefined' && document.querySelector('[data-testid="image-view"]') && (
          <span data-testid="video-dot-owner">
            <Kbd>.</Kbd> <Kbd>z</Kbd> are the videos’; after pointing at an image, the image’s (mark, zoom)
          </span>
        )}
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
      {/* Marks in time are on responses' videos: a bar under the prompt's clip lists none (VideoView.tsx puts them under the first response's). */}
      {keys && marks && <MomentPanel project={project} anchor={anchor} nameOf={nameOf} />}
    </div>
  );
}
