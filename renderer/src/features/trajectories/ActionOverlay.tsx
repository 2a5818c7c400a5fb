// A GUI agent's action drawn on the screenshot it was taken on (the ImageView overlay, components/images/
// overlay.ts): a click as a ring with a crosshair at its point (two rings for a double click, a dotted
// ring for a hover), the target element's box dashed, a drag as an arrow from its start to its end, a
// scroll as an arrow the way it scrolls, and a label saying what was done ("type “Thai”", "key ctrl+s").
// Positions are fractions of the image, so the marks stay right in the column and in the zoom view;
// sizes are in CSS pixels, so they read the same at every zoom. One colour (Okabe–Ito vermillion, which
// colour-blind readers tell from the page) with a white and a black halo, so it shows on light and dark
// screenshots alike; the shapes and the words say what it is, never the colour alone.
import type { CSSProperties, ReactNode } from 'react';
import { actionWords, placeAction, type GuiAction, type PlacedAction } from '../../../../shared/guiActions';
import type { ImageRef } from '../../../../shared/images';
import { boxStyle, pointStyle, type ImageOverlay, type OverlayInfo } from '../../components/images/overlay';

/** The mark's colour and its halos (the same in light and dark themes: it sits on the screenshot). */
const INK = '#D55E00';
const HALO = '0 0 0 1.5px #ffffff, 0 0 0 2.5px rgba(0, 0, 0, 0.75)';
const INNER = 'inset 0 0 0 1.5px #ffffff, inset 0 0 0 2.5px rgba(0, 0, 0, 0.55)';

/** The actions placed on one image (fractions), worked out from the image's own size. */
export function placeActions(actions: readonly GuiAction[], image: Pick<ImageRef, 'width' | 'height'>): PlacedAction[] {
  return actions.map((a) => placeAction(a, image));
}

/** An overlay that draws `actions` on the image it is given (their coordinates read against that image's size). */
export function actionOverlay(actions: readonly GuiAction[], under?: ImageOverlay | null): ImageOverlay {
  return (info) => (
    <>
      {under?.(info)}
      <ActionMarks placed={placeActions(actions, info.image)} info={info} />
    </>
  );
}

const pct = (v: number) => `${(v * 100).toFixed(3)}%`;

function Ring({ size, dotted = false }: { size: number; dotted?: boolean }) {
  return <span style={{ position: 'absolute', left: '50%', top: '50%', width: size, height: size, marginLeft: -size / 2, marginTop: -size / 2, borderRadius: '50%', border: `3px ${dotted ? 'dotted' : 'solid'} ${INK}`, boxShadow: `${HALO}, ${INNER}` }} />;
}

/** A crosshair: four arms with a gap at the centre, so the exact pixel stays visible. */
function Crosshair() {
  const arm = (style: CSSProperties) => <span style={{ position: 'absolute', background: INK, boxShadow: '0 0 0 1px #ffffff', ...style }} />;
  return (
    <>
      {arm({ left: 'calc(50% - 1px)', top: 'calc(50% - 22px)', width: 2, height: 14 })}
      {arm({ left: 'calc(50% - 1px)', top: 'calc(50% + 8px)', width: 2, height: 14 })}
      {arm({ top: 'calc(50% - 1px)', left: 'calc(50% - 22px)', height: 2, width: 14 })}
      {arm({ top: 'calc(50% - 1px)', left: 'calc(50% + 8px)', height: 2, width: 14 })}
    </>
  );
}

/** The words beside a mark: white on the mark's colour, so they read on any page. */
function Label({ at, children, n }: { at: [number, number] | null; children: ReactNode; n: number | null }) {
  // Below right of the point; flipped left / up near the right or bottom edge.
  const style: CSSProperties = at
    ? {
        position: 'absolute',
        ...(at[0] > 0.6 ? { right: pct(1 - at[0]), marginRight: 18 } : { left: pct(at[0]), marginLeft: 18 }),
        ...(at[1] > 0.8 ? { bottom: pct(1 - at[1]), marginBottom: 18 } : { top: pct(at[1]), marginTop: 18 }),
      }
    : { position: 'absolute', left: 6, top: 6 };
  return (
    <span
      style={{ ...style, background: INK, color: '#ffffff', border: '1px solid #ffffff', boxShadow: '0 0 0 1px rgba(0,0,0,0.6)', maxWidth: 280 }}
      className="rounded px-1.5 py-px text-[12px] leading-[1.45] font-semibold whitespace-nowrap overflow-hidden text-ellipsis"
      data-testid="gui-action-label"
    >
      {n !== null && <span className="mr-1 tabular-nums opacity-80">{n}</span>}
      {children}
    </span>
  );
}

