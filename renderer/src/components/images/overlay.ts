// The overlay API: what is drawn over an image (region marks, a GUI agent's action), positioned in
// fractions of the image (0..1, origin top-left, as shown after EXIF orientation), so it stays right at
// every size and zoom. An ImageView calls the overlay with the image and the box the image is drawn in;
// whatever it returns sits in a layer exactly over the drawn image (position: absolute; inset: 0), both
// in the column and in the zoom view.
//
//   <ImageView project={p} part={part} place={0} overlay={(o) => <div style={boxStyle([0.1, 0.2, 0.5, 0.6])} />} />
//
// Or for every image below a point of the tree (a screen, a response column), without passing props
// through ContentView:
//
//   <ImageOverlayProvider overlay={(o) => (o.place === 0 ? <Marks sha={o.image.sha256} /> : null)}>…</ImageOverlayProvider>
//
// The layer lets clicks through (pointer-events: none) unless the overlay's own elements ask for them
// (pointer-events: auto), so drawing tools receive pointer events and a plain mark does not block zoom.
import { createContext, createElement, useContext, type CSSProperties, type ReactNode } from 'react';
import type { ImagePart, ImagePlace, ImageRef } from '../../../../shared/images';

export interface OverlayInfo {
  /** The image part as stored in the content. */
  part: ImagePart;
  /** Its stored bytes' description (sha256, width, height…). */
  image: ImageRef;
  /** Where the image sits in the item: the prompt, or a response by its source-order index. */
  place: ImagePlace;
  /** The drawn image's size in CSS pixels (0 × 0 until first measured). */
  box: { width: number; height: number };
  /** 'inline' in the column, 'zoom' in the zoom view. */
  where: 'inline' | 'zoom';
  /** Zoom relative to the fitted image (1 inline and at fit). */
  zoom: number;
}

export type ImageOverlay = (info: OverlayInfo) => ReactNode;

/**
 * An image drawn narrower than this (px) has no room for tools on it: its overlay may put them beside
 * the image (the figure does not clip it), so a drag can start anywhere on the picture.
 */
export const SMALL_IMAGE_PX = 240;

const OverlayContext = createContext<ImageOverlay | null>(null);

/** Gives every ImageView below it this overlay (an ImageView's own `overlay` prop takes precedence). */
export function ImageOverlayProvider({ overlay, children }: { overlay: ImageOverlay | null; children?: ReactNode }) {
  return createElement(OverlayContext.Provider, { value: overlay }, children);
}

/** The overlay that applies here: the prop, else the nearest provider's. */
export function useImageOverlay(own?: ImageOverlay | null): ImageOverlay | null {
  const inherited = useContext(OverlayContext);
  return own ?? inherited;
}

function pct(fraction: number): string {
  return `${(Math.min(1, Math.max(0, fraction)) * 100).toFixed(4)}%`;
}

/** Style that places an element over a box [x0, y0, x1, y1] given in fractions of the image. */
export function boxStyle(box: readonly [number, number, number, number]): CSSProperties {
  const [x0, y0, x1, y1] = box;
  return { position: 'absolute', left: pct(Math.min(x0, x1)), top: pct(Math.min(y0, y1)), width: pct(Math.abs(x1 - x0)), height: pct(Math.abs(y1 - y0)) };
}

/** Style that centres an element on a point [x, y] given in fractions of the image. */
export function pointStyle(point: readonly [number, number]): CSSProperties {
  return { position: 'absolute', left: pct(point[0]), top: pct(point[1]), transform: 'translate(-50%, -50%)' };
}

/**
 * The image point under a pointer event, in fractions (clamped to 0..1), given the overlay layer (or
 * any element that covers the drawn image exactly): `fractionAt(event, event.currentTarget)`.
 */
export function fractionAt(event: { clientX: number; clientY: number }, layer: Element): [number, number] {
  const rect = layer.getBoundingClientRect();
  if (rect.width <= 0 || rect.height <= 0) return [0, 0];
  const x = (event.clientX - rect.left) / rect.width;
  const y = (event.clientY - rect.top) / rect.height;
  return [Math.min(1, Math.max(0, x)), Math.min(1, Math.max(0, y))];
}
