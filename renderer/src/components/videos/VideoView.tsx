// One video of a prompt or a response, where the text sits: in a box of its own aspect ratio from the first
// paint (the probed size), muted, joined to the screen's one clock (syncGroup.ts), so two to four clips side
// by side play, pause, seek and step together. The first video on the screen carries the transport bar
// (VideoTransport.tsx) and the filmstrip; the marks in time go under the first response's video (in that
// bar, or, when a prompt's clip leads, under the response's own video: MomentPanel.tsx). A video that cannot be shown says why in its own box: an http URL
// (never fetched), a file whose headers were damaged at import, one this browser cannot decode.
import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties } from 'react';
import { describeVideo, type VideoPart } from '../../../../shared/videos';
import { returnWarmVideo, takeWarmVideo } from './prefetch';
import { videoSync, useVideoSync } from './syncGroup';
import { useVideoAddress } from './useVideoAddress';
import { VideoTransport } from './VideoTransport';
import { MomentPanel } from './MomentPanel';
import { sideNamer } from './MomentList';

/** `place`: the response's source-order index (or 'prompt'), for marks in time. */
export function VideoView({ project, part, place = 'prompt' }: { project: string | null; part: VideoPart; place?: number | 'prompt' }) {
  if (!part.video) return <VideoNote testId="video-unavailable" title={`Video ${part.unavailable ?? 'not stored, so it cannot be shown'}`} detail={part.origin.kind === 'url' ? part.origin.url : part.origin.kind === 'path' ? part.origin.path : null} />;
  if (part.video.damaged) return <VideoNote testId="video-problem" title="Video not shown: its file is damaged" detail={part.video.damaged} />;
  if (!project) return <VideoNote testId="video-problem" title="Video not shown" detail="It cannot be shown outside a project." />;
  return <StoredVideo project={project} part={part} place={place} />;
}

/** The height of the transport bar under the zoomed videos. */
const ZOOM_BAR_PX = 150;

const MEDIA_ERRORS: Record<number, string> = {
  1: 'loading was stopped',
  2: 'a network error interrupted it',
  3: 'its frames could not be decoded',
  4: 'this browser cannot play its format',
};

function StoredVideo({ project, part, place }: { project: string; part: VideoPart; place: number | 'prompt' }) {
  const ref = part.video!;
  const { src, error } = useVideoAddress(project, ref.sha256);
  const slot = useRef<HTMLDivElement>(null);
  const figure = useRef<HTMLElement>(null);
  const [id, setId] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const sync = useVideoSync();
  // The <video> is put in by hand, not rendered: the one prepared ahead for the next item (prefetch.ts)
  // is moved in with its first frame decoded; without one, a new element loads here.
  useLayoutEffect(() => {
    const box = slot.current;
    if (!box || !src) return;
    const el = takeWarmVideo(project, ref.sha256, src) ?? document.createElement('video');
    el.muted = true;
    el.playsInline = true;
    el.preload = 'auto';
    el.className = 'absolute inset-0 h-full w-full';
    el.title = describeVideo(ref);
    el.dataset.testid = 'video';
    const failed = () => setFailure(MEDIA_ERRORS[(el.error?.code ?? 0) as number] ?? 'it could not be played');
    el.addEventListener('error', failed);
    if (el.getAttribute('src') !== src) el.src = src;
    box.appendChild(el);
    if (el.error) failed();
    const member = videoSync.join(el, ref.fps, place);
    setId(member);
    return () => {
      videoSync.leave(member);
      el.removeEventListener('error', failed);
      // Out of the screen (into a hidden holder until the pool takes it back: prefetch.ts).
      returnWarmVideo(project, ref.sha256, el);
    };
  }, [project, ref.sha256, src, ref.fps, place]);
  useEffect(() => setFailure(null), [src]);
  if (error) return <VideoNote testId="video-problem" title="Video not shown" detail={error} />;
  if (failure)
    return (
      <VideoNote
        testId="video-problem"
        title={`Video not shown: ${failure}`}
        detail={`${describeVideo(ref)}.${ref.codec === 'h264' || ref.codec === 'hevc' ? ` This browser has no ${ref.codec.toUpperCase()} decoder; the desktop app plays it, or re-encode it as VP9 or AV1 WebM.` : ''}`}
      />
    );
  const width = ref.width ?? 16;
  const height = ref.height ?? 9;
  const leads = id !== null && videoSync.leads(id);
  // The marks go under the first response's video: the leader's bar, or (a prompt's clip leading) this one.
  const holder = videoSync.marksHolder();
  const holdsMarks = id !== null && holder?.id === id;
  const firstPlace = holder?.place ?? (typeof place === 'number' ? place : 0);
  // Zoomed (z): the screen's videos fill the window side by side, the transport bar below them.
  const index = id === null ? 0 : Math.max(0, videoSync.indexOf(id));
  const columns = Math.max(1, sync.members);
  const zoomed: CSSProperties = { position: 'fixed', zIndex: 51, top: 12, bottom: ZOOM_BAR_PX + 12, left: `calc(${index} * 100vw / ${columns} + 12px)`, width: `calc(100vw / ${columns} - 24px)` };
  const style: CSSProperties = sync.zoomed ? zoomed : { aspectRatio: `${width} / ${height}`, width: `min(100%, calc(min(var(--image-max-h, 60vh), 36vh) * ${(width / height).toFixed(6)}))` };
  return (
    <figure ref={figure} className="m-0 flex flex-col gap-1" data-testid="video-view" data-sha={ref.sha256} onPointerEnter={() => typeof place === 'number' && videoSync.setFocus(place)}>
      <div ref={slot} className="relative overflow-hidden rounded-[3px] bg-black" style={style} />
      <figcaption className="text-[11px] tabular-nums text-faint" data-testid="video-caption">
        {/* A camera's name (a LeRobot feature key) says which view this is. */}
        {part.origin.kind === 'column' && part.origin.column !== 'videos' && <span className="font-medium text-muted">{part.origin.column} · </span>}
        {describeVideo(ref)}
        {ref.audio ? ' · has sound (M plays it)' : ''}
      </figcaption>
      {leads && <VideoTransport src={src} duration={ref.duration} project={project} anchor={figure} firstPlace={firstPlace} marks={holdsMarks} />}
      {holdsMarks && !leads && <MomentPanel project={project} anchor={figure} nameOf={sideNamer(figure.current, firstPlace)} />}
      {leads && sync.zoomed && (
        <>
          <div className="fixed inset-0 z-50 bg-black/90" onClick={() => videoSync.toggleZoom()} data-testid="video-zoom" />
          <div className="fixed inset-x-0 bottom-0 z-[52] border-t border-line bg-surface px-4 py-2" style={{ height: ZOOM_BAR_PX }}>
            <VideoTransport src={src} duration={ref.duration} keys={false} project={project} anchor={figure} firstPlace={firstPlace} marks={false} />
          </div>
        </>
      )}
    </figure>
  );
}

function VideoNote({ title, detail, testId }: { title: string; detail: string | null; testId: string }) {
  return (
    <div role="note" className="flex max-w-full items-start gap-2 rounded-[3px] border border-dashed border-line-strong bg-surface-2 px-3 py-2 text-[13px] text-muted" data-testid={testId}>
      <span aria-hidden className="select-none text-faint">▶︎</span>
      <span className="min-w-0">
        <span className="font-medium text-fg">{title}</span>
        {detail && <span className="mt-0.5 block font-mono text-[12px] break-all text-faint select-text">{detail}</span>}
      </span>
    </div>
  );
}
