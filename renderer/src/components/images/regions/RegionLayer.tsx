// One image's region marks on a labeling screen, drawn in the ImageView's overlay (fractions of the image,
// so they stay right at every size): each box or point with its number and tag on a solid label, a dark
// and a light edge around the line so it reads on any picture and in either theme, "not present" tags as
// chips along the bottom. Dragging draws a box; with the point tool a click places a point; clicking a
// mark edits it. The keyboard's crosshair and a box's first corner show here too. In the zoom view the
// marks are drawn without the tools (dragging pans there).
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent, type RefObject } from 'react';
import type { RegionMark } from '../../../../../shared/regions';
import { boxStyle, fractionAt, pointStyle, SMALL_IMAGE_PX, type OverlayInfo } from '../overlay';
import { useRegionState, type RegionState } from './context';
import { boxFrom, labelStyle, marksOn, pointAt, samePlace, type Point } from './regionModel';

/** The line of a mark: the accent colour with a dark outer and a light inner edge (reads on any image). */
const LINE = '2px solid var(--accent)';
const HALO = '0 0 0 1px rgba(0,0,0,0.75), inset 0 0 0 1px rgba(255,255,255,0.8)';

export function RegionLayer({ info }: { info: OverlayInfo }) {
  const state = useRegionState();
  if (!state) return null;
  return <Layer info={info} state={state} />;
}

function Layer({ info, state }: { info: OverlayInfo; state: RegionState }) {
  const { image, place, where } = info;
  const layer = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<{ from: Point; to: Point } | null>(null);
  const inline = where === 'inline';
  const mine = marksOn(state.marks, image.sha256, place);
  const active = state.active && state.active.image === image.sha256 && samePlace(state.active.place, place) ? state.active : null;
  const editingHere = state.editing && state.editing.draft.image === image.sha256 && samePlace(state.editing.draft.at, place) ? state.editing : null;

  const { register } = state;
  useEffect(() => {
    if (!inline || !layer.current) return;
    return register({ image: image.sha256, place, element: layer.current });
  }, [inline, register, image.sha256, place]);

  const down = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (event.button !== 0 || !layer.current) return;
    const at = fractionAt(event, layer.current);
    event.currentTarget.setPointerCapture(event.pointerId);
    setDrag({ from: at, to: at });
  };
  const move = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (!drag || !layer.current) return;
    const to = fractionAt(event, layer.current);
    setDrag((d) => (d ? { ...d, to } : d));
  };
  const up = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (!drag || !layer.current) return;
    const to = fractionAt(event, layer.current);
    setDrag(null);
    const box = boxFrom(drag.from, to);
    const base = { image: image.sha256, at: place, tag: '' };
    if (box) state.edit({ ...base, kind: 'box', box }, layer.current);
    else if (active?.kind === 'point') state.edit({ ...base, kind: 'point', point: pointAt(to) }, layer.current);
  };

  const open = (mark: RegionMark, index: number) => {
    if (layer.current) state.edit(mark, layer.current, index);
  };
  const preview = drag ? boxFrom(drag.from, drag.to) : active?.anchor ? boxFrom(active.anchor, active.cursor) : null;
  const drawing = editingHere && editingHere.index === undefined ? editingHere.draft : null;
  const absent = mine.filter(({ mark }) => mark.kind === 'absent');
  return (
    <div
      ref={layer}
      className={`group/regions absolute inset-0 ${inline ? 'pointer-events-auto cursor-crosshair' : ''}`}
      data-testid="region-layer"
      data-sha={image.sha256}
      data-place={String(place)}
      data-marking={active ? active.kind : undefined}
      onPointerDown={inline ? down : undefined}
      onPointerMove={inline ? move : undefined}
      onPointerUp={inline ? up : undefined}
      onPointerCancel={() => setDrag(null)}
    >
      {mine.map(({ mark, index }) =>
        mark.kind === 'absent' ? null : (
          <Mark key={index} mark={mark} index={index} selected={editingHere?.index === index} onOpen={inline ? () => open(mark, index) : undefined} />
        ),
      )}
      {drawing && drawing.kind !== 'absent' && <Mark mark={drawing} index={state.marks.length} selected />}
      {preview && <div className="pointer-events-none" style={{ ...boxStyle(preview), border: '2px dashed var(--accent)', boxShadow: HALO }} data-testid="region-preview" />}
      {active && <Crosshair at={active.cursor} />}
      {absent.length > 0 && (
        <div className="pointer-events-none absolute bottom-1 left-1 flex max-w-[95%] flex-wrap gap-1">
          {absent.map(({ mark, index }) => (
            <button
              key={index}
              type="button"
              className={`${inline ? 'pointer-events-auto' : ''} rounded-[3px] border border-black/60 bg-white/90 px-1.5 text-[11px] leading-[1.6] font-medium text-[#111]`}
              title={`Not present: ${mark.tag}${mark.note ? ` — ${mark.note}` : ''}`}
              data-testid="region-absent"
              onPointerDown={(e) => e.stopPropagation()}
              onClick={inline ? () => open(mark, index) : undefined}
            >
              ∅ no {mark.tag}
            </button>
          ))}
        </div>
      )}
      {inline && <Toolbar info={info} state={state} layer={layer} shown={Boolean(active)} />}
    </div>
  );
}

