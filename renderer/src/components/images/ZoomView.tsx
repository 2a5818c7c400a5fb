// The zoom view: the focused image over the whole window, or two side by side zoomed and panned together
// (synced: the same part of each at the same zoom relative to fit). Arrows pan, + / - or the wheel zoom
// (at the pointer), 0 fits again, drag pans, Esc (or z) closes. It has the keyboard while open: nothing
// on the screen below acts on a key.
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { describeImage } from '../../../../shared/images';
import { Kbd } from '../Kbd';
import type { OverlayInfo } from './overlay';
import { useImageSource } from './useImageSource';
import { closeZoom, type ZoomEntry } from './zoomStore';
import { actualSize, drawnBox, FITTED, fullSizeWords, panBy, panStep, pixelScale, zoomBy, zoomWords, ZOOM_STEP, type PaneGeometry, type ZoomView as View } from './zoom';

type Size = { w: number; h: number };

function geometryOf(entry: ZoomEntry, size: Size | undefined): PaneGeometry {
  return { imageW: entry.image.width, imageH: entry.image.height, paneW: size?.w ?? 0, paneH: size?.h ?? 0 };
}

const ARROWS: Record<string, 'left' | 'right' | 'up' | 'down'> = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down' };

export function ZoomView({ entries }: { entries: readonly ZoomEntry[] }) {
  const [view, setView] = useState<View>(FITTED);
  const [sizes, setSizes] = useState<Size[]>([]);
  const root = useRef<HTMLDivElement>(null);
  const panes = useRef<(HTMLDivElement | null)[]>([]);
  const geometry = useRef<PaneGeometry[]>([]);
  geometry.current = entries.map((e, i) => geometryOf(e, sizes[i]));

  // The keyboard is the zoom view's while it is open; focus comes back where it was.
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    root.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.isComposing) return;
      event.stopPropagation();
      if (event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      const lead = geometry.current[0];
      if (!lead) return;
      const key = event.key;
      if (key === 'Escape' || key === 'z' || key === 'Z') closeZoom();
      else if (ARROWS[key]) setView((v) => panStep(v, ARROWS[key]!, lead));
      else if (key === '+' || key === '=') setView((v) => zoomBy(v, ZOOM_STEP, lead));
      else if (key === '-' || key === '_') setView((v) => zoomBy(v, 1 / ZOOM_STEP, lead));
      else if (key === '0') setView(FITTED);
      else if (key === '1') setView((v) => actualSize(v, lead));
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      if (before?.isConnected) before.focus({ preventScroll: true });
    };
  }, []);

  useLayoutEffect(() => {
    const measure = () => setSizes(panes.current.slice(0, entries.length).map((el) => ({ w: el?.clientWidth ?? 0, h: el?.clientHeight ?? 0 })));
    measure();
    const observer = new ResizeObserver(measure);
    for (const el of panes.current) if (el) observer.observe(el);
    return () => observer.disconnect();
  }, [entries.length]);

  // The wheel zooms at the pointer (a native listener: React's wheel listeners cannot prevent scrolling).
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const onWheel = (event: WheelEvent) => {
      const pane = (event.target as Element | null)?.closest<HTMLElement>('[data-zoom-pane]');
      event.preventDefault();
      if (!pane || event.deltaY === 0) return;
      const i = Number(pane.dataset.zoomPane);
      const g = geometry.current[i];
      if (!g) return;
      const rect = pane.getBoundingClientRect();
      // One notch is one step; a touchpad's small deltas zoom in proportion.
      const factor = Math.pow(ZOOM_STEP, Math.max(-1, Math.min(1, -event.deltaY / 100)));
      setView((v) => zoomBy(v, factor, g, { x: event.clientX - rect.left, y: event.clientY - rect.top }));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  const drag = useRef<{ pointer: number; x: number; y: number; pane: number } | null>(null);
  const onPointerDown = useCallback((event: ReactPointerEvent<HTMLDivElement>, pane: number) => {
    if (event.button !== 0) return;
    drag.current = { pointer: event.pointerId, x: event.clientX, y: event.clientY, pane };
    event.currentTarget.setPointerCapture(event.pointerId);
  }, []);
  const onPointerMove = useCallback((event: ReactPointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.pointer !== event.pointerId) return;
    const g = geometry.current[d.pane];
    const dx = event.clientX - d.x;
    const dy = event.clientY - d.y;
    d.x = event.clientX;
    d.y = event.clientY;
    if (g) setView((v) => panBy(v, -dx, -dy, g));
  }, []);
  const endDrag = useCallback(() => void (drag.current = null), []);

  const synced = entries.length > 1;
  return (
    <div
      ref={root}
      tabIndex={-1}
      role="dialog"
      aria-modal="true"
      aria-label={synced ? 'Zoom: two images, synced' : 'Zoom'}
      className="fixed inset-0 z-50 flex flex-col bg-bg outline-none"
      data-testid="image-zoom"
      data-count={entries.length}
      data-scale={view.scale.toFixed(4)}
      data-cx={view.cx.toFixed(4)}
      data-cy={view.cy.toFixed(4)}
    >
      <header className="flex shrink-0 items-center gap-3 border-b border-line bg-surface px-4 py-1.5 text-[12.5px] text-muted">
        <span className="font-semibold text-fg">Zoom</span>
        <span className="tabular-nums" data-testid="zoom-level">
          {zoomWords(view)}
        </span>
        {entries.length === 1 && geometry.current[0] && geometry.current[0].paneW > 0 && (
          <span className="tabular-nums text-faint" data-testid="zoom-full-size">
            · {fullSizeWords(view, geometry.current[0])}
          </span>
        )}
        {synced && <span title="Both images zoom and pan together">synced</span>}
        <span className="ml-auto hidden items-center gap-1.5 md:flex">
          <Kbd>←</Kbd>
          <Kbd>↑</Kbd>
          <Kbd>→</Kbd>
          <Kbd>↓</Kbd> pan · <Kbd>+</Kbd>
          <Kbd>−</Kbd> or wheel zoom · <Kbd>0</Kbd> fit · <Kbd>1</Kbd> full size
        </span>
        <button className="flex items-center gap-1.5 rounded px-1.5 py-0.5 hover:bg-surface-2 hover:text-fg" onClick={closeZoom} data-testid="zoom-close">
          Close <Kbd>Esc</Kbd>
        </button>
      </header>
      <div className="flex min-h-0 flex-1 gap-px bg-line">
        {entries.map((entry, i) => (
          <ZoomPane
            key={entry.id}
            entry={entry}
            index={i}
            view={view}
            geometry={geometryOf(entry, sizes[i])}
            paneRef={(el) => void (panes.current[i] = el)}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={endDrag}
          />
        ))}
      </div>
    </div>
  );
}

