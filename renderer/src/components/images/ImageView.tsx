// One image of a prompt or a response, where the text sits: fitted to the column (never cropped, at
// most 60% of the window's height; a small one drawn up to a readable size, pixel for pixel), in a box of its own aspect ratio from the first paint so the layout never
// jumps when the bytes arrive. Hover says its size and format. An image that cannot be shown says why in
// its own box (an http URL is never fetched; a damaged file gets the host's sentence), and the rest of
// the item stays usable. `z` zooms it (zoomStore.ts, ZoomView.tsx); `overlay` draws over it (overlay.ts).
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { createPortal } from 'react-dom';
import { describeImage, type ImagePart, type ImagePlace } from '../../../../shared/images';
import { imageFailure } from '../../api';
import { SMALL_IMAGE_PX, useImageOverlay, type ImageOverlay, type OverlayInfo } from './overlay';
import { useImageSource } from './useImageSource';
import { focusImage, newImageId, registerImage, useZoomed, type ZoomEntry } from './zoomStore';
import { ZoomView } from './ZoomView';

export interface ImageViewProps {
  project: string | null;
  part: ImagePart;
  place: ImagePlace;
  /** Drawn over the image, in fractions of it (see overlay.ts); else the nearest ImageOverlayProvider's. */
  overlay?: ImageOverlay | null;
  /**
   * 'column' (default): the column's width, at most the image's own width and --image-max-h tall
   * (60vh unless a pane sets it). 'box': fills the box it is in (both ways, up to twice its own
   * pixels), as a grid card does.
   */
  fit?: 'column' | 'box';
}

export function ImageView(props: ImageViewProps) {
  const { part } = props;
  if (!part.image) return <UnavailableBox part={part} />;
  if (!props.project) return <ProblemBox message="The image cannot be shown outside a project." />;
  return <StoredImage {...props} project={props.project} />;
}

/** The longer side a column draws a small image at, at least (a 64 × 48 crop was unreadable under its mark's label). */
const READABLE_PX = 200;

/** How far a column enlarges an image: a small one up to READABLE_PX on its longer side, at most 4×; others not. */
export function columnScale(width: number, height: number): number {
  return Math.min(4, Math.max(1, READABLE_PX / Math.max(width, height, 1)));
}

/** The figure's size rule: its own aspect ratio, within the column (or the box) and its own pixels. */
function figureStyle(width: number, height: number, fit: 'column' | 'box'): CSSProperties {
  const ratio = width / height;
  // A grid card may enlarge a small image up to twice its pixels; a column a small one up to a readable size.
  const across =
    fit === 'box'
      ? `min(100cqw, ${2 * width}px, calc(100cqh * ${ratio.toFixed(6)}))`
      : `min(100%, ${Math.round(columnScale(width, height) * width)}px, calc(var(--image-max-h, 60vh) * ${ratio.toFixed(6)}))`;
  return { width: across, aspectRatio: `${width} / ${height}` };
}