const ARROW: Record<string, [number, number]> = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] };

/** An arrow (a scroll's way, a drag's path) in the overlay's own pixels. */
function Arrow({ from, to, box }: { from: [number, number]; to: [number, number]; box: { width: number; height: number } }) {
  const [x0, y0, x1, y1] = [from[0] * box.width, from[1] * box.height, to[0] * box.width, to[1] * box.height];
  const angle = Math.atan2(y1 - y0, x1 - x0);
  const head = (da: number) => `${x1 - 12 * Math.cos(angle + da)},${y1 - 12 * Math.sin(angle + da)}`;
  const path = `M${x0},${y0} L${x1},${y1} M${head(0.45)} L${x1},${y1} L${head(-0.45)}`;
  return (
    <svg width={box.width} height={box.height} viewBox={`0 0 ${box.width} ${box.height}`} style={{ position: 'absolute', inset: 0, overflow: 'visible' }} aria-hidden>
      <path d={path} stroke="rgba(0,0,0,0.75)" strokeWidth={6} fill="none" strokeLinecap="round" strokeLinejoin="round" />
      <path d={path} stroke="#ffffff" strokeWidth={4.5} fill="none" strokeLinecap="round" strokeLinejoin="round" />
      <path d={path} stroke={INK} strokeWidth={2.5} fill="none" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** Every placed action of a turn on one image. */
export function ActionMarks({ placed, info }: { placed: PlacedAction[]; info: OverlayInfo }) {
  const many = placed.length > 1;
  return (
    <>
      {placed.map((p, i) => (
        <Mark key={i} p={p} n={many ? i + 1 : null} info={info} />
      ))}
    </>
  );
}

function Mark({ p, n, info }: { p: PlacedAction; n: number | null; info: OverlayInfo }) {
  const { action } = p;
  const kind = action.kind;
  const point = p.point;
  const measured = info.box.width > 0 && info.box.height > 0;
  const words = actionWords(action, true);
  const scrollTo = kind === 'scroll' && action.scroll ? ARROW[action.scroll.direction]! : null;
  const from = point ?? [0.5, 0.5];
  return (
    <span data-testid="gui-action" data-kind={kind} data-x={point ? point[0].toFixed(4) : ''} data-y={point ? point[1].toFixed(4) : ''} data-outside={p.outside !== null} aria-hidden>
      {p.box && <span style={{ ...boxStyle(p.box), border: `2px dashed ${INK}`, boxShadow: HALO, borderRadius: 2 }} data-testid="gui-action-box" />}
      {point && (kind === 'click' || kind === 'double_click' || kind === 'hover' || kind === 'select' || kind === 'type' || (kind === 'drag' && !p.to)) && (
        <span style={{ ...pointStyle(point), width: 0, height: 0 }} data-testid="gui-action-point">
          {kind === 'hover' ? <Ring size={26} dotted /> : kind === 'type' || kind === 'select' ? <Ring size={14} /> : <Ring size={28} />}
          {kind === 'double_click' && <Ring size={42} />}
          {(kind === 'click' || kind === 'double_click') && <Crosshair />}
        </span>
      )}
      {measured && kind === 'drag' && point && p.to && (
        <>
          <Arrow from={point} to={p.to} box={info.box} />
          <span style={{ ...pointStyle(point), width: 0, height: 0 }}>
            <Ring size={14} />
          </span>
        </>
      )}
      {measured && scrollTo && (
        <Arrow from={from} to={[from[0] + (scrollTo[0] * 70) / info.box.width, from[1] + (scrollTo[1] * 70) / info.box.height]} box={info.box} />
      )}
      <Label at={point ?? (p.box ? [p.box[0], p.box[3]] : null)} n={n}>
        {p.outside ? '⚠ ' : ''}
        {words}
      </Label>
    </span>
  );
}