/** A box or point with its number and tag: shape and number tell marks apart, not colour. */
function Mark({ mark, index, selected, onOpen }: { mark: RegionMark; index: number; selected?: boolean; onOpen?: () => void }) {
  const title = `${index + 1}: ${mark.kind}, ${mark.tag || 'no tag yet'}${mark.note ? ` — ${mark.note}` : ''}`;
  const stop = (e: ReactPointerEvent) => e.stopPropagation();
  const clickable = onOpen ? 'pointer-events-auto cursor-pointer' : '';
  const outline = selected ? '2px dashed var(--fg)' : undefined;
  const common = { 'data-testid': 'region-mark', 'data-kind': mark.kind, 'data-tag': mark.tag, 'data-number': index + 1, title, onPointerDown: stop, onClick: onOpen };
  const shape =
    mark.kind === 'box' && mark.box ? (
      <div {...common} className={clickable} style={{ ...boxStyle(mark.box), border: LINE, boxShadow: HALO, outline, outlineOffset: 2 }} />
    ) : mark.kind === 'point' && mark.point ? (
      <div {...common} className={`${clickable} h-4 w-4 rounded-full`} style={{ ...pointStyle(mark.point), border: LINE, boxShadow: HALO, outline }}>
        <span className="absolute top-1/2 left-1/2 h-1 w-1 -translate-x-1/2 -translate-y-1/2 rounded-full ring-1 ring-white" style={{ background: 'var(--accent)' }} />
      </div>
    ) : null;
  if (!shape) return null;
  return (
    <>
      {shape}
      <span
        className={`${clickable} truncate rounded-[3px] px-1 text-[11px] leading-[1.5] font-semibold whitespace-nowrap text-white ring-1 ring-black/60 dark:text-[#111]`}
        style={{ ...labelStyle(mark), background: 'var(--accent)' }}
        title={title}
        data-testid="region-label"
        onPointerDown={stop}
        onClick={onOpen}
      >
        {index + 1}
        {mark.tag ? ` ${mark.tag}` : ''}
        {mark.note ? ' ✎' : ''}
      </span>
    </>
  );
}

function Crosshair({ at }: { at: Point }) {
  return (
    <div className="pointer-events-none" style={pointStyle(at)} data-testid="region-crosshair" data-x={at[0]} data-y={at[1]}>
      <div className="relative h-6 w-6">
        <span className="absolute top-1/2 left-0 h-[2px] w-full -translate-y-1/2 bg-[var(--accent)] shadow-[0_0_0_1px_rgba(255,255,255,0.85)]" />
        <span className="absolute top-0 left-1/2 h-full w-[2px] -translate-x-1/2 bg-[var(--accent)] shadow-[0_0_0_1px_rgba(255,255,255,0.85)]" />
      </div>
    </div>
  );
}

/** Box / point / not present, for the mouse: shown on hover and while the keyboard marks this image. */
function Toolbar({ info, state, layer, shown }: { info: OverlayInfo; state: RegionState; layer: RefObject<HTMLDivElement | null>; shown: boolean }) {
  const { image, place } = info;
  const kind = state.active && state.active.image === image.sha256 && samePlace(state.active.place, place) ? state.active.kind : null;
  const button = (pressed: boolean) =>
    `pointer-events-auto flex h-5 min-w-5 items-center justify-center rounded-[3px] border px-0.5 text-[12px] leading-none font-semibold ${pressed ? 'border-accent bg-accent text-white dark:text-[#111]' : 'border-black/50 bg-white/90 text-[#111]'}`;
  // On a small image the tools would cover a good part of it: they sit beside it, to its right.
  const beside = info.box.width > 0 && info.box.width < SMALL_IMAGE_PX;
  return (
    <div
      className={`absolute ${beside ? 'top-0 left-full pl-1' : 'top-1 right-1'} flex gap-0.5 whitespace-nowrap transition-opacity ${shown ? 'opacity-100' : 'opacity-0 group-hover/regions:opacity-100 focus-within:opacity-100'}`}
      onPointerDown={(e) => e.stopPropagation()}
      data-testid="region-tools"
    >
      <button type="button" className={button(kind === 'box')} title="Box: drag on the image (keys: . then arrows and Enter at two corners)" aria-label="Mark a box" onClick={() => state.activate(image.sha256, place, 'box')}>
        □
      </button>
      <button type="button" className={button(kind === 'point')} title="Point: click on the image (keys: . then p, arrows, Enter)" aria-label="Mark a point" onClick={() => state.activate(image.sha256, place, 'point')}>
        •
      </button>
      <button
        type="button"
        className={button(false)}
        title="Not present: say a tagged thing is not on this image (keys: . then n)"
        aria-label="Not present"
        onClick={() => layer.current && state.edit({ image: image.sha256, at: place, kind: 'absent', tag: '' }, layer.current)}
      >
        ∅
      </button>
    </div>
  );
}