function StoredImage({ project, part, place, overlay, fit = 'column' }: ImageViewProps & { project: string }) {
  const image = part.image!;
  const drawOverlay = useImageOverlay(overlay);
  const { src, error } = useImageSource(project, image.sha256);
  const [painted, setPainted] = useState<string | null>(null);
  // Why the page could not paint it, for the image it was asked of (a late answer for the image shown
  // before is never this one's).
  const [failure, setFailure] = useState<{ key: string; message: string } | null>(null);
  const key = `${project}/${image.sha256}`;
  const [box, setBox] = useState({ width: 0, height: 0 });
  const figure = useRef<HTMLElement>(null);
  const id = useMemo(() => newImageId(), []);
  const zoomed = useZoomed();
  const problem = error ?? (failure?.key === key ? failure.message : null);

  // Listed for `z` while it can be shown. The entry is kept current in place: registering again on each
  // render would close an open zoom view (an image that leaves the page closes it).
  const entry = useRef<ZoomEntry | null>(null);
  if (entry.current) Object.assign(entry.current, { project, part, image, place, overlay: drawOverlay });
  useEffect(() => {
    const el = figure.current;
    if (!el || problem) return;
    entry.current = { id, element: el, project, part, image, place, overlay: drawOverlay };
    return registerImage(entry.current);
  }, [id, project, image.sha256, problem]);

  useLayoutEffect(() => {
    const el = figure.current;
    if (!el) return;
    const measure = () => setBox((b) => (b.width === el.clientWidth && b.height === el.clientHeight ? b : { width: el.clientWidth, height: el.clientHeight }));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [problem]);

  const title = describeImage(image);
  if (problem) return <ProblemBox message={problem} title={title} sha={image.sha256} />;

  const info: OverlayInfo = { part, image, place, box, where: 'inline', zoom: 1 };
  const shown = src !== null && painted === src;
  const body = (
    <figure
      ref={figure}
      className={`relative m-0 max-w-full shrink-0 rounded-[3px] ring-1 ring-line ${box.width > 0 && box.width < SMALL_IMAGE_PX ? '' : 'overflow-hidden'} ${shown ? 'bg-surface' : 'bg-surface-2'}`}
      style={figureStyle(image.width, image.height, fit)}
      title={title}
      data-testid="image-view"
      data-sha={image.sha256}
      data-state={shown ? 'shown' : 'loading'}
      onPointerEnter={() => focusImage(id)}
      onPointerDown={() => focusImage(id)}
    >
      {src && (
        <img
          src={src}
          alt={`Image, ${title}`}
          decoding="async"
          draggable={false}
          className={`absolute inset-0 h-full w-full rounded-[3px] object-contain transition-opacity duration-100 ${shown ? 'opacity-100' : 'opacity-0'}`}
          // Drawn at twice its pixels or more, its pixels stay sharp squares (a blur reads worse).
          style={box.width >= 2 * image.width ? { imageRendering: 'pixelated' } : undefined}
          onLoad={() => setPainted(src)}
          onError={() => void imageFailure(project, image.sha256).then((message) => setFailure({ key, message }))}
        />
      )}
      {shown && drawOverlay && (
        <div className="pointer-events-none absolute inset-0" data-testid="image-overlay">
          {drawOverlay(info)}
        </div>
      )}
    </figure>
  );
  return (
    <>
      {fit === 'box' ? (
        <div className="flex h-full min-h-0 w-full items-center justify-center" style={{ containerType: 'size' }}>
          {body}
        </div>
      ) : (
        body
      )}
      {zoomed && zoomed[0]?.id === id && createPortal(<ZoomView entries={zoomed} />, document.body)}
    </>
  );
}

/** An image the page cannot show: why, in its own box, the rest of the item untouched. */
function ProblemBox({ message, title, sha }: { message: string; title?: string; sha?: string }) {
  return (
    <div
      role="note"
      className="flex max-w-full items-start gap-2 rounded-[3px] border border-dashed border-line-strong bg-surface-2 px-3 py-2 text-[13px] text-muted"
      title={title}
      data-testid="image-problem"
      data-sha={sha}
    >
      <span aria-hidden className="select-none text-faint">▨</span>
      <span className="min-w-0">
        <span className="font-medium text-fg">Image not shown: </span>
        {message}
      </span>
    </div>
  );
}

/** An image that was never stored (an http URL is never fetched): says so, the URL as plain text. */
function UnavailableBox({ part }: { part: ImagePart }) {
  const why = part.unavailable ?? 'the image was not stored, so it cannot be shown';
  const where = part.origin.kind === 'url' ? part.origin.url : part.origin.kind === 'path' ? part.origin.path : null;
  return (
    <div
      role="note"
      className="flex max-w-full items-start gap-2 rounded-[3px] border border-dashed border-line-strong bg-surface-2 px-3 py-2 text-[13px] text-muted"
      data-testid="image-unavailable"
    >
      <span aria-hidden className="select-none text-faint">▨</span>
      <span className="min-w-0">
        <span className="font-medium text-fg">Image {why}</span>
        {where && (
          <span className="mt-0.5 block font-mono text-[12px] break-all text-faint select-text" data-testid="image-unavailable-url">
            {where}
          </span>
        )}
      </span>
    </div>
  );
}
