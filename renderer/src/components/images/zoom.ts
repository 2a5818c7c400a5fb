// The zoom view's arithmetic, apart from the page so it can be tested. A view is a zoom relative to
// "fit" (1 = the whole image fits its pane) and the image point at the pane's centre, in fractions of the
// image (0..1). Two panes share one view: each draws its own image by it, so the same part of both
// images is in view at the same relative zoom (synced), whatever their sizes.

export interface ZoomView {
  /** 1 = fitted to the pane; 2 = twice that. */
  scale: number;
  /** The image point at the pane's centre, in fractions of the image's width and height. */
  cx: number;
  cy: number;
}

export interface PaneGeometry {
  /** The image's size in pixels (as shown, after orientation). */
  imageW: number;
  imageH: number;
  /** The pane's size in CSS pixels. */
  paneW: number;
  paneH: number;
}

export interface DrawnBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

export const FITTED: ZoomView = { scale: 1, cx: 0.5, cy: 0.5 };

/** One zoom step (+ / -, one wheel notch). */
export const ZOOM_STEP = 1.25;
/** One arrow press pans this share of the pane. */
export const PAN_STEP = 0.15;

function valid(g: PaneGeometry): boolean {
  return g.imageW > 0 && g.imageH > 0 && g.paneW > 0 && g.paneH > 0;
}

/** CSS pixels per image pixel when fitted: the whole image in the pane, never cropped. */
export function fitScale(g: PaneGeometry): number {
  if (!valid(g)) return 1;
  return Math.min(g.paneW / g.imageW, g.paneH / g.imageH);
}

/** The most zoom: at least 8 × fit, and up to one image pixel as 16 CSS pixels for small images in big panes. */
export function maxScale(g: PaneGeometry): number {
  if (!valid(g)) return 8;
  return Math.max(8, 16 / fitScale(g));
}

function clamp(value: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, value));
}

/**
 * Keeps a view sensible for a pane: the zoom between fit and the maximum, and the centre where no
 * empty margin shows past an image edge that is wider (or taller) than the pane; an edge that fits
 * is centred.
 */
export function clampView(v: ZoomView, g: PaneGeometry): ZoomView {
  const scale = clamp(Number.isFinite(v.scale) ? v.scale : 1, 1, maxScale(g));
  if (!valid(g)) return { scale, cx: 0.5, cy: 0.5 };
  const drawnW = g.imageW * fitScale(g) * scale;
  const drawnH = g.imageH * fitScale(g) * scale;
  const axis = (c: number, drawn: number, pane: number) => {
    if (drawn <= pane + 1e-9) return 0.5;
    const half = pane / 2 / drawn;
    return clamp(Number.isFinite(c) ? c : 0.5, half, 1 - half);
  };
  return { scale, cx: axis(v.cx, drawnW, g.paneW), cy: axis(v.cy, drawnH, g.paneH) };
}

/** Where the image is drawn in its pane (CSS pixels, relative to the pane's top-left corner). */
export function drawnBox(view: ZoomView, g: PaneGeometry): DrawnBox {
  const v = clampView(view, g);
  const width = g.imageW * fitScale(g) * v.scale;
  const height = g.imageH * fitScale(g) * v.scale;
  return { left: g.paneW / 2 - v.cx * width, top: g.paneH / 2 - v.cy * height, width, height };
}

/**
 * Zooms by a factor, keeping the image point under `at` (pane pixels; the centre when absent) where
 * it is. Clamped to the pane.
 */
export function zoomBy(view: ZoomView, factor: number, g: PaneGeometry, at?: { x: number; y: number }): ZoomView {
  const from = clampView(view, g);
  const to = clampView({ ...from, scale: from.scale * factor }, g);
  if (!valid(g)) return to;
  const point = at ?? { x: g.paneW / 2, y: g.paneH / 2 };
  const before = drawnBox(from, g);
  // The image fraction under the point now…
  const fx = (point.x - before.left) / before.width;
  const fy = (point.y - before.top) / before.height;
  // …stays under it: the new centre is that fraction minus the point's offset from the centre.
  const width = g.imageW * fitScale(g) * to.scale;
  const height = g.imageH * fitScale(g) * to.scale;
  return clampView({ scale: to.scale, cx: fx - (point.x - g.paneW / 2) / width, cy: fy - (point.y - g.paneH / 2) / height }, g);
}

/** Moves the view by pane pixels (positive dx shows more of the right side). */
export function panBy(view: ZoomView, dx: number, dy: number, g: PaneGeometry): ZoomView {
  const v = clampView(view, g);
  if (!valid(g)) return v;
  const width = g.imageW * fitScale(g) * v.scale;
  const height = g.imageH * fitScale(g) * v.scale;
  return clampView({ scale: v.scale, cx: v.cx + dx / width, cy: v.cy + dy / height }, g);
}

/** One arrow press: a share of the pane in the arrow's direction. */
export function panStep(view: ZoomView, direction: 'left' | 'right' | 'up' | 'down', g: PaneGeometry): ZoomView {
  const dx = direction === 'left' ? -1 : direction === 'right' ? 1 : 0;
  const dy = direction === 'up' ? -1 : direction === 'down' ? 1 : 0;
  return panBy(view, dx * PAN_STEP * g.paneW, dy * PAN_STEP * g.paneH, g);
}

/** CSS pixels per image pixel at this view (how much the pixels are enlarged). */
export function pixelScale(view: ZoomView, g: PaneGeometry): number {
  return fitScale(g) * clampView(view, g).scale;
}

/** Key 1: one image pixel as one CSS pixel (actual size), about the same centre; a small image stays at fit. */
export function actualSize(view: ZoomView, g: PaneGeometry): ZoomView {
  return clampView({ ...view, scale: 1 / fitScale(g) }, g);
}

/** The drawn size against the image's own pixels, which "fit" and "156 %" (of fit) do not tell: "42 % of full size". */
export function fullSizeWords(view: ZoomView, g: PaneGeometry): string {
  return `${Math.round(pixelScale(view, g) * 100)} % of full size`;
}

/** The zoom as people read it: "fit", "250 %". */
export function zoomWords(view: ZoomView): string {
  return view.scale <= 1.0001 ? 'fit' : `${Math.round(view.scale * 100)} %`;
}