function ZoomPane(props: {
  entry: ZoomEntry;
  index: number;
  view: View;
  geometry: PaneGeometry;
  paneRef(el: HTMLDivElement | null): void;
  onPointerDown(event: ReactPointerEvent<HTMLDivElement>, pane: number): void;
  onPointerMove(event: ReactPointerEvent<HTMLDivElement>): void;
  onPointerUp(): void;
}) {
  const { entry, index, view, geometry } = props;
  const { src, error } = useImageSource(entry.project, entry.image.sha256);
  const ready = geometry.paneW > 0 && geometry.paneH > 0;
  const box = drawnBox(view, geometry);
  const place = { left: box.left, top: box.top, width: box.width, height: box.height };
  // Past 3 CSS pixels per image pixel, show the pixels as squares (artifacts are what people zoom for).
  const pixelated = pixelScale(view, geometry) >= 3;
  const info: OverlayInfo = { part: entry.part, image: entry.image, place: entry.place, box: { width: box.width, height: box.height }, where: 'zoom', zoom: view.scale };
  return (
    <div
      ref={props.paneRef}
      className="relative min-w-0 flex-1 cursor-grab touch-none overflow-hidden bg-surface-2 select-none active:cursor-grabbing"
      data-zoom-pane={index}
      data-testid="zoom-pane"
      onPointerDown={(e) => props.onPointerDown(e, index)}
      onPointerMove={props.onPointerMove}
      onPointerUp={props.onPointerUp}
      onPointerCancel={props.onPointerUp}
    >
      {ready && src && (
        <img
          src={src}
          alt={`Image, ${describeImage(entry.image)}, zoomed`}
          decoding="async"
          draggable={false}
          className="absolute max-w-none"
          style={{ ...place, imageRendering: pixelated ? 'pixelated' : 'auto' }}
          data-testid="zoom-image"
        />
      )}
      {ready && src && entry.overlay && (
        <div className="pointer-events-none absolute" style={place} data-testid="zoom-overlay">
          {entry.overlay(info)}
        </div>
      )}
      {error && <div className="absolute inset-0 flex items-center justify-center p-6 text-center text-[13px] text-muted">Image not shown: {error}</div>}
      <div className="pointer-events-none absolute bottom-2 left-2 rounded bg-surface/90 px-1.5 py-0.5 text-[11.5px] text-muted ring-1 ring-line" data-testid="zoom-caption">
        {describeImage(entry.image)}
      </div>
    </div>
  );
}
